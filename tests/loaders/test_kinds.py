"""What a file is by its shape (loaders/kinds.py; docs/formats.md §12): every file the tool
writes is told as its own output or as a list, no event or list of the corpus is taken for an
output, and a file given where another kind belongs is refused by what it is, as real
processes show it: exit 1, nothing written, the database unchanged."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from conftest import read_csv
from db_helpers import LIST_FILES, database, dump, newcomer_database, process, run
from trf_text import P, trf

from rating_batch.loaders.kinds import is_event_file, is_rating_list, own_output

DATA = Path(__file__).parent.parent / "data"
SAMPLE = Path(__file__).parent.parent.parent / "sample_data"
FIDE_TXT = DATA / "lists" / "fide_standard_rating_list_txt_2026-10-excerpt.txt"
FIDE_XML = DATA / "lists" / "fide_players-list_combined-xml_2012-excerpt_icu-test.xml"
CROSSTABLE = (
    DATA / "crosstables" / "keshmat-circuit_2024-07-31_rapid_chess-results-final-ranking.xlsx"
)
TEMPLATE = SAMPLE / "template.csv"
SYSTEMS = ("glicko2", "glicko", "trueskill", "harkness", "ingo", "uscf")

#: The message of a list given where an event belongs (docs/formats.md §12).
LIST_NOT_EVENT = "this is a rating list ({}), not an event: give it with --list, or to init --list"
EVENT_NOT_LIST = (
    "this is a tournament file ({}), not a rating list: give it to add or rate as an event, "
    "not as --list"
)


def four_players(folder: Path) -> Path:
    """A round robin of four rated players with FIDE IDs (11 to 14), in January 2026."""
    players = [P(n, f"Player, P0{n}", 1900 - 100 * n, 10 + n, 1980) for n in range(1, 5)]
    games = [(1, 1, 2, "1-0"), (1, 3, 4, "=-="), (2, 1, 3, "0-1"), (2, 2, 4, "1-0"),
             (3, 4, 1, "=-="), (3, 2, 3, "0-1")]  # fmt: skip
    path = folder / "rr.trf"
    path.write_text(trf(players, games, name="Round Robin", start="2026/01/10", end="2026/01/12"))
    return path


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of a published list (2026-02, standard), every file a publish writes."""
    return newcomer_database(tmp_path_factory.mktemp("published"))[1]


def test_every_file_a_publish_writes_is_an_output_or_a_list(published: Path) -> None:
    outputs = ("players.csv", "games.csv", "calculations.csv", "changes.csv", "report.xlsx")
    for name in outputs:
        found = own_output(published / name)
        assert found is not None and found.name == name, name
    for name in LIST_FILES:
        assert own_output(published / name) is None, name
        assert is_rating_list(published / name), name


@pytest.mark.parametrize("rules", ["fide-2025", *SYSTEMS])
def test_every_file_rate_writes_is_an_output_under_every_system(tmp_path: Path, rules: str) -> None:
    event = four_players(tmp_path)
    code, out, err = run("rate", event, "--rules", rules, "--out", tmp_path / "out")
    assert code == 0, out + err
    for name in ("players.csv", "games.csv", "calculations.csv", "report.xlsx"):
        found = own_output(tmp_path / "out" / name)
        assert found is not None and found.name == name, name
        assert not is_event_file(tmp_path / "out" / name), name


@pytest.mark.parametrize("second", ["fide-2014", "glicko2"])
def test_compare_rules_writes_outputs(tmp_path: Path, second: str) -> None:
    event = four_players(tmp_path)
    out = tmp_path / "out"
    code, text, err = run("compare-rules", event, "--rules", "fide-2025", "--rules", second,
                          "--out", out)  # fmt: skip
    assert code == 0, text + err
    assert [own_output(out / name) is not None for name in ("compare.csv", "compare.xlsx")] == [
        True,
        True,
    ]


def test_the_player_workbook_is_an_output(tmp_path: Path) -> None:
    db, _ = newcomer_database(tmp_path)
    code, out, err = run("player", "11", "--db", db, "--out", tmp_path / "player")
    assert code == 0, out + err
    found = own_output(tmp_path / "player" / "player-11.xlsx")
    assert found is not None and found.name == "player-ID.xlsx"


def test_a_system_database_writes_lists_and_outputs(tmp_path: Path) -> None:
    listing = tmp_path / "elo.csv"
    listing.write_text("id,rating\n11,1800\n12,1700\n13,1600\n14,1500\n")
    db = tmp_path / "g.sqlite"
    for step in (
        ("init", "--list", listing, "--period", "2026-01", "--rules", "glicko2", "--db", db),
        ("add", four_players(tmp_path), "--db", db),
        ("publish", "2026-02", "--db", db, "--out", tmp_path / "out"),
        ("export-list", "2026-02", "--db", db, "--out", tmp_path / "export"),
    ):
        code, out, err = run(*step)
        assert code == 0, out + err
    folder = tmp_path / "out" / "2026-02" / "standard"
    for name in ("players.csv", "games.csv", "calculations.csv", "report.xlsx"):
        found = own_output(folder / name)
        assert found is not None and found.name == name, name
    exported = tmp_path / "export" / "2026-02" / "standard"
    for path in (folder / "list.csv", folder / "list.xlsx", exported / "state.csv"):
        assert own_output(path) is None and is_rating_list(path), path


@pytest.mark.parametrize(
    "path",
    [
        *sorted((DATA / "trf").glob("*.trf")),
        *sorted((DATA / "real-world").glob("*")),
        *sorted((DATA / "crosstables").glob("*.xlsx")),
        *sorted((DATA / "lists").glob("*.*")),
        *sorted((DATA / "encodings").glob("*.*")),
        TEMPLATE,
        SAMPLE / "monthly" / "list-2026-01.csv",
    ],
    ids=lambda path: path.name,
)
def test_no_event_or_list_of_the_corpus_is_taken_for_an_output(path: Path) -> None:
    assert own_output(path) is None


def test_events_are_told_from_lists() -> None:
    for path in (*sorted((DATA / "trf").glob("*.trf")), CROSSTABLE, TEMPLATE):
        assert is_event_file(path) and not is_rating_list(path), path.name
    for path in (FIDE_TXT, FIDE_XML, SAMPLE / "monthly" / "list-2026-01.csv"):
        assert is_rating_list(path) and not is_event_file(path), path.name


# -- a list given where an event belongs --------------------------------------------------------


def _lists(published: Path) -> list[tuple[Path, str]]:
    """Every list the tool publishes, and FIDE's TXT and XML, with what shows each a list."""
    return [
        (published / "list.csv", "header id,name,…,rating"),
        (published / "list.xlsx", "header rank,id,…,rating"),
        (published / "list.txt", "FIDE's TXT layout: ID Number, Name, …, FEB26"),
        (FIDE_TXT, "FIDE's TXT layout: ID Number, Name, …, OCT26"),
        (FIDE_XML, "FIDE's XML layout"),
    ]


def test_a_list_given_to_add_is_said_to_be_a_list(tmp_path: Path, published: Path) -> None:
    db = database(tmp_path)
    before = dump(db)
    for path, shape in _lists(published):
        code, out, err = run("add", path, "--db", db)
        assert (code, out) == (1, ""), path.name
        assert err == f"Error: {path}: {LIST_NOT_EVENT.format(shape)}\n", path.name
        assert dump(db) == before, path.name


def test_a_list_given_to_rate_is_said_to_be_a_list(tmp_path: Path, published: Path) -> None:
    systems = ["fide", "glicko2", "fide", "trueskill", "fide"]  # each list once, some systems
    for (path, shape), rules in zip(_lists(published), systems, strict=True):
        out = tmp_path / "out"
        code, text, err = run("rate", path, "--rules", rules, "--out", out)
        assert (code, text) == (1, ""), path.name
        assert err == f"Error: {path}: {LIST_NOT_EVENT.format(shape)}\n", path.name
        assert not out.exists()


# -- an event given where a list belongs --------------------------------------------------------


def _events(tmp_path: Path) -> list[tuple[Path, str]]:
    return [
        (four_players(tmp_path), "TRF"),
        (CROSSTABLE, "a crosstable, header Rk.,Name,Rtg,…,TB3"),  # its row 18
        (TEMPLATE, "a crosstable, header no,name,fide_id,…,4"),
    ]


@pytest.mark.parametrize("rules", ["fide", "glicko2"])
def test_an_event_given_to_init_is_said_to_be_an_event(tmp_path: Path, rules: str) -> None:
    db = tmp_path / "new.sqlite"
    for path, shape in _events(tmp_path):
        code, out, err = run("init", "--list", path, "--rules", rules, "--db", db)
        assert (code, out) == (1, ""), path.name
        assert err == f"Error: {path}: {EVENT_NOT_LIST.format(shape)}\n", path.name
        assert sorted(p.name for p in tmp_path.iterdir()) == ["rr.trf"]


@pytest.mark.parametrize("rules", ["fide", "glicko2"])
def test_an_event_given_as_the_list_of_rate_is_said_to_be_an_event(
    tmp_path: Path, rules: str
) -> None:
    event = four_players(tmp_path)
    for path, shape in _events(tmp_path):
        out = tmp_path / "out"
        code, text, err = run("rate", event, "--list", path, "--rules", rules, "--out", out)
        assert (code, text) == (1, ""), path.name
        assert err == f"Error: {path}: {EVENT_NOT_LIST.format(shape)}\n", path.name
        assert not out.exists()


# -- an output given as an input ----------------------------------------------------------------


def test_players_csv_given_as_a_list_is_refused(tmp_path: Path, published: Path) -> None:
    # Its rating is the rating before the period: read as a list, every game would be rated
    # from the old ratings without a word (docs/formats.md §12).
    event = four_players(tmp_path)
    players = published / "players.csv"
    header = "header id,name,federation,…,pool_score"
    said = (
        f"Error: {players}: this is players.csv as rating_batch writes it ({header}): an output, "
        "not a rating list; a list is list.csv as publish or export-list writes it\n"
    )
    for rules in ("fide", "glicko2"):
        code, text, err = process("rate", event, "--list", players, "--rules", rules,
                                  "--out", tmp_path / "out")  # fmt: skip
        assert (code, text, err) == (1, "", said)
        assert not (tmp_path / "out").exists()
        code, text, err = process("init", "--list", players, "--rules", rules,
                                  "--db", tmp_path / "new.sqlite")  # fmt: skip
        assert (code, text, err) == (1, "", said)
        assert not (tmp_path / "new.sqlite").exists()


def test_an_output_named_as_an_event_is_refused(tmp_path: Path, published: Path) -> None:
    db = database(tmp_path)
    before = dump(db)
    games = published / "games.csv"
    code, out, err = run("add", games, "--db", db)
    assert (code, out) == (1, "")
    assert err == (
        f"Error: {games}: this is games.csv as rating_batch writes it (header event,round,id,…,"
        "line): an output, not an event\n"
    )
    assert dump(db) == before
    code, out, err = run("check", published / "report.xlsx")
    assert code == 1
    assert out == (
        f"{published / 'report.xlsx'}: this is report.xlsx as rating_batch writes it (sheets "
        "Summary, Players, …, Changes chart): an output, not an event or a rating list\n"
    )


def test_players_csv_with_its_new_states_renamed_is_a_list(tmp_path: Path) -> None:
    # docs/formats.md §11: players.csv's new_… columns, renamed, are the next period's list,
    # as an officer makes it in a spreadsheet: the states before the period deleted.
    event = four_players(tmp_path)
    code, out, err = run("rate", event, "--rules", "glicko2", "--out", tmp_path / "first")
    assert code == 0, out + err
    first = read_csv(tmp_path / "first" / "players.csv")
    before = ("rating", "rd", "volatility")
    edited = tmp_path / "next.csv"
    with edited.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        columns = [name for name in first[0] if name not in before]
        writer.writerow([name.removeprefix("new_") for name in columns])
        writer.writerows([row[name] for name in columns] for row in first)
    header = edited.read_text(encoding="utf-8").splitlines()[0]
    assert header == "id,name,federation,games,score,birth_year,rating,rd,volatility,status"
    assert own_output(edited) is None and is_rating_list(edited)
    code, out, err = process("rate", event, "--rules", "glicko2", "--list", edited,
                             "--out", tmp_path / "second")  # fmt: skip
    assert code == 0, out + err
    second = {row["id"]: row for row in read_csv(tmp_path / "second" / "players.csv")}
    for row in first:  # each starts from the state the first period ended with
        assert [second[row["id"]][name] for name in before] == [row[f"new_{n}"] for n in before]


@pytest.mark.parametrize(
    ("data", "output"),
    [
        (b"\r\x00", None),  # a lone CR and a NUL: nothing of ours, and no csv error
        (b"event,round,id,opponent_id,result\r1,1,11,12,1\r", "games.csv"),  # lone-CR lines
        (b"event,round,id,opponent_id,result\r\n1,1,11,12,1\r\n", "games.csv"),
    ],
    ids=["cr-nul", "cr", "crlf"],
)
def test_a_header_is_read_to_its_line_end_whatever_the_line_end(
    tmp_path: Path, data: bytes, output: str | None
) -> None:
    path = tmp_path / "file.csv"
    path.write_bytes(data)
    found = own_output(path)
    assert (found.name if found else None) == output
