"""rules_check.py: where a rules file writes each key, and the closest known key."""

from __future__ import annotations

import tomllib

import pytest

from rating_batch.errors import RulesError
from rating_batch.rules_check import Findings, did_you_mean, key_lines
from rating_batch.systems.elo.rules_file import RULES_FILE_KEYS

# Every way TOML lets a key be written, each value valid (the lines are numbered by hand).
TEXT = """\
# a comment = not a key
base = "fide-2025"  # trailing = comment
title = \"\"\"two
floor = lines of a title, not a key
\"\"\"
"k" . "new" = 40

[periods]
list_months = [
  1, 2, # [ not an array
  3,
]
months = 2
[ lists ] # a comment
classes = [
  { name = "a=b", from = 0 },
]
rating_max = 2900
[first_rating]
max = { a = 1 }
"""


def test_each_key_is_found_at_its_line() -> None:
    tomllib.loads(TEXT)  # the text is valid TOML
    assert key_lines(TEXT) == {
        "base": 2,
        "title": 3,
        "k.new": 6,
        "periods": 8,
        "periods.list_months": 9,
        "periods.months": 13,
        "lists": 14,
        "lists.classes": 15,
        "lists.rating_max": 18,
        "first_rating": 19,
        "first_rating.max": 20,
    }


def test_a_key_inside_an_inline_table_is_at_the_line_of_the_table() -> None:
    found = Findings("r.toml", TEXT)
    assert found.line_of("first_rating.max.a") == 20
    # A key the file does not write: the first of the others it writes.
    assert found.line_of("floor", "lists.rating_max") == 18
    assert found.line_of("floor") is None


def test_problems_are_told_at_once_in_the_files_order() -> None:
    found = Findings("r.toml", TEXT)
    found.add("second", "lists.rating_max")
    found.add("first", "periods.months")
    found.add("file-wide")
    with pytest.raises(RulesError) as raised:
        found.raise_any()
    assert str(raised.value) == "r.toml: file-wide\nr.toml:13: first\nr.toml:18: second"


@pytest.mark.parametrize(
    ("key", "hint"),
    [
        ("flor", " (did you mean 'floor'?)"),
        ("periods.month", " (did you mean 'periods.months'?)"),
        ("first_rating.floor", " (did you mean 'floor'?)"),  # in the wrong section
        ("junior", " (did you mean 'k.junior'?)"),
        ("frist_rating.min_games", " (did you mean 'first_rating.min_games'?)"),
        ("k.flor", " (did you mean 'floor'?)"),
        ("lists.bogus", ""),  # not 'lists.kinds' for the section they share
        ("zzz", ""),
    ],
)
def test_the_closest_known_key_is_offered(key: str, hint: str) -> None:
    assert did_you_mean(key, RULES_FILE_KEYS) == hint
