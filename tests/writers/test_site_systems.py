"""The site under another rating system (docs/site.md §1): a system's own columns headed by
its notation, never by a colliding label of the site's, and its numbers to the decimals the
system publishes (whole numbers whole), on the list page and a player's calculation."""

from __future__ import annotations

import re
from pathlib import Path

from db_helpers import run
from html_text import read_page
from monthly.test_dwz_db import LIST, dwz_database, events


def site(tmp_path: Path) -> Path:
    dwz_database(tmp_path, events(tmp_path))
    return tmp_path / "out" / "site"


def test_the_dwz_list_heads_its_index_as_the_dwz_does_not_as_the_site(tmp_path: Path) -> None:
    page = read_page((site(tmp_path) / "2025-04" / "standard" / "list.html").read_text("utf-8"))
    heads = page.rows[0]
    # The DWZ's index (evaluations so far) was headed "Rating lists", the site's own title.
    assert "Rating lists" not in heads
    assert heads[-2:] == ["Index", "DWZ/Index"]
    assert page.rows[1][-2:] == ["21", "2007-21"]


def test_a_dwz_players_calculation_shows_the_dwzs_symbols_and_decimals(tmp_path: Path) -> None:
    # Four, D (1600, born 2009: 16 at the end, J 5) loses to the first DWZ 1822:
    # D = 1600 − 1822 = −222, P(D) = Φ(−222/(200·√2)) = 0.216259 → We 0.216 (3 decimals, as
    # the DSB prints it); E0 = 1.6⁴ + 5 = 11.5536 (4 decimals, §10.9); E 12; Rn 1587 (tests/monthly/
    # test_dwz_db.py). Rc, a first DWZ's mean, is shown to 2 decimals; whole numbers whole.
    page = read_page((site(tmp_path) / "players" / "14.html").read_text("utf-8"))
    heads = next(row for row in page.rows if "We" in row)
    row = page.rows[page.rows.index(heads) + 1]
    shown = dict(zip(heads, row, strict=True))
    assert {k: shown[k] for k in ("Ri", "D", "P(D)", "R0", "Index", "Alter", "J", "E0", "E",
                                  "n", "W", "We", "DWZ neu", "Index neu")} == {
        "Ri": "1822", "D": "-222", "P(D)": "0.216", "R0": "1600", "Index": "20",
        "Alter": "16", "J": "5", "E0": "11.5536", "E": "12", "n": "1", "W": "0.0",
        "We": "0.216", "DWZ neu": "1587", "Index neu": "21",
    }  # fmt: skip
    # No calculations.csv key heads a column, no number carries more than 4 decimals.
    assert not [h for h in heads if re.fullmatch(r"[a-z0-9_]+", h) and "_" in h]
    assert not [c for c in row if re.fullmatch(r"−?\d+\.\d{5,}", c)]


def test_a_dwz_site_in_german_heads_its_pages_in_german(tmp_path: Path) -> None:
    rules = tmp_path / "dsb.toml"
    rules.write_text('system = "dwz"\n\n[site]\ntitle = "Schachbund"\nlanguage = "de"\n')
    listed = tmp_path / "dwz.csv"
    listed.write_text("\n".join(LIST) + "\n", encoding="utf-8")
    db = tmp_path / "d.sqlite"
    code, out, err = run("init", "--list", listed, "--period", "2025-02", "--db", db,
                         "--rules", rules)  # fmt: skip
    assert code == 0, out + err
    assert run("add", events(tmp_path)[0], "--db", db)[0] == 0
    code, out, err = run("publish", "2025-03", "--db", db, "--out", tmp_path / "out")
    assert code == 0, out + err
    text = (tmp_path / "out" / "site" / "2025-03" / "standard" / "list.html").read_text("utf-8")
    assert '<html lang="de">' in text
    heads = read_page(text).rows[0]
    assert heads == ["Rang", "Name", "Verb.", "Geb.", "DWZ", "+/−", "Partien", "Index",
                     "DWZ/Index"]  # fmt: skip


def _list_heads(tmp_path: Path, extra: dict[str, list[str]], notation: object) -> list[str]:
    """The list page's headings for a list of two with list.csv's ``extra`` columns."""
    import pandas as pd

    from rating_batch.monthly.site_settings import SiteSettings
    from rating_batch.periods import Period
    from rating_batch.staging import staged_outputs
    from rating_batch.writers.site import SiteList, player_stems, ranked_lists, write_site_pages

    frame = pd.DataFrame({"id": ["1", "2"], "name": ["A", "B"], "sex": ["M", "F"],
                          "birth_year": ["1990", "1980"], "federation": "ENG", "title": "",
                          "games": ["3", "0"], "rating": ["150", "140"], **extra})  # fmt: skip
    frame = frame.assign(rating_value=frame["rating"].astype(float), change_value=float("nan"))
    events = pd.DataFrame(columns=["key", "name", "start", "end"])
    lists = ranked_lists([SiteList(Period.parse("2026-07"), "standard", frame, None, None,
                                   None, events, {})], lower_is_better=False)  # fmt: skip
    with staged_outputs(tmp_path) as outputs:
        outputs.own(tmp_path / "site", ".*")
        write_site_pages(lists, SiteSettings(), player_stems(lists), tmp_path / "site", outputs,
                         notation)  # type: ignore[arg-type]  # fmt: skip
    page = (tmp_path / "site" / "2026-07" / "standard" / "list.html").read_text("utf-8")
    return read_page(page).rows[0]


def test_a_public_lists_columns_have_proper_distinct_labels(tmp_path: Path) -> None:
    # docs/site.md §1: each column headed by the system's notation, capitalised; no two
    # alike ("Games" of the period beside the grade's "games"), the ECF's P-method pool
    # (pool_opponents, pool_points) not shown, no internal name.
    from rating_batch.systems.ecf import EcfSystem
    from rating_batch.systems.ecf_grade import EcfGradeSystem
    from rating_batch.systems.uscf import UscfSystem

    ecf = _list_heads(tmp_path / "ecf", {"partial_games": ["", "12"],
                                         "last_period": ["2026-06", ""],
                                         "pool_opponents": ["", "9724"],
                                         "pool_points": ["", "7"], "category": ["K", "P"]},
                      EcfSystem.notation)  # fmt: skip
    assert ecf[4:] == ["Rating", "+/−", "Games", "Partial games", "Last played", "Category"]
    grade = _list_heads(tmp_path / "g", {"grade_games": ["30", "12"],
                                         "last_period": ["2026-06", ""], "category": ["B", "E"]},
                        EcfGradeSystem.notation)  # fmt: skip
    assert grade[4:] == ["Grade", "+/−", "Games", "Grade games", "Last list", "Category"]
    uscf = _list_heads(tmp_path / "u", {"games_total": ["30", "12"], "record": ["mixed", ""],
                                        "peak": ["1800", ""], "abs_floor": ["100", ""]},
                       UscfSystem.notation)  # fmt: skip
    assert uscf[4:] == ["Rating", "+/−", "Games", "N", "Record", "Peak", "Absolute floor"]
    for heads in (ecf, grade, uscf):
        assert len(set(heads)) == len(heads)


def test_the_constants_are_shown_as_a_person_writes_them() -> None:
    from rating_batch.writers.html import constant_text

    assert constant_text("(5.0, 10.0, 15.0)") == "5, 10, 15"
    assert [constant_text(v) for v in ("True", "False", "0.06", "200", "by-end-date")] == [
        "yes", "no", "0.06", "200", "by-end-date"]  # fmt: skip
