"""``drift`` on a database: three lists made by init and two publishes, worked by hand.

The initial list of 2026-01: 11 (born 1980) 1600, 12 (born 2012: a junior, K 40, rules §3)
1500, 13 (born 1970) 1800, who never plays.

* January: 11 beats 12. D = 100, PD 0.64 for 11 (FIDE's table: 99–106 → 0.64), 0.36 for 12.
  11: 20 × (1 − 0.64) = +7.2 → 1607.2 → 1607; 12: 40 × (0 − 0.36) = −14.4 → 1485.6 → 1486.
  The games made 7.2 − 14.4 = −7.2 points (K asymmetry: (20 − 40) × (1 − 0.64)); rounding
  (1607 − 1607.2) + (1486 − 1485.6) = +0.2; the total 4900 → 4893: −7.
* February: a draw. D = 121, PD 0.66 (119–126), 0.34. 11: 20 × (0.5 − 0.66) = −3.2 →
  1603.8 → 1604; 12: 40 × (0.5 − 0.34) = +6.4 → 1492.4 → 1492. Games +3.2 ((40 − 20) ×
  (0.5 − 0.34)), rounding 0.2 − 0.4 = −0.2; the total 4893 → 4896: +3.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import read_csv
from db_helpers import (
    NEWBIE_FIDE_ID,
    P,
    event_file,
    newcomer_database,
    newcomer_plays,
    run,
    write_list,
)

from rating_batch.drift import MEASURES

A, B = P(1, "A, Ann", 1600, 11, 1980), P(2, "B, Bob", 1500, 12, 2012)


def three_lists(folder: Path) -> Path:
    db = folder / "r.sqlite"
    listing = ["id,name,rating,birth_year", '11,"A, Ann",1600,1980', '12,"B, Bob",1500,2012',
               '13,"C, Cid",1800,1970']  # fmt: skip
    steps = [
        ("init", "--list", write_list(folder, listing), "--period", "2026-01"),
        ("add", event_file(folder, "jan", [(1, 1, 2, "1-0")], players=[A, B])),
        ("publish", "2026-02", "--out", folder / "lists"),
        ("add", event_file(folder, "feb", [(1, 2, 1, "=-=")], players=[A, B],
                           day="2026/02/10")),
        ("publish", "2026-03", "--out", folder / "lists"),
    ]  # fmt: skip
    for step in steps:
        code, out, err = run(*step, "--db", db)
        assert code == 0, out + err
    return db


def test_drift_of_three_lists_by_hand(tmp_path: Path) -> None:
    db = three_lists(tmp_path)
    code, out, err = run("drift", "--db", db, "--out", tmp_path / "drift")
    assert code == 0, out + err
    # Means: 4900 / 3 = 1633.3; 4893 / 3 = 1631.0; 4896 / 3 = 1632.0; nobody joined or left,
    # so the whole change is the rating changes': −2.333 + 1.0 = −1.3.
    # The points: 4896 − 4900 = −4 = games −7.2 + 3.2 = −4.0, rounding +0.2 − 0.2 = 0.
    assert out.splitlines()[:4] == [
        "standard lists 2026-01 to 2026-03: 3 list(s)",
        "mean 1633.3 → 1632.0 (-1.3); median 1600.0 → 1604.0",
        "the mean's change: -1.3 from rating changes, +0.0 from players joining, +0.0 from "
        "players leaving (list by list, summed)",
        "the points: -4 = +0 entering +0 leaving -4.0 games +0.0 rounding +0 adjustment +0.0 other",
    ]
    rows = read_csv(tmp_path / "drift" / "drift-standard.csv")
    assert list(rows[0]) == list(MEASURES)
    picked = [
        {key: row[key] for key in ("period", "total", "median", "total_change", "games",
                                   "rounding", "entering", "other")}
        for row in rows
    ]  # fmt: skip
    assert picked == [
        {"period": "2026-01", "total": "4900", "median": "1600.0", "total_change": "",
         "games": "", "rounding": "", "entering": "", "other": ""},
        {"period": "2026-02", "total": "4893", "median": "1607.0", "total_change": "-7.0",
         "games": "-7.2", "rounding": "0.2", "entering": "0.0", "other": "0.0"},
        {"period": "2026-03", "total": "4896", "median": "1604.0", "total_change": "3.0",
         "games": "3.2", "rounding": "-0.2", "entering": "0.0", "other": "0.0"},
    ]  # fmt: skip
    page = (tmp_path / "drift" / "drift-standard.html").read_text(encoding="utf-8")
    assert page.count("<svg") == 5 and "<script" not in page and "http" not in page
    defined = [measure for measure in MEASURES if f"<dt>{measure}</dt>" in page]
    assert defined == list(MEASURES)  # every measure is defined on the page


def test_drift_of_a_kind_without_lists_is_refused(tmp_path: Path) -> None:
    db = three_lists(tmp_path)
    code, out, err = run("drift", "--kind", "rapid", "--db", db, "--out", tmp_path / "drift")
    assert (code, out) == (1, "")
    assert err == (
        f"Error: {db}: no rapid list with FIDE Elo ratings (drift reads the lists of FIDE Elo "
        "and federation Elo databases)\n"
    )
    assert not (tmp_path / "drift").exists()


@pytest.mark.parametrize("kind", ["standard"])
def test_drift_reads_the_lists_as_published(tmp_path: Path, kind: str) -> None:
    """The list's players and total are those of the list.csv each publish wrote."""
    db = three_lists(tmp_path)
    run("drift", "--db", db, "--out", tmp_path / "drift")
    rows = {row["period"]: row for row in read_csv(tmp_path / "drift" / f"drift-{kind}.csv")}
    for period in ("2026-02", "2026-03"):
        listed = read_csv(tmp_path / "lists" / period / kind / "list.csv")
        assert int(rows[period]["players"]) == len(listed)
        assert int(rows[period]["total"]) == sum(int(row["rating"]) for row in listed)


def test_a_new_player_who_received_a_fide_id_is_followed(tmp_path: Path) -> None:
    """Newbie's first rating (2026-02, 1749, K 40) is published under n1#7; he then receives
    a FIDE ID and, in February, beats Idle (1749, K 20): D = 0, expected 0.5 each; Newbie
    +40 × 0.5 = +20.0, Idle −20 × 0.5 = −10.0. 2026-02's players.csv names him n1#7 and
    2026-03's by his FIDE ID: he is one new player, 1 game, score 1 against 0.5 expected,
    and the games made (40 − 20) × 0.5 = +10.0 points."""
    db, _ = newcomer_database(tmp_path)
    steps = [
        ("edit-player", "n1#7", "--fide-id", NEWBIE_FIDE_ID),
        ("add", newcomer_plays(tmp_path)),
        ("publish", "2026-03", "--out", tmp_path / "lists"),
        ("drift", "--out", tmp_path / "drift"),
    ]
    for step in steps:
        code, out, err = run(*step, "--db", db)
        assert code == 0, out + err
    rows = {row["period"]: row for row in read_csv(tmp_path / "drift" / "drift-standard.csv")}
    march = rows["2026-03"]
    picked = [march[key] for key in ("new_players", "new_games", "new_score", "new_expected",
                                     "new_surplus", "new_gain", "games")]  # fmt: skip
    assert picked == ["1", "1", "1.0", "0.5", "0.5", "20.0", "10.0"]
    assert (rows["2026-02"]["joined"], rows["2026-02"]["entering"]) == ("1", "1749.0")
