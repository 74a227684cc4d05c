"""``GET /backups`` and ``POST /restore`` (rating_batch/web/backups.py)."""

from __future__ import annotations

import re
from pathlib import Path

from db_helpers import data_dump, dump, query, run
from desk_helpers import csrf, desk, january, said, send


def test_backups_lists_the_commands_and_restore_latest_undoes_the_add(tmp_path: Path) -> None:
    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    before = data_dump(db)
    send(client, event)
    page = client.get("/backups")
    assert page.status_code == 200
    text = said(page.text)
    assert f"1 command of {db.name} can be undone" in text
    assert str(db.parent) not in text  # no folder of the server on a page
    # A row a command, with the button that goes back to before it.
    assert re.search(
        r'<tr><td>1</td><td class="text">[0-9: -]+</td><td class="text">add</td>\s*<td '
        r'class="text"><form class="inline" method="post" action="/restore"><input '
        r'type="hidden" name="csrf" value="\w+"><input type="hidden" name="backup" value="1">'
        r'<button type="submit" class="danger">Go back to before it</button>',
        page.text,
    )
    answer = client.post("/restore", data={"csrf": csrf(client), "backup": "latest"})
    assert answer.status_code == 200
    assert data_dump(db) == before


def test_restore_without_a_point_or_with_an_unknown_one_is_a_400_page(tmp_path: Path) -> None:
    db, _ = january(tmp_path)
    client = desk(db, tmp_path / "out")
    before = dump(db)
    empty = client.post("/restore", data={"csrf": csrf(client)})
    assert empty.status_code == 400
    assert "choose what to go back to" in said(empty.text)
    unknown = client.post("/restore", data={"csrf": csrf(client), "backup": "7"})
    assert unknown.status_code == 400
    assert 'href="/backups"' in unknown.text
    assert dump(db) == before


def test_back_up_now_takes_a_whole_copy_and_can_keep_one_after_every_publish(
    tmp_path: Path,
) -> None:
    """spec/desk.md §3: POST /backup as ``backup [--after publish]``: the first page's
    standing warning goes, and the copy is listed for Restore."""
    db, _ = january(tmp_path)
    client = desk(db, tmp_path / "out")
    assert "no whole copy of the database yet: Back up now" in said(client.get("/").text)
    before = data_dump(db)
    answer = client.post("/backup", data={"csrf": csrf(client), "after_publish": "1"})
    assert answer.status_code == 200, said(answer.text)
    text = said(answer.text)
    assert "a whole copy will be taken after every publish" in text
    assert f"saved a whole copy of {db.name} as " in text
    assert str(tmp_path) not in answer.text
    setting = """INSERT INTO "meta" VALUES('copies_after','publish');"""
    assert [line for line in data_dump(db) if line != setting] == before  # and the copy
    home = said(client.get("/").text)
    assert "no whole copy" not in home and "whole copy " in home
    copies = client.get("/backups").text
    assert "Whole copies (1)" in said(copies) and "Put this copy back" in copies


def test_undo_this_pressed_twice_never_undoes_the_undo(tmp_path: Path) -> None:
    """Attack on the desk: Undo this pressed twice (or again after Back) undid the add, then
    undid that undo, and the event was back. It names its change now: the state before it,
    however often it is pressed."""
    import re

    from db_helpers import query

    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    before = data_dump(db)
    added = send(client, event)
    undoes = re.search(r'name="undoes" value="(\d+)"', added.text)
    assert undoes is not None
    form = {"csrf": csrf(client), "backup": "latest", "undoes": undoes[1]}
    for _ in range(2):
        answer = client.post("/restore", data=form)
        assert answer.status_code == 200, said(answer.text)
        assert query(db, "SELECT COUNT(*) FROM events") == [(0,)]
        assert data_dump(db) == before


def test_a_file_lost_from_both_copies_is_an_error_on_the_backup_page(tmp_path: Path) -> None:
    """As ``backup`` exits 1 in a terminal: the page's title and an error, not a warning
    among others, say that a published file is gone from both its copies."""
    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    send(client, event)
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    (first,) = query(db, "SELECT digest FROM published_files WHERE path LIKE '%list.csv'")[:1]
    for folder in (Path(f"{db}.files"), Path(f"{db}.backups") / "files"):
        for place in folder.glob(f"{first[0][:2]}/{first[0]}*"):
            place.write_bytes(b"damaged")
    page = client.post("/backup", data={"csrf": csrf(client, "/backups")})
    assert page.status_code == 200
    assert "<title>Backed up, but files are lost" in page.text
    errors = re.search(r'<ul class="issues errors" role="alert">(.*?)</ul>', page.text, re.S)
    assert errors is not None
    assert "cannot be read from either of its two copies" in errors[1]
    text = said(page.text)
    assert f"1 published file of {db.name} is lost from both of its copies" in text
    assert str(db.parent) not in text
