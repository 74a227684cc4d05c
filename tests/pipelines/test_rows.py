"""The rows of the tool's own stored CSV files for a few players (pipelines/rows.py): picked
by record, not by line, and read back as the files gave them."""

from __future__ import annotations

import codecs

import pandas as pd

from rating_batch.pipelines.rows import rows_of


def picked(rows: list[tuple[str, str, str, str]]) -> pd.DataFrame:
    """The frame ``rows_of`` gives for rows of (id, event, opponent_id, name)."""
    ids, events, opponents, names = (list(column) for column in zip(*rows, strict=True))
    return pd.DataFrame(
        {
            "id": pd.array(ids, dtype="string"),
            "event": events,
            "opponent_id": pd.array(opponents, dtype="string"),
            "name": pd.array(names, dtype="string"),
        }
    )


def test_rows_are_picked_by_record_not_by_line() -> None:
    # Event keys holding a line break that starts a line like a record of player 12, and a
    # lone CR that an earlier writer left unquoted.
    data = codecs.BOM_UTF8 + (
        b"id,event,opponent_id,name\n"
        b'11,"ev\n12,forged",12,B\n'
        b'12,"ev\n12,forged",11,A\n'
        b"11,plain,12,'=B\n"
        b"12,bare\rcr,11,A\n"
    )
    pd.testing.assert_frame_equal(
        rows_of(data, {"12"}),
        picked([("12", "ev\n12,forged", "11", "A"), ("12", "bare\rcr", "11", "A")]),
    )
    pd.testing.assert_frame_equal(
        rows_of(data, {"11"}),
        picked([("11", "ev\n12,forged", "12", "B"), ("11", "plain", "12", "=B")]),
    )


def testrows_of_a_file_of_one_line_records_are_its_lines() -> None:
    data = codecs.BOM_UTF8 + (
        b'id,event,opponent_id,name\n11,"a, b",12,"B, b"\n"x#1",e,11,"say ""hi"""\n12,e,11,A\n'
    )
    pd.testing.assert_frame_equal(
        rows_of(data, {"11", "x#1"}),
        picked([("11", "a, b", "12", "B, b"), ("x#1", "e", "11", 'say "hi"')]),
    )
