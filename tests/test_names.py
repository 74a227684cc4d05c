"""Names compared across files whatever their spelling (names.py)."""

from __future__ import annotations

import pandas as pd
import pytest

from rating_batch.names import different_names, name_key, same_name


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Blübaum, Matthias", "Bluebaum, Matthias"),  # FIDE writes the umlaut out
        ("Blübaum, Matthias", "matthias BLUBAUM"),  # case and word order
        ("Łukasz Żółć", "Zolc, Lukasz"),  # Polish letters without accents
        ("Ćirić, Dragoljub", "Ciric Dragoljub"),
        ("O'Neill, Seán", "ONeill Sean"),
    ],
)
def test_spellings_of_one_name_have_one_key(first: str, second: str) -> None:
    assert same_name(first, second)


def test_different_names_stay_different() -> None:
    assert not same_name("Smith, John", "Smith, Joan")
    assert not same_name("Carlsen, Magnus", "Carlsen, Henrik")


def test_key_is_ascii_words_sorted() -> None:
    assert name_key("Blübaum, Matthias") == "blubaum matthias"
    assert name_key("") == ""


def test_different_names_compares_spellings_and_ignores_blanks() -> None:
    names = pd.Series(["Blübaum, Matthias", "Smith, John", "", None, "Kim, Ann"])
    others = pd.Series(["BLUEBAUM Matthias", "Smith, Joan", "Kim, Ann", "Kim, Ann", ""])
    assert different_names(names, others).tolist() == [False, True, False, False, False]
