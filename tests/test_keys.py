"""Event keys made from file names (inputs.py: safe_key, distinct_keys)."""

from __future__ import annotations

import pytest

from rating_batch.inputs import MAX_KEY_LENGTH, distinct_keys, safe_key

ORDINARY = [
    "open2024",
    "esp_torneo-san-viator-2018-B_swiss-137p",
    "Club Championship 2026",
    "=1+2 <x>",
    "Żółć open",
    "東京オープン",
    "a-",
    "x--y",
]


@pytest.mark.parametrize("name", ORDINARY, ids=range(len(ORDINARY)))
def test_the_key_of_an_ordinary_file_name_is_the_name(name: str) -> None:
    assert safe_key(name) == name


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("esc\x1b[31mRED\x1b]0;PWNED\x07", "esc_[31mRED_]0;PWNED_"),  # CSI and OSC sequences
        ("ev\nline\r2", "ev_line_2"),
        ("tab\there", "tab_here"),
        ("del\x7f", "del_"),
        ("c1\x85\x9b", "c1__"),  # NEL and the one-byte CSI
        ("sep\u2028\u2029", "sep__"),
        ("rlo\u202egpj", "rlo_gpj"),  # shown as "rlojpg"
        ("\u200eltr\u200frtl\u061c", "_ltr_rtl_"),
        ("\u202a\u202b\u202c\u202d", "____"),
        ("\u2066iso\u2067\u2068\u2069", "_iso___"),
        ("cafe\u0301", "caf\u00e9"),  # NFD: e and a combining acute accent
        ("-rf", "_rf"),
        ("--help", "_-help"),
        ("-", "_"),
    ],
    ids=lambda value: repr(value),
)
def test_control_and_bidi_characters_and_a_leading_dash_are_replaced(name: str, key: str) -> None:
    assert safe_key(name) == key
    assert safe_key(key) == key  # add makes keys again from the keys read


def test_a_long_name_is_cut_and_still_never_starts_with_a_dash() -> None:
    long_key = safe_key("-" + "\x1b" * 200)
    assert long_key.startswith("_") and len(long_key) <= MAX_KEY_LENGTH
    # 200 spaces: the cut head is stripped of its spaces, leaving only "-" and the hash.
    blank = safe_key(" " * 200)
    assert len(blank) == 9 and blank.startswith("_") and safe_key(blank) == blank
    assert safe_key(long_key) == long_key


def test_keys_made_the_same_stay_distinct() -> None:
    names = ["esc\x1b", "esc\x07", "esc_", "caf\u00e9", "cafe\u0301", "-rf"]
    assert distinct_keys(names, taken=["_rf"]) == [
        "esc_",
        "esc_-2",
        "esc_-3",
        "caf\u00e9",
        "caf\u00e9-2",
        "_rf-2",
    ]


def test_keys_that_differ_only_in_case_stay_distinct() -> None:
    # Each names a page: on Windows and macOS Open.html and open.html are one file.
    assert distinct_keys(["Open", "open", "OPEN-2"], taken=["oPEN"]) == [
        "Open-2",
        "open-3",
        "OPEN-2-2",
    ]
