"""terminal.py: what a command prints shows hidden characters by their code point, so that the
officer reads what the files hold (a bidi control would reorder a name on the screen, a
control character would reach the terminal as an escape sequence)."""

from __future__ import annotations

from pathlib import Path

from db_helpers import ADULT, database, run
from trf_text import P, trf

from rating_batch.terminal import terminal_text

#: U+202E (right-to-left override) and a no-break space inside one name.
HIDDEN_NAME = "Bell Del\u00a0M\u202eX"


def test_hidden_characters_are_shown_by_their_code_point() -> None:
    assert terminal_text(HIDDEN_NAME) == "Bell Del<U+00A0>M<U+202E>X"
    assert terminal_text("a\x1b]0;title\x07b\tc\nd") == "a<U+001B>]0;title<U+0007>b\tc\nd"
    assert terminal_text("Żółkiewski, Łukasz") == "Żółkiewski, Łukasz"


def test_player_prints_no_hidden_character_and_list_txt_no_formula(tmp_path: Path) -> None:
    db = database(tmp_path, "11,1600", "12,1500")
    event = tmp_path / "e.trf"
    players = [P(1, HIDDEN_NAME, 1600, 11, ADULT), P(2, "=1+1", 1500, 12, ADULT)]
    event.write_text(trf(players, [(1, 1, 2, "1-0")]), encoding="utf-8")
    code, out, err = run("add", event, "--db", db)
    assert code == 0, err
    code, out, err = run("publish", "2026-02", "--db", db, "--out", tmp_path / "lists")
    assert code == 0, err
    code, out, err = run("player", "11", "--db", db)
    assert code == 0, err
    assert "Bell Del<U+00A0>M<U+202E>X (FIDE ID 11" in out
    assert not {"\u00a0", "\u202e"} & set(out + err)
    # list.txt: ASCII, and the formula neutralised as in list.csv.
    text = (tmp_path / "lists" / "2026-02" / "standard" / "list.txt").read_bytes()
    names = sorted(line[15:76].decode("ascii").rstrip() for line in text.split(b"\r\n")[1:-1])
    assert names == ["'=1+1", "Bell Del MX"]


def test_messages_naming_a_hostile_file_print_no_hidden_character(tmp_path: Path) -> None:
    """A file name is the officer's, or an organiser's: ``rlo<U+202E>gpj.trf`` would print
    as ``rlojpg.trf``."""
    event = tmp_path / "rlo\u202egpj.trf"
    players = [P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 11, ADULT)]
    event.write_text(trf(players, [(1, 1, 2, "1-0")]), encoding="utf-8")
    shown = str(event).replace("\u202e", "<U+202E>")
    code, out, _ = run("check", event)
    assert (code, out) == (1, f"{shown}:5: FIDE ID 11 is also on line 4: one player cannot "
                              "have two lines\n")  # fmt: skip
    code, _, err = run("rate", event, "--out", tmp_path / "out")
    assert (code, err.splitlines()[0]) == (1, f"Error: {shown}:5: FIDE ID 11 is also on line 4: "
                                              "one player cannot have two lines")  # fmt: skip
