"""What reaches the officer's terminal: every line a command prints passes ``terminal_text``.

Names, event titles and file names come from files anyone can write. Printed as they are, a
control character can be an escape sequence the terminal obeys, a bidi control (U+202E) shows
a text in another order than it is stored, and an invisible character (a no-break or
zero-width space, a soft hyphen) makes two different names look alike. Each is shown as its
code point instead, ``<U+202E>``, so that what the officer reads is what the files hold.
"""

from __future__ import annotations

import re

#: The width the command line's own output keeps within.
TERMINAL_WIDTH = 100

#: The bidi controls: U+061C, U+200E-F, U+202A-E, U+2066-9 (they reorder what follows).
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
#: What is never printed as it is: control characters but the newline and the tab, the bidi
#: controls, the other invisible format characters, and the no-break spaces.
_HIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u00a0\u00ad\u2007\u2028\u2029\u202f\u200b-\u200d\u2060-\u2064"
    f"\ufeff{BIDI_CONTROLS}]"
)


#: The line breaks and tabs of one line: in a name (a file's, a player's), a line break would
#: make a line of its own that the file's writer chose (a forged "added 1" in a month's log).
_BREAKS = re.compile("[\t\n\r]")


def one_line(text: str) -> str:
    """A name that must stay on its line: its tabs and line breaks as their code points too
    (``<U+000A>``); the rest as ``terminal_text`` shows it."""
    return _BREAKS.sub(lambda match: f"<U+{ord(match.group()):04X}>", text)


def terminal_text(text: str) -> str:
    """``text`` as it may be printed: each hidden character as its code point (``<U+00A0>``)."""
    if _HIDDEN.search(text) is None:
        return text
    return _HIDDEN.sub(lambda match: f"<U+{ord(match.group()):04X}>", text)
