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

from rating_batch.errors import Issue

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


def different_names(names: pd.Series, others: pd.Series) -> np.ndarray:
    """Row by row, whether two names are different names (``name_key``: spelling aside); a
    blank or missing name differs from none."""
    first = names.fillna("").astype(str).to_numpy(object)
    second = others.fillna("").astype(str).to_numpy(object)
    differ = (first != second) & (first != "") & (second != "")
    # Only names not written alike are compared by key (most are the same).
    rows = np.flatnonzero(differ)
    keys = zip(map(name_key, first[rows]), map(name_key, second[rows]), strict=True)
    differ[rows] = [a != b for a, b in keys]
    result: np.ndarray = differ.astype(bool)
    return result


def fide_id_conflicts(rows: pd.DataFrame, kept: pd.DataFrame, whose: str) -> list[Issue]:
    """A warning for each row whose FIDE ID has another name (``different_names``) on the row
    of another file whose name is kept for it: one FIDE ID given to two people, or a typo in
    it. ``rows`` and ``kept`` have ``fide_id``, ``name``, ``source``, ``line`` (``kept``: one
    row per FIDE ID); ``whose`` says why that name is kept."""
    other = kept.drop_duplicates("fide_id")[["fide_id", "name", "source", "line"]]
    found = rows[["fide_id", "name", "source", "line"]].merge(
        other, how="left", on="fide_id", suffixes=("", "_kept")
    )
    found = found[different_names(found["name"], found["name_kept"])]
    return [
        Issue(
            str(row["source"]),
            int(row["line"]),
            f"FIDE ID {row['fide_id']} is {row['name']!r} in this file but {row['name_kept']!r} "
            f"in {row['source_kept']} (line {row['line_kept']}; {whose}): is the FIDE ID right?",
            "warning",
        )
        for row in found.to_dict("records")
    ]
