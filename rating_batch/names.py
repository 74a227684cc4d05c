"""Comparing players' names across files and lists, whatever their spelling.

FIDE writes Blübaum as "Bluebaum", files mix "Surname, Given" and "Given Surname", accents
come and go with encodings: ``name_key`` gives two spellings of one
name the same key (ASCII transliteration, case folded, German umlauts folded, words sorted).
"""

from __future__ import annotations

import re

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


def same_name(first: str, second: str) -> bool:
    return name_key(first) == name_key(second)
