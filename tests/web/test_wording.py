"""The commands' messages worded for the desk (rating_batch/web/wording.py, spec/desk.md §3):
no desk page tells a terminal command or option, names a folder of the server, or shows a
hidden character as it is."""

from __future__ import annotations

import re
from pathlib import Path

from db_helpers import event_file, write_list
from desk_helpers import csrf, desk, said, send

from rating_batch.web.wording import for_the_desk

#: A command or an option of the command line, as a page would tell it.
TERMINAL = re.compile(r"rating-batch |(?<![\w-])--[a-z][a-z-]+")


def test_a_month_through_the_desk_tells_no_terminal_command(tmp_path: Path) -> None:
    """Every page of a month: the first page and init, a list sent as an event, a file added,
    the same file again, the preview, publish, the backups, unpublish asked and done, undo,
    remove asked and done, restore of an unknown point."""
    db = tmp_path / "fed.sqlite"
    client = desk(db, tmp_path / "out")
    pages = [client.get("/")]
    listing = write_list(tmp_path, ["id,name,rating", "11,A,1600", "12,B,1500"])
    files = [("list", ("list.csv", listing.read_bytes(), "text/csv"))]
    pages.append(client.post("/init", data={"csrf": csrf(client, "/"), "period": "2026-01"},
                             files=files))  # fmt: skip
    inbox = tmp_path / "files"
    inbox.mkdir()
    event = event_file(inbox, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
    late = event_file(inbox, "long", [(1, 1, 2, "1-0")], day="2026/01/10", end="2026/03/30")
    pages += [
        client.get("/"),
        send(client, listing),  # a rating list sent as an event
        send(client, late),  # over 60 days: refused unless the box is ticked
        send(client, event, check=True),
        send(client, event),
        send(client, event),  # already added
        client.get("/events"),
        client.get("/publish/2026-02"),
        client.post("/publish/2026-02", data={"csrf": csrf(client)}),
        client.get("/"),
        client.get("/backups"),
        client.get("/events/jan/remove"),  # refused: its period is published
        client.get("/unpublish/2026-02"),
        client.post("/unpublish/2026-02", data={"csrf": csrf(client)}),
        client.post("/restore", data={"csrf": csrf(client), "backup": "latest"}),
        client.post("/unpublish/2026-02", data={"csrf": csrf(client)}),
        client.get("/events/jan/remove"),
        client.post("/events/jan/remove", data={"csrf": csrf(client)}),
        client.post("/restore", data={"csrf": csrf(client), "backup": "nope"}),
        client.post("/backup", data={"csrf": csrf(client)}),
        client.get("/backups"),
    ]
    statuses = [page.status_code for page in pages]
    assert statuses.count(200) >= 15, statuses
    for page in pages:
        text = said(page.text)
        assert not TERMINAL.search(text), (page.url, TERMINAL.search(text), text)
        # The one folder a page names is where the lists and the web site are written.
        assert str(tmp_path) not in page.text.replace(str(tmp_path / "out"), ""), page.url
    joined = "\n".join(said(page.text) for page in pages)
    assert "a rating list is given when the database is made, not as an event" in joined
    assert "“accept dates that look wrong” adds it anyway" in joined
    assert "Remove jan first (on the Events page)" in joined or "already added" in joined
    assert "Unpublish 2026-02 (on the Database page)" in joined


def test_the_tables_rows_word_the_commands_for_the_desk() -> None:
    assert (
        for_the_desk(
            "added jan (…), period 2026-02, 2 players\n"
            "'rating-batch restore latest' takes this add back (journal entry 3)"
        )
        == "added jan (…), period 2026-02, 2 players"
    )
    assert (
        for_the_desk(
            "its 1 event(s) are added and pending again; 'rating-batch publish 2026-02' rates them"
        )
        == "its 1 event(s) are added and pending again; publishing 2026-02 rates them"
    )
    assert for_the_desk("(a corrected file? 'rating-batch remove jan' first, …") == (
        "(a corrected file? Remove jan first (on the Events page), …"
    )
    assert for_the_desk("the database is busy: … waited 30 s (--wait SECONDS, or "
                        "$RATING_BATCH_WAIT, waits longer)") == (
        "the database is busy: … waited 30 s (try again in a moment)"
    )  # fmt: skip


def test_server_folders_go_and_file_names_stay() -> None:
    assert for_the_desk("refused /srv/fed/inbox/abc/jan.trf: bad") == "refused jan.trf: bad"
    assert for_the_desk(r"C:\Users\officer\Desktop\jan.trf:4: round 1") == "jan.trf:4: round 1"
    assert (
        for_the_desk("a date 2026/01/10 and out/site/ stay")
        == "a date 2026/01/10 and out/site/ stay"
    )
    assert for_the_desk("see https://ratings.fide.com/a/b") == "see https://ratings.fide.com/a/b"
    assert for_the_desk("x\u202egpj.trf\x1b]0;t\x07") == "x<U+202E>gpj.trf<U+001B>]0;t<U+0007>"


def test_the_messages_an_attack_found_are_worded_for_the_desk() -> None:
    """Messages of the commands an attack on the desk found on its pages, each in the words of
    the library that makes it."""
    for message in [
        "x.trf: this is a tournament file (TRF), not a rating list: give it to add or rate as "
        "an event, not as --list",
        "rules.toml:2: unknown key 'k': 'rating-batch rules fide-2025' lists every key",
        "jan.trf:4: warning: FIDE ID 900000285 is 'B, A' in this file but 'A, B' in the database "
        "(the database's name is kept): is the FIDE ID right? If the name changed: "
        "rating-batch edit-player 900000285 --name 'B, A'",
        "new FIDE ID 5 'A': possible duplicate of 'A' (n1#7, born 1990, GER); both are kept (if "
        "they are one person: rating-batch edit-player n1#7 --fide-id 5)",
        "undid backup --after (journal entry 3)",
    ]:
        worded = for_the_desk(message)
        assert not TERMINAL.search(worded), worded
    assert "correct n1#7 on the Players page, giving the FIDE ID 5" in for_the_desk(
        "both are kept (if they are one person: rating-batch edit-player n1#7 --fide-id 5)"
    )
