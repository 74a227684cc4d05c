"""Sheet rows written as XML (writers/sheet_rows.py ``_rows_xml``): each present cell with its
reference, missing cells left out, the rows in their order whatever cells they have."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rating_batch.writers.sheet_rows import _rows_xml, _Styles


def test_rows_of_different_cells_keep_their_order_and_leave_missing_cells_out() -> None:
    frame = pd.DataFrame(
        {
            "name": pd.array(["Tal", None, "Ann", None], dtype="string"),
            "games": pd.array([2, None, 1, None], dtype="Int64"),
            "score": pd.array([None, 1.0, 0.5, None], dtype="Float64"),
        }
    )
    styles = _Styles(numbers={"games": "", "score": ' s="3"'}, quoted=1, bold=2)
    levels = np.array([0, 1, 1, 0])  # level-0 rows are totals: their text is bold
    assert _rows_xml(frame, levels, 5, styles) == (
        '<row r="5"><c r="A5" t="inlineStr" s="2"><is><t>Tal</t></is></c>'
        '<c r="B5"><v>2</v></c></row>'
        '<row r="6" outlineLevel="1"><c r="C6" s="3"><v>1.0</v></c></row>'
        '<row r="7" outlineLevel="1"><c r="A7" t="inlineStr"><is><t>Ann</t></is></c>'
        '<c r="B7"><v>1</v></c><c r="C7" s="3"><v>0.5</v></c></row>'
        '<row r="8"></row>'
    )


def test_a_block_without_rows_or_without_columns() -> None:
    styles = _Styles(numbers={}, quoted=1, bold=2)
    assert _rows_xml(pd.DataFrame({"name": pd.array([], dtype="string")}), None, 2, styles) == ""
    assert _rows_xml(pd.DataFrame(index=range(2)), None, 2, styles) == (
        '<row r="2"></row><row r="3"></row>'
    )
