"""Event page rows grouped by player (``joined_by``) and the page texts escaped at once."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rating_batch.writers.common import each_at_once
from rating_batch.writers.html import _texts, joined_by


def test_texts_are_joined_per_key_in_row_order_as_groupby_joins_them() -> None:
    # Keys out of order, repeated apart, and missing in one column or the other: a row with a
    # missing key value belongs to no key, as pandas' groupby leaves it out.
    texts = np.array(["a", "b", "c", "d", "e", "f", "g"], dtype=object)
    events = np.array(["x", "y", "x", "x", None, "y", "x"], dtype=object)
    ids = np.array(["1", "1", "2", "1", "1", pd.NA, "2"], dtype=object)
    assert joined_by(texts, events, ids) == {
        ("x", "1"): "ad",
        ("y", "1"): "b",
        ("x", "2"): "cg",
    }
    expected = pd.Series(texts).groupby([events, ids], sort=False).agg("".join)
    assert list(joined_by(texts, events, ids).items()) == [
        (key, value) for key, value in expected.items()
    ]


def test_texts_of_one_key_column_and_of_none() -> None:
    texts = np.array(["<tr>1</tr>", "<tr>2</tr>", "<tr>3</tr>"], dtype=object)
    assert joined_by(texts, np.array(["b", "a", "b"], dtype=object)) == {
        ("b",): "<tr>1</tr><tr>3</tr>",
        ("a",): "<tr>2</tr>",
    }
    empty = np.array([], dtype=object)
    assert joined_by(empty, empty, empty) == {}


def test_a_change_made_on_all_texts_at_once_is_the_change_of_each() -> None:
    def change(text: str) -> str:
        return text.replace("&", "&amp;").replace("<", "&lt;")

    texts = ["Tal & Co", "", "<b>", "a\nb"]
    assert each_at_once(texts, change) == ["Tal &amp; Co", "", "&lt;b>", "a\nb"]
    assert each_at_once([], change) == []
    # A text holding the separator itself is changed on its own, not split apart.
    assert each_at_once(["x\uffffy", "&"], change) == ["x\uffffy", "&amp;"]


def test_a_page_column_is_shown_escaped_each_distinct_value_once() -> None:
    column = pd.Series(["O'Neil, <Sean>", None, "Tal & Co", "O'Neil, <Sean>"], dtype="string")
    assert _texts(column, escape=True).tolist() == [
        "O&#39;Neil, &lt;Sean&gt;",
        "",
        "Tal &amp; Co",
        "O&#39;Neil, &lt;Sean&gt;",
    ]
    numbers = pd.Series([1.0, np.nan, 2.5])  # a whole number read as a float shows whole
    assert _texts(numbers, escape=True).tolist() == ["1", "", "2.5"]
