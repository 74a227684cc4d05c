"""Sheet rows written as XML (writers/sheet_rows.py ``_rows_xml``): missing cells left out, a
cell after a missing one with its reference and the others without (the next cell of the
row, as the sheet format reads a cell without ``r``), the rows in their order whatever cells
they have."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rating_batch.writers.sheet_rows import _rows_xml, _Styles


def test_rows_of_different_cells_keep_their_order_and_leave_missing_cells_out() -> None:
    frame = pd.DataFrame(
        {
            "name": pd.array(["Tal", None, "Ann", None, None, "Bo"], dtype="string"),
            "games": pd.array([2, None, 1, None, 3, None], dtype="Int64"),
            "score": pd.array([None, 1.0, 0.5, None, 2.0, 1.5], dtype="Float64"),
        }
    )
    styles = _Styles(numbers={"games": "", "score": ' s="3"'}, quoted=1, bold=2)
    levels = np.array([0, 1, 1, 0, 1, 1])  # level-0 rows are totals: their text is bold
    assert _rows_xml(frame, levels, 5, styles) == (
        '<row r="5"><c t="inlineStr" s="2"><is><t>Tal</t></is></c><c><v>2</v></c></row>'
        '<row r="6" outlineLevel="1"><c r="C6" s="3"><v>1.0</v></c></row>'
        '<row r="7" outlineLevel="1"><c t="inlineStr"><is><t>Ann</t></is></c>'
        '<c><v>1</v></c><c s="3"><v>0.5</v></c></row>'
        '<row r="8"></row>'
        '<row r="9" outlineLevel="1"><c r="B9"><v>3</v></c><c s="3"><v>2.0</v></c></row>'
        '<row r="10" outlineLevel="1"><c t="inlineStr"><is><t>Bo</t></is></c>'
        '<c r="C10" s="3"><v>1.5</v></c></row>'
    )


def test_a_block_without_rows_or_without_columns() -> None:
    styles = _Styles(numbers={}, quoted=1, bold=2)
    assert _rows_xml(pd.DataFrame({"name": pd.array([], dtype="string")}), None, 2, styles) == ""
    assert _rows_xml(pd.DataFrame(index=range(2)), None, 2, styles) == (
        '<row r="2"></row><row r="3"></row>'
    )
