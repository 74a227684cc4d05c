"""Fuzzing every loader with mutated real files: each outcome is a clean load or an
InputError whose messages name the file (and the line where there is one). Never another
exception, and a file that loads cleanly also rates without one.

Per run of ``make soak`` (deterministic, the same cases every time): 2,000 TRF files, 2,000
CSV crosstables, 1,000 XLSX crosstables and 1,000 junk workbooks (each read as an event and as
a list), 2,000 TXT/CSV rating lists and 1,500 XML lists; ``make test`` runs a fifth of each
(``budget.py``)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from budget import runs
from conftest import DATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import Workbook
from openpyxl.utils.exceptions import IllegalCharacterError

from rating_batch.errors import InputError
from rating_batch.loaders import read_event, read_rating_list
from rating_batch.pipelines.elo.run import rate_loaded

#: Left out of ``make test-fast`` (fuzzing).
pytestmark = pytest.mark.slow

SETTINGS = settings(
    max_examples=runs(2000, 400),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True,
)

TRF_SEEDS = [
    (DATA / "trf" / name).read_bytes()
    for name in (
        "irl_u19-championship-2010_round-robin-4p_utf8.trf",
        "irl_u19-championship-2010-plus_malformed-byes.trf",
        "irl_armstrong-cup-2011-12_snippet_utf8-bom.trf",
        "lichess_swiss-2020-06_13p_online-no-fide-data.trf",
    )
]
CSV_EVENT = (Path(__file__).parent.parent / "sample_data" / "template.csv").read_bytes()
LIST_SEEDS = [
    (DATA / "lists" / "fide_players_list_foa_txt_2026-10-excerpt.txt").read_bytes(),
    b"id,rating,k,birth_year,ever_2400\n11,1600,20,1980,false\n12,1500,40,2010,true\n",
]
XML_SEED = (
    DATA / "lists" / "fide_players-list_combined-xml_2012-excerpt_icu-test.xml"
).read_bytes()


@st.composite
def mutated(draw: st.DrawFn, seeds: list[bytes]) -> bytes:
    """A real file, then a few of: cut, shifted, swapped, duplicated or deleted lines, a
    replaced or inserted byte run, huge numbers, or all of it replaced by junk."""
    data = draw(st.sampled_from(seeds))
    lines = data.split(b"\n")
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            lines = [b""]
        index = draw(st.integers(0, len(lines) - 1))
        line = lines[index]
        action = draw(
            st.sampled_from(
                [
                    "cut",
                    "shift",
                    "swap",
                    "dup",
                    "drop",
                    "bytes",
                    "insert",
                    "number",
                    "junk",
                    "empty",
                ]
            )
        )
        if action == "cut":
            lines[index] = line[: draw(st.integers(0, max(len(line), 1)))]
        elif action == "shift":
            lines[index] = b" " * draw(st.integers(1, 3)) + line
        elif action == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[index], lines[other] = lines[other], lines[index]
        elif action == "dup":
            lines.insert(index, line)
        elif action == "drop":
            del lines[index]
        elif action == "bytes":
            at = draw(st.integers(0, max(len(line), 1)))
            lines[index] = line[:at] + draw(st.binary(min_size=1, max_size=6)) + line[at + 1 :]
        elif action == "insert":
            at = draw(st.integers(0, max(len(line), 1)))
            lines[index] = (
                line[:at]
                + draw(
                    st.sampled_from(
                        [b"X", b"+", b"-", b"=", b"w", b"0000", b"\t", b"\xff", b",", b";"]
                    )
                )
                + line[at:]
            )
        elif action == "number":
            lines[index] = line.replace(b"1", b"99999999999999999999", 1)
        elif action == "junk":
            return draw(st.binary(max_size=300))
        else:
            return b""
    return b"\n".join(lines)


def assert_clean_or_located(path: Path, issues: list[object]) -> None:
    for issue in issues:
        text = str(issue)
        assert text.startswith(str(path)), text


def load(path: Path, data: bytes) -> None:
    path.write_bytes(data)
    try:
        event = read_event(path)
    except InputError as error:
        assert error.issues
        assert_clean_or_located(path, error.issues)
        return
    assert_clean_or_located(path, event.issues)
    if not any(i.severity == "error" for i in event.issues) and len(event.players):
        rate_loaded([event], list(event.issues), "fide-2025", None, "standard")


def read_list(path: Path, data: bytes) -> None:
    path.write_bytes(data)
    try:
        read_rating_list(path)
    except InputError as error:
        assert error.issues
        assert_clean_or_located(path, error.issues)


@SETTINGS
@given(data=mutated(TRF_SEEDS))
def test_fuzz_trf(data: bytes, tmp_path_factory: object) -> None:
    load(Path(tmp_path_factory.mktemp("trf")) / "event.trf", data)


@SETTINGS
@given(data=mutated([CSV_EVENT]))
def test_fuzz_csv_crosstable(data: bytes, tmp_path_factory: object) -> None:
    load(Path(tmp_path_factory.mktemp("csv")) / "event.csv", data)


@settings(SETTINGS, max_examples=runs(1000, 200))
@given(data=mutated([CSV_EVENT]))
def test_fuzz_xlsx_crosstable(data: bytes, tmp_path_factory: object) -> None:
    # The mutated CSV rows, put in a workbook (values as text and numbers), then loaded.
    import csv

    book = Workbook()
    sheet = book.active
    text = "\n".join(data.decode("utf-8", "replace").replace("\0", "").splitlines())
    folder = Path(tmp_path_factory.mktemp("xlsx"))
    path = folder / "event.xlsx"
    try:  # building the fixture: openpyxl refuses some characters, not our loader's case
        for row in csv.reader(io.StringIO(text)):
            sheet.append([int(c) if c.isdigit() and len(c) < 15 else c[:300] for c in row][:50])
        book.save(path)
    except (IllegalCharacterError, csv.Error):
        return
    load(path, path.read_bytes())


@SETTINGS
@given(data=mutated(LIST_SEEDS), suffix=st.sampled_from([".txt", ".csv"]))
def test_fuzz_rating_lists(data: bytes, suffix: str, tmp_path_factory: object) -> None:
    read_list(Path(tmp_path_factory.mktemp("list")) / f"list{suffix}", data)


@settings(SETTINGS, max_examples=runs(1500, 300))
@given(data=mutated([XML_SEED]))
def test_fuzz_xml_lists(data: bytes, tmp_path_factory: object) -> None:
    read_list(Path(tmp_path_factory.mktemp("xml")) / "list.xml", data)


@settings(SETTINGS, max_examples=runs(1000, 200))
@given(data=st.binary(max_size=2000))
def test_fuzz_xlsx_bytes(data: bytes, tmp_path_factory: object) -> None:
    # Bytes that claim to be a workbook: never anything but a clean InputError.
    folder = Path(tmp_path_factory.mktemp("junk"))
    for reader in (read_event, read_rating_list):
        path = folder / "book.xlsx"
        path.write_bytes(b"PK\x03\x04" + data)
        try:
            reader(path)
        except InputError as error:
            assert_clean_or_located(path, error.issues)


STATE_SEEDS = [
    b"id,name,rating,rd,volatility\n11,One,1500,200,0.06\n12,Two,1400,30,0.06\n",
    b"id,rating,rd,last_period\n11,1500,200,2026-02\n12,1400,30,\n",
    b"id,rating\n11,110\n12,120\n",
]


@settings(SETTINGS, max_examples=runs(600, 120))
@given(data=mutated(STATE_SEEDS), system=st.sampled_from(["glicko2", "glicko", "ingo"]))
def test_fuzz_state_lists(data: bytes, system: str, tmp_path_factory: object) -> None:
    # A previous list for another rating system (docs/systems.md): read, or refused with
    # messages that name the file; never anything else.
    from rating_batch.loaders.statelist import read_state_list
    from rating_batch.systems import state_system

    path = Path(tmp_path_factory.mktemp("state")) / "list.csv"
    path.write_bytes(data)
    chosen = state_system(system)
    assert chosen is not None
    try:
        read_state_list(path, chosen.state, chosen.name)
    except InputError as error:
        assert error.issues
        assert_clean_or_located(path, error.issues)


@settings(SETTINGS, max_examples=runs(600, 120))
@given(data=mutated([b'system = "glicko2"\n[glicko2]\ntau = 0.5\nrd_max = 350\n',
                     b'system = "ingo"\n[ingo]\nrule = "quarter"\ngap_cap = 40\n']))  # fmt: skip
def test_fuzz_system_rules_files(data: bytes, tmp_path_factory: object) -> None:
    # A rules file naming a system: its system, or a RulesError naming the file.
    from rating_batch.errors import RulesError
    from rating_batch.pipelines import find_system

    path = Path(tmp_path_factory.mktemp("rules")) / "rules.toml"
    path.write_bytes(data)
    try:
        find_system(str(path))
    except RulesError as error:
        assert str(path) in str(error)
