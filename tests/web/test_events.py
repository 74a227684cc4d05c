"""``GET /events``, ``POST /events`` (check, add) and ``POST /events/<key>/remove``
(rating_batch/web/events.py, spec/desk.md §1)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from db_helpers import dump, query
from desk_helpers import ADDED, BAD_RESULT, broken, csrf, desk, january, said, send


def test_a_file_with_an_error_is_shown_at_its_line_and_nothing_is_kept(tmp_path: Path) -> None:
    db, event = january(tmp_path)
    good = event.read_bytes()
    broken(event)
    client = desk(db, tmp_path / "out")
    before = dump(db)
    for check in (True, False):
        answer = send(client, event, check=check)
        assert answer.status_code == 400
        assert BAD_RESULT in said(answer.text)
        assert "nothing was stored" in said(answer.text)
    assert dump(db) == before
    assert list((tmp_path / "r.sqlite.inbox").iterdir()) == []  # nothing kept
    # The fixed file, checked: what adding it would do, nothing stored.
    event.write_bytes(good)
    answer = send(client, event, check=True)
    assert answer.status_code == 200
    text = said(answer.text)
    assert f"would add {ADDED}" in text
    assert "dry run: nothing was changed" in text
    assert dump(db) == before


def test_adding_stores_the_event_and_keeps_its_file_in_the_inbox(tmp_path: Path) -> None:
    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    answer = send(client, event)
    assert answer.status_code == 200
    text = said(answer.text)
    assert f"added {ADDED}" in text
    assert "rating-batch" not in text  # the way back is the Undo this button
    assert _undo_button(answer.text)
    digest = hashlib.sha256(event.read_bytes()).hexdigest()
    kept = tmp_path / "r.sqlite.inbox" / digest / "jan.trf"
    assert kept.read_bytes() == event.read_bytes()
    assert query(db, "SELECT key, period, source FROM events") == [("jan", "2026-02", str(kept))]
    # The same file again: refused as add refuses it, named as it was sent.
    again = send(client, event)
    assert again.status_code == 400
    assert "jan.trf: already added as jan (period 2026-02)" in said(again.text)
    assert kept.exists()


def test_the_events_page_lists_each_stored_event_with_its_size(tmp_path: Path) -> None:
    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    assert "No event is stored yet." in said(client.get("/events").text)
    send(client, event)
    page = client.get("/events")
    assert page.status_code == 200
    # One row: key, title, dates, kind, 2 players, 1 game (11 beat 12), the file, remove.
    assert "Period 2026-02" in said(page.text)
    assert (
        '<td class="text">jan</td><td class="text">jan</td>'
        '<td class="text">2026-01-10…2026-01-10</td><td class="text">standard</td>'
        '<td>2</td><td>1</td><td class="text">jan.trf</td>'
    ) in page.text
    assert 'href="/events/jan/remove">Remove…</a>' in page.text


def _undo_button(page: str) -> bool:
    """Whether ``page`` offers Undo this: a form to POST /restore with backup=latest."""
    return bool(
        re.search(
            r'<form method="post" action="/restore" class="undo">\s*<input type="hidden" '
            r'name="csrf" value="[0-9a-f]+">\s*<input type="hidden" name="backup" '
            r'value="latest">\s*<input type="hidden" name="undoes" value="\d+">\s*'
            r'<button type="submit" class="quiet">Undo this</button>',
            page,
        )
    )


def test_remove_asks_first_then_takes_the_event_out_and_undo_puts_it_back(
    tmp_path: Path,
) -> None:
    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    send(client, event)
    before = dump(db)
    # The confirmation page: what would go, nothing changed, a button.
    asked = client.get("/events/jan/remove")
    assert asked.status_code == 200
    assert (
        "would remove jan (jan, file jan.trf, period 2026-02): 2 game rows, 2 player entries, "
        "0 player(s) only it had created"
    ) in said(asked.text)
    assert '<form method="post" action="/events/jan/remove">' in asked.text
    assert dump(db) == before
    answer = client.post("/events/jan/remove", data={"csrf": csrf(client)})
    assert answer.status_code == 200
    # The file named as it was sent, not by its folder in the inbox; one game is two rows
    # (one from each side); 11 and 12 were on the list, so it created no player.
    assert (
        "removed jan (jan, file jan.trf, period 2026-02): 2 game rows, 2 player entries, "
        "0 player(s) only it had created"
    ) in said(answer.text)
    assert query(db, "SELECT COUNT(*) FROM events") == [(0,)]
    assert _undo_button(answer.text)
    undone = client.post("/restore", data={"csrf": csrf(client), "backup": "latest"})
    assert undone.status_code == 200, said(undone.text)
    assert query(db, "SELECT key FROM events") == [("jan",)]
    before = dump(db)
    assert client.get("/events/nope/remove").status_code == 404
    missing = client.post("/events/nope/remove", data={"csrf": csrf(client)})
    assert missing.status_code == 404
    assert "no event 'nope' in" in said(missing.text)
    assert 'href="/events"' in missing.text  # the way back
    assert dump(db) == before


def test_no_file_sent_is_a_400_page(tmp_path: Path) -> None:
    db, _ = january(tmp_path)
    client = desk(db, tmp_path / "out")
    answer = client.post("/events", data={"csrf": csrf(client)})
    assert answer.status_code == 400
    assert "no file was sent: choose one or more tournament files" in said(answer.text)


def test_a_file_over_the_commands_size_limit_is_refused_unwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, event = january(tmp_path)
    # The limit is the loaders' MAX_EVENT_BYTES (64 MiB): lowered so the test stays small.
    monkeypatch.setattr("rating_batch.web.events.MAX_EVENT_BYTES", 100)
    size = len(event.read_bytes())
    assert size > 100
    client = desk(db, tmp_path / "out")
    before = dump(db)
    answer = send(client, event)
    assert answer.status_code == 400
    assert "jan.trf: the file is over 100 bytes; nothing was stored" in said(answer.text)
    assert dump(db) == before
    # Reading stopped at the limit: nothing of the file stays anywhere in the inbox.
    assert [p for p in (tmp_path / "r.sqlite.inbox").rglob("*")] == []


@pytest.mark.parametrize(
    ("sent", "kept"),
    [("../../jan.trf", "jan.trf"), ("C:\\officer\\jan.trf", "jan.trf")],
    ids=["posix-folders", "windows-folders"],
)
def test_a_sent_name_keeps_only_its_last_part(tmp_path: Path, sent: str, kept: str) -> None:
    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    files = [("files", (sent, event.read_bytes(), "text/plain"))]
    answer = client.post("/events", data={"csrf": csrf(client)}, files=files)
    assert answer.status_code == 200, said(answer.text)
    digest = hashlib.sha256(event.read_bytes()).hexdigest()
    assert [p.name for p in (tmp_path / "r.sqlite.inbox" / digest).iterdir()] == [kept]


def test_a_hidden_file_name_is_refused(tmp_path: Path) -> None:
    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    files = [("files", (".jan.trf", event.read_bytes(), "text/plain"))]
    answer = client.post("/events", data={"csrf": csrf(client)}, files=files)
    assert answer.status_code == 400
    assert "the file name '.jan.trf' cannot be kept" in said(answer.text)


def test_the_loaders_zip_limits_hold_for_a_file_sent(tmp_path: Path) -> None:
    import io
    import zipfile

    db, _ = january(tmp_path)
    client = desk(db, tmp_path / "out")
    # 20 MB of zeros deflate to a few kB: over the loaders' MAX_ZIP_RATIO (200) for a member
    # over 10 MB, a zip bomb, refused from the zip's directory before anything is unpacked.
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * 20_000_000)
    before = dump(db)
    files = [
        ("files", ("bomb.xlsx", bomb.getvalue(), "application/octet-stream")),
        ("files", ("plain.xlsx", b"not a zip", "application/octet-stream")),
    ]
    answer = client.post("/events", data={"csrf": csrf(client)}, files=files)
    assert answer.status_code == 400
    text = said(answer.text)
    assert "bomb.xlsx: xl/worksheets/sheet1.xml is compressed " in text
    assert " times (a zip bomb?)" in text
    assert "plain.xlsx: not an XLSX file (it is not a zip archive)" in text
    assert dump(db) == before
    assert list((tmp_path / "r.sqlite.inbox").iterdir()) == []


def test_add_these_files_adds_what_was_checked_without_sending_it_again(tmp_path: Path) -> None:
    """spec/desk.md §3 (officer review M1): a good check keeps its files for an hour and
    offers Add these files; the add takes them by their SHA-256, the options checked with."""
    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    before = dump(db)
    checked = send(client, event, check=True)
    assert checked.status_code == 200
    digest = hashlib.sha256(event.read_bytes()).hexdigest()
    assert f'<input type="hidden" name="checked" value="{digest}">' in checked.text
    assert "Add this file" in said(checked.text)
    kept = tmp_path / "r.sqlite.inbox" / digest
    assert sorted(p.name for p in kept.iterdir()) == [".checked", "jan.trf"]
    assert dump(db) == before  # a check stores nothing
    event.unlink()  # the officer's copy is gone: the desk adds the one it checked
    added = client.post("/events", data={"csrf": csrf(client), "checked": digest})
    assert added.status_code == 200, said(added.text)
    assert f"added {ADDED}" in said(added.text)
    assert query(db, "SELECT key, source FROM events") == [("jan", str(kept / "jan.trf"))]
    assert sorted(p.name for p in kept.iterdir()) == ["jan.trf"]  # added: no longer only checked
    # Added already: the same button again is refused, nothing changes.
    stored = dump(db)
    again = client.post("/events", data={"csrf": csrf(client), "checked": digest})
    assert again.status_code == 409
    assert "no longer kept" in said(again.text)
    assert dump(db) == stored


def test_files_only_checked_are_removed_after_an_hour(tmp_path: Path) -> None:
    import time

    from rating_batch.web.uploads import prune_checked

    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    assert send(client, event, check=True).status_code == 200
    inbox = tmp_path / "r.sqlite.inbox"
    prune_checked(inbox, now=time.time() + 59 * 60)
    assert len(list(inbox.rglob("jan.trf"))) == 1
    prune_checked(inbox, now=time.time() + 61 * 60)
    assert list(inbox.rglob("*")) == []
    before = dump(db)
    digest = hashlib.sha256(event.read_bytes()).hexdigest()
    late = client.post("/events", data={"csrf": csrf(client), "checked": digest})
    assert late.status_code == 409 and "send them again" in said(late.text)
    # A digest that is no digest names no folder.
    odd = client.post("/events", data={"csrf": csrf(client), "checked": "../../etc"})
    assert odd.status_code == 409
    assert dump(db) == before


def test_a_refused_check_keeps_nothing_and_offers_no_add(tmp_path: Path) -> None:
    db, event = january(tmp_path)
    broken(event)
    client = desk(db, tmp_path / "out")
    answer = send(client, event, check=True)
    assert answer.status_code == 400
    assert 'name="checked"' not in answer.text
    assert list((tmp_path / "r.sqlite.inbox").rglob("*")) == []


@pytest.mark.parametrize("name", ["a:b.trf", "a|b.trf", "w?.trf", "NUL.trf", "con", "jan.trf."])
def test_a_name_windows_cannot_keep_is_refused_on_every_system(tmp_path: Path, name: str) -> None:
    """The desk may run on Windows: a name it could not write there is refused everywhere,
    by name, with nothing kept (not a failure of the machine half-way)."""
    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    before = dump(db)
    files = [("files", (name, event.read_bytes(), "text/plain"))]
    answer = client.post("/events", data={"csrf": csrf(client)}, files=files)
    assert answer.status_code == 400
    assert "cannot be kept: rename the file" in said(answer.text) or "ends in a space" in said(
        answer.text
    )
    assert dump(db) == before
    assert list((tmp_path / "r.sqlite.inbox").rglob("*")) == []


def test_after_a_refusal_the_good_files_are_kept_and_only_the_fixed_one_is_sent(
    tmp_path: Path,
) -> None:
    """Officer review M1: one file of two refused; the other is kept as checked, and the
    corrected file sent alone adds both."""
    from db_helpers import event_file

    db, event = january(tmp_path)
    other = event_file(tmp_path / "files", "jan2", [(1, 1, 2, "0-1")], day="2026/01/17")
    good = event.read_bytes()
    broken(event)
    client = desk(db, tmp_path / "out")
    before = dump(db)
    refused = send(client, event, other, check=True)
    assert refused.status_code == 400
    text = said(refused.text)
    assert BAD_RESULT in text
    assert "1 file(s) had no error and are kept: jan2.trf" in text
    digest = hashlib.sha256(other.read_bytes()).hexdigest()
    assert f'<input type="hidden" name="checked" value="{digest}">' in refused.text
    assert 'name="checked" value="' + hashlib.sha256(event.read_bytes()).hexdigest() not in (
        refused.text
    )
    assert dump(db) == before
    # Only the corrected file is sent, with the kept one's digest, as the page's form does.
    event.write_bytes(good)
    files = [("files", ("jan.trf", good, "text/plain"))]
    added = client.post("/events", data={"csrf": csrf(client), "checked": digest}, files=files)
    assert added.status_code == 200, said(added.text)
    assert query(db, "SELECT key FROM events ORDER BY key") == [("jan",), ("jan2",)]
    inbox = tmp_path / "r.sqlite.inbox"
    assert sorted(p.name for p in inbox.rglob("*") if p.is_file()) == ["jan.trf", "jan2.trf"]


def test_a_kept_file_changed_in_the_inbox_is_refused_not_added(tmp_path: Path) -> None:
    """Attack on the desk: a file kept from a check, changed in the inbox, was added as it
    then was, not as it was sent. Its folder names its SHA-256: another content is refused."""
    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    assert send(client, event, check=True).status_code == 200
    digest = hashlib.sha256(event.read_bytes()).hexdigest()
    kept = tmp_path / "r.sqlite.inbox" / digest / "jan.trf"
    kept.write_bytes(event.read_bytes().replace(b"012 jan", b"012 NOT THE FILE SENT"))
    before = dump(db)
    for answer in (
        client.post("/events", data={"csrf": csrf(client), "checked": digest}),
        send(client, event),  # the same bytes sent again: the changed copy is not taken
    ):
        assert answer.status_code == 409
        assert "jan.trf: the copy the desk keeps has changed or gone" in said(answer.text)
    assert dump(db) == before


def test_the_checked_files_are_refused_once_an_hour_old_even_before_they_are_pruned(
    tmp_path: Path,
) -> None:
    import os
    import time

    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    assert send(client, event, check=True).status_code == 200
    digest = hashlib.sha256(event.read_bytes()).hexdigest()
    marker = tmp_path / "r.sqlite.inbox" / digest / ".checked"
    old = time.time() - 2 * 3600
    os.utime(marker, (old, old))
    before = dump(db)
    answer = client.post("/events", data={"csrf": csrf(client), "checked": digest})
    assert answer.status_code == 409 and "send them again" in said(answer.text)
    assert dump(db) == before


def test_a_name_only_checked_stays_kept_when_the_same_bytes_are_added_by_another(
    tmp_path: Path,
) -> None:
    """Attack on the desk: a file checked as club-copy.trf, then added as jan.trf, left
    club-copy.trf unmarked in the inbox for good. It stays marked, and is pruned in time."""
    import time

    from rating_batch.web.uploads import prune_checked

    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    copy = event.with_name("club-copy.trf")
    copy.write_bytes(event.read_bytes())
    assert send(client, copy, check=True).status_code == 200
    assert send(client, event).status_code == 200
    folder = tmp_path / "r.sqlite.inbox" / hashlib.sha256(event.read_bytes()).hexdigest()
    assert (folder / ".checked").read_text(encoding="utf-8") == "club-copy.trf\n"
    prune_checked(folder.parent, now=time.time() + 2 * 3600)
    assert sorted(p.name for p in folder.iterdir()) == ["jan.trf"]
