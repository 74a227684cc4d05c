"""Numbers as the writers write them (writers/common.py, docs/formats.md "Numbers"): a float
that two machines compute a last bit apart is written as the same bytes, in CSV, in a workbook
and on a page; a published column keeps its own precision; a state read back keeps every bit.

The pair below is one Glicko-2 volatility of the sample run, computed on two CPUs (an AVX-512
machine's numpy takes another path through exp and log): one unit in the last place apart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from rating_batch.writers import Sheet, write_csv, write_workbook
from rating_batch.writers.common import page_decimals
from rating_batch.writers.site_players import _rounded_texts

ONE_MACHINE = 0.059998256379520415
ANOTHER = 0.05999825637952042


def test_the_pair_is_one_unit_in_the_last_place_apart() -> None:
    assert ONE_MACHINE != ANOTHER and np.nextafter(ONE_MACHINE, 1.0) == ANOTHER


def _frame(volatility: float) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "id": pd.array([11], dtype="Int64"),
            "new_volatility": [volatility],
            "v": [volatility * 1000],  # 59.99825637952042 or …042: one declared as g, v, …
            "undeclared": [volatility / 7],  # a column NUMBER_FORMATS does not name
        }
    )


@pytest.mark.parametrize("machine_read", [False, True], ids=["published", "machine-read"])
def test_a_last_bit_apart_is_the_same_csv(tmp_path: Path, machine_read: bool) -> None:
    one, another = tmp_path / "one.csv", tmp_path / "another.csv"
    write_csv(_frame(ONE_MACHINE), one, machine_read=machine_read)
    write_csv(_frame(ANOTHER), another, machine_read=machine_read)
    assert one.read_bytes() == another.read_bytes()
    # By hand, to 10 significant digits: 0.05999825637|95… → 0.05999825638; ×1000 likewise;
    # / 7 = 0.008571179482788… → 0.008571179483.
    assert one.read_text(encoding="utf-8-sig").splitlines()[1] == (
        "11,0.05999825638,59.99825638,0.008571179483"
    )


def test_a_state_read_back_keeps_every_bit(tmp_path: Path) -> None:
    # state.csv (export-list): publish rates as rate --list with it does, so it reads back as
    # the very number the database holds.
    path = tmp_path / "state.csv"
    write_csv(_frame(ONE_MACHINE), path, exact=True)
    assert pd.read_csv(path, encoding="utf-8-sig")["new_volatility"][0] == ONE_MACHINE


def test_published_precisions_are_kept() -> None:
    # An Elo expected score and change keep their 2 decimals; whole ratings stay whole; a
    # score of a half stays "0.5" (FIDE prints them so; outputs.md).
    frame = pd.DataFrame(
        {
            "expected": [0.89, 3.9449999999999998],
            "change": [-18.8, 11.2],
            "score": [0.5, 8.0],
            "rating": pd.array([1749, 1820], dtype="Int64"),
        }
    )
    from rating_batch.writers.csvfile import _csv_column

    texts = {}
    for name in frame.columns:
        codes, fields = _csv_column(frame[name], name)
        texts[name] = (fields if codes is None else fields[codes]).tolist()
    assert texts == {
        "expected": ["0.89", "3.94"],
        "change": ["-18.80", "11.20"],
        "score": ["0.5", "8"],
        "rating": ["1749", "1820"],
    }


def test_a_last_bit_apart_is_the_same_workbook(tmp_path: Path) -> None:
    # A cell's number format only hides digits: the double stored must be the same too.
    one, another = tmp_path / "one.xlsx", tmp_path / "another.xlsx"
    write_workbook([Sheet("Players", frame=_frame(ONE_MACHINE), rows=[["v", ONE_MACHINE]])], one)
    write_workbook([Sheet("Players", frame=_frame(ANOTHER), rows=[["v", ANOTHER]])], another)
    assert one.read_bytes() == another.read_bytes()
    from openpyxl import load_workbook

    stored = load_workbook(one)["Players"]["B2"].value
    assert stored == 0.05999825638


def test_a_summary_number_is_stored_as_a_tables(tmp_path: Path) -> None:
    one, another = tmp_path / "one.xlsx", tmp_path / "another.xlsx"
    write_workbook([Sheet("Summary", rows=[["volatility", ONE_MACHINE]])], one)
    write_workbook([Sheet("Summary", rows=[["volatility", ANOTHER]])], another)
    assert one.read_bytes() == another.read_bytes()


def test_a_site_page_shows_a_calculation_to_its_columns_decimals() -> None:
    # Officer review M12: a Glicko-2 or DWZ player's page printed calculations.csv's digits.
    # Each column to its sheet's decimals (p 2, volatility 6, g 3); Elo's short texts as
    # written; text and blanks untouched.
    columns = {
        "p": ["0.5070520025", "0.89", "", "0.5070520025006372"],
        "new_volatility": ["0.05999825638", "0.06", "0.0599998"],
        "g": ["0.9876424016", "1", "0.5"],
        "ra": ["1750.5", "1750", "-3.25"],
        "name": ["Misu, Rasa", "A. 1.5", "x"],
    }
    rounded = {
        name: _rounded_texts(pd.Series(texts), page_decimals(name))
        for name, texts in columns.items()
    }
    assert rounded == {
        "p": {"0.5070520025": "0.51", "0.5070520025006372": "0.51"},
        "new_volatility": {"0.05999825638": "0.059998", "0.0599998": "0.060000"},
        "g": {"0.9876424016": "0.988"},
        "ra": {},
        "name": {},
    }


class _OneUlpOff:
    """numpy, but exp one unit in the last place up and log one down: what another CPU's
    SIMD paths may give (the Glicko-2 calculation takes both)."""

    def __getattr__(self, name: str) -> object:
        return getattr(np, name)

    @staticmethod
    def exp(x: np.ndarray) -> np.ndarray:
        return np.nextafter(np.exp(x), np.inf)

    @staticmethod
    def log(x: np.ndarray) -> np.ndarray:
        return np.nextafter(np.log(x), -np.inf)


def test_the_sample_run_a_last_bit_apart_writes_the_same_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # make run's Glicko-2 step. Before 10 digits, all 792 rows of calculations.csv, 136 of
    # players.csv's 137 and report.xlsx differed.
    from click.testing import CliRunner

    from rating_batch.cli import cli
    from rating_batch.systems import glicko2

    events = Path(__file__).parent.parent.parent / "sample_data" / "events"

    def files(out: Path) -> dict[str, bytes]:
        result = CliRunner().invoke(cli, ["-q", "rate", str(events), "--rules", "glicko2",
                                          "--out", str(out)])  # fmt: skip
        assert result.exit_code == 0, result.output
        return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.is_file()}

    computed: list[np.ndarray] = []
    real = glicko2.rate_glicko2

    def spy(*args: Any) -> glicko2.Glicko2Period:
        done = real(*args)
        computed.append(done.volatility)
        return done

    monkeypatch.setattr(glicko2, "rate_glicko2", spy)
    one = files(tmp_path / "one")
    monkeypatch.setattr(glicko2, "np", _OneUlpOff())
    another = files(tmp_path / "another")
    # The two runs did compute other last bits (else this test could not fail).
    assert len(computed) == 2 and not np.array_equal(computed[0], computed[1])
    assert sorted(one) == ["calculations.csv", "games.csv", "index.html", "players.csv",
                           "report.xlsx"]  # fmt: skip
    assert one == another
