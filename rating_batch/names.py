"""Comparing players' names across files and lists, whatever their spelling.

FIDE writes Blübaum as "Bluebaum", files mix "Surname, Given" and "Given Surname", accents
come and go with encodings: ``name_key`` gives two spellings of one
name the same key (ASCII transliteration, case folded, German umlauts folded, words sorted).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
from anyascii import anyascii

_WORD = re.compile(r"[a-z0-9]+")
_UMLAUT = re.compile(r"([aou])e")
_APOSTROPHE = re.compile(r"['’`´]")


def name_key(name: str) -> str:
    """A name's key: equal for spellings that differ only in accents, script, case, word
    order, punctuation, apostrophes or a German umlaut written out ("Blübaum, Matthias" and
    "matthias BLUEBAUM" both give ``"blubaum matthias"``)."""
    text = _UMLAUT.sub(r"\1", _APOSTROPHE.sub("", anyascii(name)).casefold())
    return " ".join(sorted(_WORD.findall(text)))


def name_keys(names: pd.Series) -> pd.Series:
    """``name_key`` of every name of a column (each distinct name once; missing: "")."""
    codes, distinct = pd.factorize(names.fillna("").astype(str))
    keys = np.array([name_key(name) for name in distinct] + [""], dtype=object)
    return pd.Series(keys[codes], index=names.index, dtype=object)


def same_name(first: str, second: str) -> bool:
    return name_key(first) == name_key(second)
