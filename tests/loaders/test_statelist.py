"""The other rating systems' lists (loaders/statelist.py, docs/formats.md §11)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from db_helpers import newcomer_database, process, query, run

from rating_batch.errors import InputError
from rating_batch.loaders.statelist import is_state_list, read_state_list
from rating_batch.systems.dwz.system import DwzSystem as DWZ

GLICKO2 = {"rating": "Float64", "rd": "Float64", "volatility": "Float64"}


def test_a_birth_year_of_0_or_0000_is_unknown(tmp_path: Path) -> None:
    """docs/formats.md §4.1: 0 and 0000 are an unknown birth year, in every list."""
    path = tmp_path / "state.csv"
    path.write_text(
        "id,name,birth_year,rating,rd,volatility\n"
        '11,"Aa, Bb",0,1600,80,0.06\n12,"Cc, Dd",0000,1500,80,0.06\n13,"Ee, Ff",1990,1700,80,0.06\n'
    )
    listed = read_state_list(path, GLICKO2, "glicko2")
    assert listed["birth_year"].tolist() == [pd.NA, pd.NA, "1990"]
    db = tmp_path / "g.sqlite"
    code, _, err = run("init", "--list", path, "--rules", "glicko2", "--db", db)
    assert code == 0, err
    assert query(db, "SELECT fide_id, birth_year FROM players ORDER BY fide_id") == [
        (11, None),
        (12, None),
        (13, 1990),
    ]


#: What an Elo list is told under glicko2: how to make a database's states from it
#: (docs/systems.md §7).
FROM_ELO = "; if this is an Elo list, init --rules glicko2 --list makes each state from it"


@pytest.fixture(scope="module")
def elo_lists(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of a published FIDE Elo list: list.csv, list.xlsx, list.txt."""
    return newcomer_database(tmp_path_factory.mktemp("elo"))[1]


def test_check_under_glicko2_tells_our_elo_list_csv_by_the_list_reader(elo_lists: Path) -> None:
    # docs/formats.md §12: a list named to check is checked as a list, under --rules SYSTEM
    # as that system's list; list.csv has id and rating but no rd or volatility.
    listing = elo_lists / "list.csv"
    code, out, err = run("check", "--rules", "glicko2", listing)
    assert code == 1
    assert out == (
        f"{listing}:1: no column rd, volatility for glicko2 (a list has id, rating, rd, "
        f"volatility){FROM_ELO}\n"
    )
    assert err == "1 error(s), 0 warning(s)\n"


@pytest.mark.parametrize("name", ["list.xlsx", "list.txt"])
def test_an_elo_list_that_is_not_a_csv_is_told_a_glicko2_list_is_one(
    elo_lists: Path, name: str, tmp_path: Path
) -> None:
    listing = elo_lists / name
    said = f"{listing}: a glicko2 list is a CSV file of id, rating, rd, volatility{FROM_ELO}"
    code, out, _ = run("check", "--rules", "glicko2", listing)
    assert (code, out) == (1, said + "\n")
    event = elo_lists.parent.parent.parent / "n1.trf"
    code, out, err = process("rate", event, "--rules", "glicko2", "--list", listing,
                             "--out", tmp_path / "out")  # fmt: skip
    assert (code, out, err) == (1, "", f"Error: {said}\n")
    assert not (tmp_path / "out").exists()


#: A state with a required number, optional numbers and a string of fixed values (US Chess's
#: shape, docs/systems.md §9.3).
SHAPE = {"rating": "Float64", "games": "Float64", "peak": "Float64", "record": "string"}


def test_optional_columns_may_be_left_out_or_empty(tmp_path: Path) -> None:
    path = tmp_path / "state.csv"
    path.write_text("id,rating,record\n11,1600,all_wins\n12,1500,\n")
    listed = read_state_list(path, SHAPE, "uscf", optional=("games", "peak"),
                             choices={"record": ("all_wins", "mixed")})  # fmt: skip
    assert listed["rating"].tolist() == [1600.0, 1500.0]
    assert listed["games"].isna().all() and listed["peak"].isna().all()
    assert listed["record"].tolist() == ["all_wins", pd.NA]


def test_a_value_outside_the_choices_or_an_optional_one_alone_is_told(tmp_path: Path) -> None:
    path = tmp_path / "state.csv"
    path.write_text("id,rating,games,peak,record\n11,1600,,,all\n12,,3,,\n")
    with pytest.raises(InputError) as raised:
        read_state_list(path, SHAPE, "uscf", optional=("games", "peak"),
                        choices={"record": ("all_wins", "mixed")})  # fmt: skip
    assert [str(issue) for issue in raised.value.issues] == [
        f"{path}:2: record 'all' is not one of all_wins, mixed (or empty)",
        f"{path}:3: games, peak given without rating: give rating too, or leave them empty",
    ]


#: A state with a true/false column and a free text column checked by the system.
FLAGGED = {"rating": "Float64", "flag": "boolean", "note": "string"}


def _no_x(text: str) -> str:
    return "must not hold 'x'" if "x" in text else ""


def test_a_boolean_and_a_checked_text_column_are_read_and_may_be_left_out(
    tmp_path: Path,
) -> None:
    path = tmp_path / "state.csv"
    path.write_text("id,rating,flag,note\n11,1600,true,a;b\n12,1500,,\n13,1400,False,\n")
    listed = read_state_list(path, FLAGGED, "demo", text_checks={"note": _no_x})
    assert listed["flag"].tolist() == [True, pd.NA, False]
    assert listed["note"].tolist() == ["a;b", pd.NA, pd.NA]
    bare = tmp_path / "bare.csv"
    bare.write_text("id,rating\n11,1600\n")
    assert read_state_list(bare, FLAGGED, "demo")["flag"].isna().all()


def test_a_wrong_boolean_or_refused_text_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "state.csv"
    path.write_text("id,rating,flag,note\n11,1600,maybe,\n12,1500,true,x\n")
    with pytest.raises(InputError) as caught:
        read_state_list(path, FLAGGED, "demo", text_checks={"note": _no_x})
    assert [str(issue) for issue in caught.value.issues] == [
        f"{path}:2: flag 'maybe' is not true or false",
        f"{path}:3: note: must not hold 'x'",
    ]


def test_a_fraction_in_a_whole_number_column_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "state.csv"
    path.write_text("id,rating,index\n11,1500,3\n12,1500.5,3.0\n13,1400,2.5\n")
    with pytest.raises(InputError) as caught:
        read_state_list(path, {"rating": "Int64", "index": "Int64"}, "demo")
    assert [str(issue) for issue in caught.value.issues] == [
        f"{path}:3: rating '1500.5' is not a whole number",
        f"{path}:4: index '2.5' is not a whole number",
    ]


def test_an_optional_state_column_may_be_empty_or_left_out(tmp_path: Path) -> None:
    # The ECF's partial_games (docs/systems.md §12.2): empty for a full rating; a rating
    # without it is not "given in part", and a list without the column is read.
    state = {"rating": "Float64", "partial_games": "Float64", "last_period": "string"}
    path = tmp_path / "ecf.csv"
    path.write_text("id,rating,partial_games\n11,1600,\n12,1500,4\n13,,\n")
    listed = read_state_list(path, state, "ecf", optional=("partial_games",))
    assert listed["rating"].tolist()[:2] == [1600.0, 1500.0] and listed["rating"].isna()[2]
    assert listed["partial_games"].isna().tolist() == [True, False, True]
    bare = tmp_path / "bare.csv"
    bare.write_text("id,rating\n11,1600\n")
    assert read_state_list(bare, state, "ecf", optional=("partial_games",))["rating"].tolist() == [
        1600.0
    ]
    # Without optional, the same list is refused: every number or none.
    with pytest.raises(InputError, match=r"ecf\.csv:2: rating, partial_games: give all of them"):
        read_state_list(path, state, "ecf")


def test_a_list_is_the_systems_without_its_optional_columns(tmp_path: Path) -> None:
    # is_state_list: id and every number column but the optional ones (the ECF's grade and
    # partial_games) make a CSV the system's own list.
    state = {"rating": "Float64", "partial_games": "Float64", "grade": "Float64"}
    path = tmp_path / "ecf.csv"
    path.write_text("id,rating\n11,1600\n")
    assert is_state_list(path, state, ("partial_games", "grade"))
    assert not is_state_list(path, state)


@pytest.mark.parametrize(
    ("rules", "header", "given", "said"),
    [
        ("dwz", "zps", "C0327 123", "zps 'C0327 123': not the form of the ZPS-Mgl or "
         "PKZ (C0327-123 or 10234567)"),
        ("uscf", "uscf_id", "1234567", "uscf_id '1234567': not the form of the US Chess id "
         "(12345678)"),
        ("ecf", "ecf_code", "12345", "ecf_code '12345': not the form of the ECF rating code "
         "(123456A)"),
    ],
    ids=["dwz", "uscf", "ecf"],
)  # fmt: skip
def test_a_national_id_the_federation_would_not_write_is_an_error_at_its_line(
    tmp_path: Path, rules: str, header: str, given: str, said: str
) -> None:
    # docs/formats.md §11.1: each system's id under its own header, checked by its pattern;
    # check and rate read the list alike.
    path = tmp_path / "list.csv"
    state = "rating,index\n11,{},1500,20" if rules == "dwz" else "rating\n11,{},1500"
    path.write_text(f"id,{header},{state.format(given)}\n", encoding="utf-8")
    code, out, err = run("check", path, "--rules", rules)
    assert code == 1 and f"{path}:2: {said}" in out + err


def test_a_national_id_names_one_person_and_a_row_without_our_id_takes_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "list.csv"
    path.write_text(
        "id,zps,rating,index\n,c0327-123,1580,23\n,C0327-124,1600,10\n", encoding="utf-8"
    )
    listed = read_state_list(path, {"rating": "Int64", "index": "Int64"}, "dwz",
                             scheme=DWZ.national_id)  # fmt: skip
    # Written in capitals; the id of a row without one is its national id.
    assert listed["id"].tolist() == ["C0327-123", "C0327-124"]
    assert listed["national_id"].tolist() == ["C0327-123", "C0327-124"]
    path.write_text(
        "id,zps,rating,index\n,C0327-123,1580,23\n12,C0327-123,1600,10\n", encoding="utf-8"
    )
    with pytest.raises(InputError) as caught:
        read_state_list(path, {"rating": "Int64", "index": "Int64"}, "dwz",
                        scheme=DWZ.national_id)  # fmt: skip
    assert [issue.line for issue in caught.value.issues] == [2, 3]
    assert "national_id C0327-123 is given to two rows: it names one person" in str(caught.value)
