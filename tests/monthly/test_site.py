"""The web site (monthly/site.py, writers/site.py, writers/site_players.py): written by
every publish and by ``site``, from the database's published files; no broken link, HTML5,
basic accessibility; the same under Glicko-2; consistent after re-publish and unpublish."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from db_helpers import database, event_file, newcomer_database, run, tree
from site_checks import accessibility_problems, broken_links, html5_errors
from trf_text import P, trf

from monthly.test_site_logo import png
from monthly.test_system_db import glicko2_db
from rating_batch.errors import RulesError
from rating_batch.monthly.site_settings import site_settings

SAMPLE = Path(__file__).parents[2] / "sample_data" / "monthly"


def two_lists(folder: Path) -> tuple[Path, Path]:
    """11 (1600) beats 12 (1500) in January, 12 beats 11 in February; both published.

    By hand (fide-2025, K 20, FIDE's table): February's list, D 100 → PD 0.64: 11 +7.2 →
    1607, 12 −7.2 → 1493. March's, D 114 → PD 0.66: 11 −13.2 → 1594 (−13), 12 +13.2 →
    1506 (+13)."""
    db = database(folder)
    out = folder / "out"
    jan = event_file(folder, "jan", [(1, 1, 2, "1-0")], title="January Open")
    assert run("add", jan, "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", out)[0] == 0
    feb = event_file(folder, "feb", [(1, 2, 1, "1-0")], day="2026/02/07", title="February Cup")
    assert run("add", feb, "--db", db)[0] == 0
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    return db, out


def cells(page: Path, row_start: str) -> list[list[str]]:
    """The text of each cell of the table rows that start with ``row_start``."""
    text = page.read_text(encoding="utf-8")
    rows = re.findall("(" + re.escape(row_start) + r".*?)</tr>", text, flags=re.S)
    found = [
        [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in rows
    ]
    return [row for row in found if row]


def test_publish_writes_the_list_with_ranks_and_changes_against_the_previous_list(
    tmp_path: Path,
) -> None:
    _, out = two_lists(tmp_path)
    site = out / "site"
    march = cells(site / "2026-03" / "standard" / "list.html", '<tr data-sex="')
    # rank, name, born, rating, +/−, games, K (no player has a federation or a title, and
    # nobody a total of games: those columns are left out)
    assert march == [
        ["1", "A", "1980", "1594", "−13", "1", "20"],
        ["2", "B", "1980", "1506", "+13", "1", "20"],
    ]
    # The first published list has no list before it on the site: no change shown.
    february = cells(site / "2026-02" / "standard" / "list.html", '<tr data-sex="')
    assert february == [
        ["1", "A", "1980", "1607", "", "1", "20"],
        ["2", "B", "1980", "1493", "", "1", "20"],
    ]


def test_the_index_links_every_list_newest_first(tmp_path: Path) -> None:
    _, out = two_lists(tmp_path)
    index = (out / "site" / "index.html").read_text(encoding="utf-8")
    lists = re.findall(r'href="([0-9-]+/standard)/list.html"', index)
    assert lists == ["2026-03/standard", "2026-02/standard"]
    assert 'href="2026-03/standard/files/report.xlsx"' in index
    # The files carried: publish's list, changes, report and pages, as it wrote them.
    carried = out / "site" / "2026-03" / "standard" / "files"
    assert sorted(p.relative_to(carried).as_posix() for p in carried.rglob("*.*")) == [
        "changes.csv",
        "events/feb.html",
        "index.html",
        "list.csv",
        "list.txt",
        "list.xlsx",
        "report.xlsx",
    ]
    period = out / "2026-03" / "standard"
    assert (carried / "report.xlsx").read_bytes() == (period / "report.xlsx").read_bytes()
    assert 'href="2026-02/standard/event/jan.html">January Open</a>' in index


def test_a_players_page_has_his_history_events_and_calculation(tmp_path: Path) -> None:
    _, out = two_lists(tmp_path)
    page = out / "site" / "players" / "11.html"
    history = cells(page, '<tr><td class="text">standard')
    # His rating changes, oldest first: the list, its period, rating, change, games, title
    # (no rank and no list date any more: they change for a player who did not play, issue
    # 42). 1607 then 1594 (two_lists, by hand): a row each, as each list changed it.
    assert [row[1:] for row in history] == [
        ["2026-02", "1607", "", "1", ""],
        ["2026-03", "1594", "−13", "1", ""],
    ]
    text = page.read_text(encoding="utf-8")
    assert '<a href="../2026-03/standard/event/feb.html">February Cup</a>' in text
    assert '<a href="../2026-02/standard/event/jan.html">January Open</a>' in text
    assert "<svg" in text and text.count('<circle class="k-standard"') == 2
    # The calculation of March only: one game against B, lost (score 0).
    assert "standard 2026-03</h3>" in text and "standard 2026-02</h3>" not in text
    assert 'href="../2026-03/standard/files/events/feb.html#p-11"' in text


def test_the_event_page_links_its_players(tmp_path: Path) -> None:
    _, out = two_lists(tmp_path)
    page = out / "site" / "2026-03" / "standard" / "event" / "feb.html"
    rows = cells(page, "<tr>")
    # Name, federation, games, score, rating before, on the list: the winner first.
    assert rows == [["B", "", "1", "1", "1493", "1506"], ["A", "", "1", "0", "1607", "1594"]]
    assert 'href="../../../players/12.html"' in page.read_text(encoding="utf-8")


def test_the_site_of_the_sample_federation_has_no_broken_link_and_valid_pages(
    tmp_path: Path,
) -> None:
    db, out = tmp_path / "r.sqlite", tmp_path / "out"
    assert (
        run("init", "--list", SAMPLE / "list-2026-01.csv", "--period", "2026-01", "--db", db)[0]
        == 0
    )
    for month, period in (("2026-01", "2026-02"), ("2026-02", "2026-03")):
        assert run("add", SAMPLE / month, "--db", db)[0] == 0
        assert run("publish", period, "--db", db, "--out", out)[0] == 0
    site = out / "site"
    assert broken_links(site) == []
    own = [p for p in site.rglob("*.html") if "files" not in p.relative_to(site).parts]
    assert len(own) > 300  # two lists, their events and every listed player
    assert [error for page in own for error in html5_errors(page)] == []
    assert [problem for page in own for problem in accessibility_problems(page)] == []


def test_player_pages_made_block_by_block_are_the_pages_made_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A FIDE-size site makes its player pages a block of players at a time; a block must
    not change a page (a calculation's columns are those the period fills for every player,
    not a block's). Blocks of 7 players and of 13 calculation rows cut the sample
    federation's ~150 players and their calculations everywhere, a player's rows included."""
    from rating_batch.writers import site_players

    db = tmp_path / "r.sqlite"
    assert (
        run("init", "--list", SAMPLE / "list-2026-01.csv", "--period", "2026-01", "--db", db)[0]
        == 0
    )
    for month, period in (("2026-01", "2026-02"), ("2026-02", "2026-03")):
        assert run("add", SAMPLE / month, "--db", db)[0] == 0
        assert run("publish", period, "--db", db, "--out", tmp_path / "whole")[0] == 0
    whole = tree(tmp_path / "whole" / "site" / "players")
    assert len(whole) > 100
    monkeypatch.setattr(site_players, "PAGE_BLOCK", 7)
    monkeypatch.setattr(site_players, "CALCULATION_BLOCK", 13)
    assert run("site", "--db", db, "--out", tmp_path / "blocks")[0] == 0
    assert tree(tmp_path / "blocks" / "site" / "players") == whole


def test_the_site_of_a_glicko2_database_shows_the_systems_columns(tmp_path: Path) -> None:
    db = glicko2_db(tmp_path)
    out = tmp_path / "out"
    assert run("publish", "2026-02", "--db", db, "--out", out)[0] == 0
    site = out / "site"
    assert broken_links(site) == []
    page = site / "2026-02" / "standard" / "list.html"
    heads = re.findall(r"<button type=\"button\">([^<]*)</button>", page.read_text())
    assert heads == [
        "Rank",
        "Name",
        "Fed",
        "Born",
        "Rating",
        "+/−",
        "Games",
        "RD",
        "σ",  # Glickman's symbols head the system's own columns (docs/site.md §1)
    ]
    # Glickman's example: One, 1500 → 1464, RD 152 (tests/monthly/test_system_db.py).
    one = [row for row in cells(page, '<tr data-sex="') if row[1] == "One, Ann"]
    assert one[0][4] == "1464" and one[0][7] == "152"
    assert html5_errors(page) == [] and accessibility_problems(page) == []
    # Her page's calculation to each column's decimals (officer review M12 found 16 digits):
    # g(φ_j) 0.995498, 0.953149, 0.724235 to the 4 decimals of Glicko-2's notation, as the
    # player report shows them (docs/systems.md §7), no number beyond 6.
    pages = [p.read_text() for p in sorted((site / "players").rglob("*.html"))]
    (mine,) = [text for text in pages if "<h1>One, Ann" in text]
    calculation = mine.split('<table class="calculation">', 1)[1].split("</table>", 1)[0]
    assert {"0.9955", "0.9531", "0.7242"} <= set(re.findall(r">([\d.]+)</td>", calculation))
    assert [text for text in pages if re.search(r">-?\d+\.\d{7,}<", text)] == []


def test_site_writes_it_again_and_unpublish_then_site_drops_the_list(tmp_path: Path) -> None:
    db, out = two_lists(tmp_path)
    written = tree(out / "site")
    shutil.rmtree(out / "site")
    code, printed, _ = run("site", "--db", db, "--out", out)
    assert code == 0 and printed == f"wrote {out}/site/index.html: 2 published list(s)\n"
    assert tree(out / "site") == written
    assert run("unpublish", "2026-03", "--db", db)[0] == 0
    assert run("site", "--db", db, "--out", out)[0] == 0
    assert not (out / "site" / "2026-03").exists()
    assert "2026-03" not in (out / "site" / "index.html").read_text(encoding="utf-8")
    assert broken_links(out / "site") == []


def test_re_publishing_leaves_the_site_as_it_was(tmp_path: Path) -> None:
    db, out = two_lists(tmp_path)
    written = tree(out / "site")
    shutil.rmtree(out / "site")
    code, printed, _ = run("publish", "2026-03", "--db", db, "--out", out)
    assert code == 0 and printed.startswith("re-published 2026-03")
    assert tree(out / "site") == written


def test_a_foreign_file_in_the_site_folder_is_refused_and_kept(tmp_path: Path) -> None:
    db, out = two_lists(tmp_path)
    (out / "site" / "notes.txt").write_text("mine")
    code, _, err = run("site", "--db", db, "--out", out)
    assert code == 1
    assert err == (
        f"Error: the web site was not written: {out}/site: holds files rating_batch does not "
        "write (notes.txt); move them away or choose another --out (nothing was written); the "
        f"published lists and their files are in place, and 'rating-batch site --out {out}' "
        "writes the site\n"
    )
    assert (out / "site" / "notes.txt").read_text() == "mine"


def test_a_player_not_on_a_list_is_on_the_event_page_without_a_link(tmp_path: Path) -> None:
    db = database(tmp_path)
    out = tmp_path / "out"
    # C has no FIDE ID and two games: not rated yet, so on no list and without a page.
    players = [P(1, "A", 1600, 11, 1980), P(2, "B", 1500, 12, 1980), P(3, "C", None, None, 1990)]
    jan = event_file(tmp_path, "jan", [(1, 1, 3, "1-0"), (2, 2, 3, "0-1")], players=players)
    code, printed, err = run("add", jan, "--db", db)
    assert code == 0, printed + err
    assert run("publish", "2026-02", "--db", db, "--out", out)[0] == 0
    site = out / "site"
    assert sorted(p.name for p in (site / "players").iterdir()) == ["11.html", "12.html"]
    event = (site / "2026-02" / "standard" / "event" / "jan.html").read_text()
    assert '<td class="name">C</td>' in event
    assert broken_links(site) == []


RULES = """\
base = "fide-2025"

[site]
title = "Federação Exemplo"
language = "pt"
top = 0
junior_age = "twenty"
colour = "blue"
"""


def test_the_site_section_is_checked_and_every_problem_told_at_its_line() -> None:
    with pytest.raises(RulesError) as error:
        site_settings(RULES, "rules.toml")
    assert str(error.value).splitlines() == [
        "rules.toml:6: key 'site.top' must be from 1 to 10000, not 0",
        "rules.toml:7: key 'site.junior_age' must be a whole number, not 'twenty'",
        "rules.toml:8: unknown key 'site.colour': write one of title, logo, language, top, "
        "junior_age, senior_age, with_publish",
    ]


def test_the_site_section_chooses_title_language_and_logo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "crest.png").write_bytes(png())
    text = '[site]\ntitle = "Federação Exemplo"\nlanguage = "pt"\nlogo = "crest.png"\ntop = 10\n'
    settings = site_settings(text, "rules.toml")
    assert (settings.title, settings.language, settings.top) == ("Federação Exemplo", "pt", 10)
    assert settings.logo is not None and settings.logo.path == Path("crest.png")
    with pytest.raises(
        RulesError,
        match=r"rules.toml:2: key 'site.language' must be one of "
        r"en, pt, de, not 'fr'",
    ):
        site_settings('[site]\nlanguage = "fr"\n', "rules.toml")
    with pytest.raises(RulesError, match=r"rules.toml:2: key 'site.logo': 'x.png' does not exist"):
        site_settings('[site]\nlogo = "x.png"\n', "rules.toml")


@pytest.mark.parametrize("base", ['base = "fide-2025"', 'system = "glicko2"'])
def test_a_rules_file_with_a_site_section_makes_the_database_and_its_site(
    base: str, tmp_path: Path
) -> None:
    # The rules loaders leave [site] to the site (FIDE Elo's and another system's): init
    # takes the file, rate reads it, and the site of the first publish is the federation's.
    rules = tmp_path / "fed.toml"
    rules.write_text(f'{base}\n\n[site]\ntitle = "Federação Exemplo"\nlanguage = "pt"\n',
                     encoding="utf-8")  # fmt: skip
    listed = tmp_path / "list.csv"
    listed.write_text("id,rating\n11,1600\n12,1500\n", encoding="utf-8")
    db, out = tmp_path / "f.sqlite", tmp_path / "lists"
    seeded = ["--from-elo"] if "glicko2" in base else []
    code, printed, err = run("init", "--list", listed, "--period", "2026-01", "--rules", rules,
                             "--db", db, *seeded)  # fmt: skip
    assert code == 0, printed + err
    jan = event_file(tmp_path, "jan", [(1, 1, 2, "1-0")])
    assert run("rate", jan, "--rules", rules, "--out", tmp_path / "rated")[0] == 0
    assert run("add", jan, "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", out)[0] == 0
    index = (out / "site" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="pt">' in index and "Federação Exemplo" in index


def test_a_site_written_apart_from_publishing(tmp_path: Path) -> None:
    # [site] with_publish = false: publish writes the lists only; 'site' writes the site.
    rules = tmp_path / "fed.toml"
    rules.write_text('base = "fide-2025"\n\n[site]\nwith_publish = false\n', encoding="utf-8")
    listed = tmp_path / "list.csv"
    listed.write_text("id,rating\n11,1600\n12,1500\n", encoding="utf-8")
    db, out = tmp_path / "f.sqlite", tmp_path / "lists"
    assert (
        run("init", "--list", listed, "--period", "2026-01", "--rules", rules, "--db", db)[0] == 0
    )
    assert run("add", event_file(tmp_path, "jan", [(1, 1, 2, "1-0")]), "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", out)[0] == 0
    assert (out / "2026-02" / "standard" / "list.csv").exists()
    assert not (out / "site").exists()
    code, printed, _ = run("site", "--db", db, "--out", out)
    assert code == 0 and printed.startswith(f"wrote {out / 'site'}/index.html: 1 published list")
    assert broken_links(out / "site") == []
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('base = "fide-2025"\n\n[site]\nwith_publish = "no"\n', encoding="utf-8")
    code, _, err = run("init", "--list", listed, "--rules", wrong, "--db", tmp_path / "w.sqlite")
    assert (
        code == 1 and f"{wrong}:4: key 'site.with_publish' must be true or false, not 'no'" in err
    )
    assert not (tmp_path / "w.sqlite").exists()


def test_a_wrong_site_section_is_refused_by_init_at_its_line(tmp_path: Path) -> None:
    rules = tmp_path / "fed.toml"
    rules.write_text('base = "fide-2025"\n\n[site]\nlanguage = "fr"\n', encoding="utf-8")
    listed = tmp_path / "list.csv"
    listed.write_text("id,rating\n11,1600\n", encoding="utf-8")
    db = tmp_path / "f.sqlite"
    code, _, err = run("init", "--list", listed, "--rules", rules, "--db", db)
    assert code == 1
    assert f"{rules}:4: key 'site.language' must be one of en, pt, de, not 'fr'" in err
    assert not db.exists()


def test_an_event_rated_in_two_lists_has_a_page_in_each(tmp_path: Path) -> None:
    # US Chess: G/45;d5 is filed under standard and rated in rapid too (docs/systems.md
    # §9.1), so each list's site has the event's page, and its players link to both.
    listed = tmp_path / "state.csv"
    listed.write_text("id,rating,games_total\n11,2300,100\n12,2300,100\n")
    db = tmp_path / "d.sqlite"
    assert run("init", "--list", listed, "--period", "2026-07", "--db", db,
               "--rules", "uscf")[0] == 0  # fmt: skip
    event = tmp_path / "dual.trf"
    people = [P(1, "One, Ann", 2300, 11, 1980), P(2, "Two, Bea", 2300, 12, 1981)]
    event.write_text(trf(people, [(1, 1, 2, "1-0")], start="2026/07/20", end="2026/07/20",
                         extra=("122 G/45;d5",)))  # fmt: skip
    assert run("add", event, "--db", db)[0] == 0
    out = tmp_path / "out"
    assert run("publish", "2026-08", "--db", db, "--out", out)[0] == 0
    site = out / "site"
    assert (site / "2026-08" / "standard" / "event" / "dual.html").is_file()
    assert (site / "2026-08" / "rapid" / "event" / "dual.html").is_file()
    page = (site / "players" / "11.html").read_text(encoding="utf-8")
    assert 'href="../2026-08/rapid/event/dual.html"' in page
    assert broken_links(site) == []


def test_publish_says_where_the_web_site_is(tmp_path: Path) -> None:
    """Officer review M2: nothing said the site had been written, nor where; publish names
    its folder, the one to copy to the web host."""
    import os

    db = database(tmp_path)
    jan = event_file(tmp_path, "jan", [(1, 1, 2, "1-0")])
    assert run("add", jan, "--db", db)[0] == 0
    code, out, _ = run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")
    assert code == 0
    site = tmp_path / "out" / "site"
    assert f"web site: {site}{os.sep} (every published list; copy it to the web host)\n" in out
    assert (site / "index.html").is_file()


def test_a_player_who_never_played_has_no_empty_sections(tmp_path: Path) -> None:
    # newcomer_database: 11 … 16 play Newbie in n1; Idle, Ian (17) is on the list and never
    # plays. His page: his rating, no "Events played" table over no row, no "Calculation of
    # the last period" heading over nothing. 11 played n1, but his game against the unrated
    # Newbie counts for no rating: the events, no calculation. Newbie (n1#7): both.
    _, folder = newcomer_database(tmp_path)
    players = folder.parents[1] / "site" / "players"
    idle = (players / "17.html").read_text(encoding="utf-8")
    assert "1749" in idle
    assert "Events played" not in idle and "Calculation of the last period" not in idle
    assert "<tbody>\n</tbody>" not in idle
    played = (players / "11.html").read_text(encoding="utf-8")
    assert "<h2>Events played</h2>" in played and "Newbie Event" in played
    assert "Calculation of the last period" not in played
    newbie = (players / "n1-7.html").read_text(encoding="utf-8")
    assert "<h2>Events played</h2>" in newbie and "Newbie Event" in newbie
    assert "<h2>Calculation of the last period</h2>" in newbie
