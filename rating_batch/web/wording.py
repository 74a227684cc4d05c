"""The commands' messages worded for the desk (spec/desk.md §3): the library's messages are
the commands', and name the command or option that acts ('rating-batch restore latest',
--accept-dates). On a desk page each becomes the button or box that does the same, and a
message shows no folder of the server and no character that hides or reorders text.

One table, read top to bottom; a command the table does not know stays as it is, so a new
message is never lost, only worded as on the terminal (tests/web/test_wording.py walks every
page of a month through the desk and finds none)."""

from __future__ import annotations

import re

from rating_batch.terminal import terminal_text

_RESTORE_LATEST = (
    r"'rating-batch restore latest' takes (?:it|this \w+) back(?: \(journal entry \d+\))?"
)

#: (pattern, the desk's words), applied in order.
WORDING: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), words)
    for pattern, words in (
        (rf"^{_RESTORE_LATEST}$", ""),
        # Said on the page in a paragraph of its own, with the folder.
        (r"^web site: .* \(every published list; copy it to the web host\)$", ""),
        (rf"(?:; |, )?{_RESTORE_LATEST}", ""),
        (r"'rating-batch remove ([^']+)' first", r"Remove \1 first (on the Events page)"),
        (r"'rating-batch remove ([^']+)'", r"Remove \1 (on the Events page)"),
        (r"'rating-batch unpublish ([^']+)'", r"Unpublish \1 (on the Database page)"),
        (
            r"'rating-batch publish ([^' ]+) --out [^']*' writes them",
            r"publishing \1 again writes them",
        ),
        (r"'rating-batch publish ([^' ]+)' rates them", r"publishing \1 rates them"),
        (
            r"'rating-batch site --out [^']*' writes the site",
            "Write the web site (on the Database page) writes it",
        ),
        (r"\(only by 'rating-batch backup'\)", "(only by Back up now, on the Backups page)"),
        (r"'rating-batch backup' (takes|makes)", r"Back up now (on the Backups page) \1"),
        (r"'rating-batch backups' lists", "the Backups page lists"),
        (
            r"\('rating-batch restore N' goes back to the state before command N, 'restore latest' "
            r"undoes the last;",
            "(Restore goes back to the state before the command chosen;",
        ),
        (r"'rating-batch restore NAME' puts one back", "Restore puts one back"),
        (
            r"'rating-batch restore latest' takes this restore back",
            "Undo this takes this restore back",
        ),
        (
            r"then 'rating-batch restore ([^']+)' puts",
            r"then Restore \1 (on the Backups page) puts",
        ),
        (r"'rating-batch restore'", "Restore (on the Backups page)"),
        (r"'rating-batch player --name TEXT'", "the Players page"),
        (r"'rating-batch player ID' shows one", "each id's link shows one"),
        (r"'rating-batch init --list FILE'", "the desk's first page (from a rating list)"),
        (
            r"give it with --list, or to init --list",
            "a rating list is given when the database is made, not as an event",
        ),
        (r"\(--accept-dates adds it anyway\)", "(“accept dates that look wrong” adds it anyway)"),
        (r"--accept-dates to publish it now", "publish it once its closing date has passed"),
        (
            r"; --allow-overlap adds it anyway",
            "; “allow events that share their games” adds it anyway",
        ),
        (
            r"--kind rapid or blitz for another list",
            "choose the list rapid or blitz for another list",
        ),
        (
            r"rating-batch edit-player (\S+) --fide-id (\d+)",
            r"correct \1 on the Players page, giving the FIDE ID \2",
        ),
        (
            r"rating-batch edit-player (\S+) --([a-z-]+) .*$",
            r"correct \1 on the Players page (its \2)",
        ),
        (r"; pass --force to merge them$", "; tick “they are one person” to merge them"),
        (
            r"give what to correct: --name, --federation, --sex, --birth-year, --fide-id or "
            r"--national-id",
            "give what to correct: at least one field",
        ),
        (r"(?<![\w-])--(name|federation|sex|fide-id) ", r"the field \1 "),
        (r"(?<![\w-])--birth-year ", "the field birth year "),
        (r"(?<![\w-])--national-id ", "the field national id "),
        (
            r"restore latest, then add with --keep-apart \d+",
            "Undo this, then add it again: they stay apart only by the command line's add",
        ),
        (
            r"give it to add or rate as an event, not as --list",
            "add it on the Events page, not as the database's list",
        ),
        (
            r"'rating-batch rules ([^']+)' (lists every key|lists them all)",
            r"docs/rules.md lists every key",
        ),
        (r"\bbackup --after\b", "the setting of whole copies after a command"),
        (r"\(--wait SECONDS, or \$RATING_BATCH_WAIT, waits longer\)", "(try again in a moment)"),
        (
            r"give --encoding with the file's code page",
            "save the file as UTF-8 in the program that wrote it",
        ),
    )
)

#: A folder of the server named in a message (POSIX or Windows), to be left out: the file's
#: own name stays, its folders go.
_FOLDERS = re.compile(r"(?<![\w.~:/-])(?:/(?:[^\s/'\"<>:]+/)+|[A-Za-z]:\\(?:[^\s\\'\"<>:]+\\)+)")


def for_the_desk(text: str) -> str:
    """``text`` as a desk page shows it: the desk's words for the commands', no server
    folder, and every hidden or reordering character as its code point."""
    lines = []
    for line in str(text).split("\n"):
        worded = line
        for pattern, words in WORDING:
            worded = pattern.sub(words, worded)
        if line and not worded.strip():
            continue  # a line that only told a command the page offers as a button
        lines.append(terminal_text(_FOLDERS.sub("", worded)))
    return "\n".join(lines)
