"""Title norms in the database (docs/norms.md §8; spec title-norms §A.3): computed at publish
for the period's standard events, kept with the publish and taken back with it, shown by
``player``, the desk and the site; titles by rating from the stored ratings.

The round robin is ``sample_data/norms/roundrobin.trf`` (10 players, 2026-03-07 to 03-15),
rated in the list of 2026-04 with the list of 2026-03 in force at its start, which gives
every player the rating his file gives. Ann Seeker (1001, ENG, WIM, F) scores 7½/9 against
2550, 2500, 2480 (GM), 2400, 2380 (IM), 2300 (FM), 2250, 2200, 2150: sum 21,210.

* IM (floor 2050, nobody below it): Ra = 21,210 / 9 = 2356.67 → 2357 ≥ 2230; p = 7.5 / 9 =
  83.3 % → 83, dp 273 (table 1.4.9), Rp = 2357 + 273 = 2630 ≥ 2450; titled 6 ≥ ⌈9/2⌉ = 5; GM
  or IM 5 ≥ 3; own federation ENG 3 (Im Four, Fm Six, Plain Seven) ≤ ⌊27/5⌋ = 5, the
  largest 3 ≤ 6; 7 federations. A norm. Credit: at Ra 2357, Rp ≥ 2450 needs dp ≥ 93, so p ≥
  63 %: 5½/9 = 61 % falls short, 6/9 = 67 % does: 6 needed, 1½ over, one full point: 9 + 1
  = 10 games.
* GM (floor 2200): the lowest, 2150, raised to 2200: 21,260 / 9 = 2362.2 → 2362 < 2380.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import read_csv
from db_helpers import query, run, write_list
from desk_helpers import desk
from openpyxl import load_workbook

ROUND_ROBIN = Path(__file__).parents[2] / "sample_data" / "norms" / "roundrobin.trf"
#: The list in force at the round robin's start: every player at his file's rating.
LISTED = ["1001,2290", "1002,2550", "1003,2500", "1004,2480", "1005,2400", "1006,2380",
          "1007,2300", "1008,2250", "1009,2200", "1010,2150"]  # fmt: skip
CERTIFICATES = [
    "standard/norms/roundrobin/1001-IM.html",
    "standard/norms/roundrobin/1001-WGM.html",
    "standard/norms/roundrobin/1001-WIM.html",
]


def _published(tmp_path: Path) -> tuple[Path, Path]:
    """The database whose period 2026-04 holds the round robin, published under OUT."""
    db = tmp_path / "r.sqlite"
    listing = write_list(tmp_path, ["id,rating", *LISTED])
    assert run("init", "--list", listing, "--period", "2026-03", "--db", db)[0] == 0
    assert run("add", ROUND_ROBIN, "--db", db)[0] == 0
    out = tmp_path / "out"
    code, said, err = run("publish", "2026-04", "--db", db, "--out", out)
    assert code == 0, said + err
    return db, out


def _stored(db: Path) -> list[str]:
    rows = query(db, "SELECT path FROM published_files WHERE path LIKE '%norms%' ORDER BY path")
    return [str(path) for (path,) in rows]


def test_publish_keeps_the_period_norms_and_unpublish_takes_them_back(tmp_path: Path) -> None:
    db, out = _published(tmp_path)
    assert _stored(db) == ["standard/norms.csv", *CERTIFICATES]
    rows = read_csv(out / "2026-04" / "standard" / "norms.csv")
    ann = {row["norm_title"]: row for row in rows if row["id"] == "1001"}
    im = ann["IM"]
    assert (im["norm"], im["games"], im["points"], im["Ra"], im["p"], im["dp"], im["Rp"]) == (
        "true", "9", "7.5", "2357", "83", "273", "2630",
    )  # fmt: skip
    assert (im["titled"], im["target_titled"], im["own_federation"], im["federations"]) == (
        "6", "5", "3", "7",
    )  # fmt: skip
    assert (im["credit_games"], im["event"], im["failing"]) == ("10", "roundrobin", "")
    gm = ann["GM"]
    assert (gm["norm"], gm["Ra"], gm["raised_from"], gm["raised_to"], gm["failing"]) == (
        "false", "2362", "2150", "2200", "1.4.8 Ra 2362 < 2380",
    )  # fmt: skip
    # Every player within reach (9 games, 3 or more GM/IM/WGM/WIM opponents) is checked:
    # all ten, GM and IM each, WGM and WIM for Ann alone: 2 × 10 + 2.
    assert len(rows) == 22
    assert sum(row["norm"] == "true" for row in rows) == 3  # IM, WGM, WIM: Ann's
    code, said, _ = run("unpublish", "2026-04", "--db", db)
    assert code == 0, said
    assert _stored(db) == []
    # Published again: the same norms, byte for byte.
    first = (out / "2026-04" / "standard" / "norms.csv").read_bytes()
    assert run("publish", "2026-04", "--db", db, "--out", out)[0] == 0
    assert (out / "2026-04" / "standard" / "norms.csv").read_bytes() == first


def test_player_shows_the_norms_made_in_text_workbook_and_page(tmp_path: Path) -> None:
    db, out = _published(tmp_path)
    code, text, _ = run("player", "1001", "--db", db, "--out", tmp_path / "p")
    assert code == 0
    lines = text.splitlines()
    at = lines.index("title norms made (norms.csv of each published period, docs/norms.md §8)")
    assert lines[at + 1 : at + 5] == [
        "  list     norm  event                         games  points    Ra    Rp  rounds  credit",
        "  2026-04  IM    Norm Round Robin (synthetic)      9     7.5  2357  2630  1-9         10",
        "  2026-04  WGM   Norm Round Robin (synthetic)      9     7.5  2357  2630  1-9         11",
        "  2026-04  WIM   Norm Round Robin (synthetic)      9     7.5  2357  2630  1-9         13",
    ]
    # Each title's norms against an application's 27 games (1.5.1). The credits: IM 10
    # (above); WGM: Rp ≥ 2400 needs dp ≥ 43, p ≥ 56 %: 5/9 = 55.6 → 56 % (4½ = 50 % short),
    # 2½ over, 9 + 2 = 11; WIM: Rp ≥ 2250 needs dp ≥ −107 and 35 %: 3½/9 = 39 % (3 is 33 %),
    # 4 over, 9 + 4 = 13.
    flat = " ".join(line.strip() for line in lines)
    assert (
        "rating-batch title-check): IM 1 norm, 10 of 27 games; WGM 1 norm, 11 of 27 games; "
        "WIM 1 norm, 13 of 27 games"
    ) in flat
    # Another player of the event made none: no section.
    assert "title norms made" not in run("player", "1002", "--db", db)[1]
    sheet = load_workbook(tmp_path / "p" / "player-1001.xlsx")["Titles"]
    values = [list(row) for row in sheet.iter_rows(values_only=True)]
    assert ["2026-04", "IM", "Norm Round Robin (synthetic)", 9, 7.5, 2357, 2630, "1-9", 10] in [
        row[:9] for row in values
    ]
    page = (tmp_path / "p" / "player-1001.html").read_text(encoding="utf-8")
    assert '<a href="2026-04/standard/norms/roundrobin/1001-IM.html">IM</a>' in page
    # The link leads where publish --out wrote the certificate.
    assert (out / "2026-04" / "standard" / "norms" / "roundrobin" / "1001-IM.html").is_file()


def test_the_desk_and_the_site_show_a_players_norms(tmp_path: Path) -> None:
    db, out = _published(tmp_path)
    page = desk(db, tmp_path / "desk").get("/players/1001")
    assert page.status_code == 200
    assert '<a href="2026-04/standard/norms/roundrobin/1001-IM.html">IM</a>' in page.text
    # The page's base is /lists/: the link opens the stored certificate.
    certificate = desk(db, tmp_path / "desk").get(
        "/lists/2026-04/standard/norms/roundrobin/1001-IM.html"
    )
    assert certificate.status_code == 200 and "IM NORM" in certificate.text
    site = (out / "site" / "players" / "1001.html").read_text(encoding="utf-8")
    assert "<h2>Title norms made</h2>" in site
    certificate = "../2026-04/standard/files/norms/roundrobin/1001-IM.html"
    assert f'<a href="{certificate}">IM</a>' in site
    assert (out / "site" / "players" / certificate).resolve().is_file()
    assert "Title norms made" not in (out / "site" / "players" / "1002.html").read_text("utf-8")


@pytest.mark.parametrize("rules", [None, "sample_data/rules/fexerj-2027.toml"])
def test_titles_by_rating_need_30_games_when_the_rating_is_reached(
    tmp_path: Path, rules: str | None
) -> None:
    """21 and 22 (2290) each beat five 2290s in a January event: with K 40 (fewer than 30
    games) each win is 40 × (1 − 0.5) = +20, so both are 2390 on the list of 2026-02, past
    FM's 2300. 21 had 25 games and now 30: FM by rating; 22 had 24 and now 29: not yet."""
    from trf_text import P, trf

    listing = write_list(
        tmp_path,
        ["id,rating,games_total,sex", "21,2290,25,M", "22,2290,24,F",
         *(f"{n},2290,100,M" for n in range(31, 36))],
    )  # fmt: skip
    db = tmp_path / "r.sqlite"
    chosen = () if rules is None else ("--rules", Path(__file__).parents[2] / rules)
    assert run("init", "--list", listing, "--period", "2026-01", "--db", db, *chosen)[0] == 0
    players = [P(1, "Twenty, One", 2290, 21, 1980), P(2, "Twenty, Two", 2290, 22, 1980, "w"),
               *(P(n - 28, f"Opp, {n}", 2290, n, 1980) for n in range(31, 36))]  # fmt: skip
    # Rank 1 (21) meets ranks 3-7 in rounds 1-5; rank 2 (22) meets 4, 5, 6, 7, 3.
    games = [(r, 1, r + 2, "1-0") for r in range(1, 6)]
    games += [(r, 2, (r + 3 - 3) % 5 + 3, "1-0") for r in range(1, 6)]
    event = tmp_path / "open.trf"
    event.write_text(trf(players, games, start="2026/01/10", end="2026/01/14"), "utf-8")
    assert run("add", event, "--db", db)[0] == 0
    # FEXERJ's lists appear in odd months: the January event goes into March's.
    period = "2026-02" if rules is None else "2026-03"
    assert run("publish", period, "--db", db, "--out", tmp_path / "out")[0] == 0
    one = run("player", "21", "--db", db)[1]
    if rules is not None:
        assert "2026-03" in one  # his history holds the list: only the titles are not judged
        # A federation's rules file rates for its own list: FIDE's titles are not judged on
        # it (the red team saw FM claimed from a national rating).
        assert "by rating" not in one
        return
    assert "  FM by rating (2300): reached on the list of 2026-02 (2390, 30 games)" in one
    # CM: 2290 on the list of 2026-01 was reached with 25 games, which does not count.
    assert "  CM by rating (2200): reached on the list of 2026-02 (2390, 30 games)" in one
    two = run("player", "22", "--db", db)[1]
    flat = " ".join(line.strip() for line in two.splitlines())  # lines wrap at 100 columns
    assert (
        "FM by rating (2300): not yet: on the list of 2026-02, 2300 reached with 29 rated "
        "games: 30 needed (1.3)"
    ) in flat
    # Women's titles for a woman only: 22 (F) is shown WFM, 21 (M) never.
    assert "WFM by rating" in two and "WFM by rating" not in one


def test_a_swiss_in_the_database_takes_1_4_3d_from_its_host_federation(tmp_path: Path) -> None:
    """The host federation (TRF 032) is kept with the event (schema 10): a Swiss of 24, 23
    of them foreign to ENG and 12 GMs in every round, is exempt by 1.4.3d in the database
    as under the norms command (before, no stored event had a host: never exempt). Sam met
    no titled player (out of reach, not checked); player 2 met four GMs."""
    from titles.test_event import swiss_field

    listing = write_list(tmp_path, ["id,rating", *(f"{1000 + n},2300" for n in range(1, 25))])
    db = tmp_path / "r.sqlite"
    assert run("init", "--list", listing, "--period", "2026-01", "--db", db)[0] == 0
    event = tmp_path / "swiss.trf"
    event.write_text(swiss_field(24, 2300, 12), encoding="utf-8")
    assert run("add", event, "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    rows = read_csv(tmp_path / "out" / "2026-02" / "standard" / "norms.csv")
    two = [row for row in rows if row["id"] == "1002" and row["norm_title"] == "IM"]
    assert len(two) == 1 and two[0]["exemption"] == "swiss-1.4.3d"
    assert {row["exemption"] for row in rows} == {"swiss-1.4.3d"}
