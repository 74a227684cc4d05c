"""``GET /backups`` and ``POST /restore`` (rating_batch/web/backups.py)."""

from __future__ import annotations

from pathlib import Path

from db_helpers import data_dump, dump
from desk_helpers import csrf, desk, january, said, send


def test_backups_lists_the_commands_and_restore_latest_undoes_the_add(tmp_path: Path) -> None:
    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    before = data_dump(db)
    send(client, event)
    page = client.get("/backups")
    assert page.status_code == 200
    text = said(page.text)
    assert f"1 command of {db} can be undone" in text
    assert '<option value="1">1: before add' in page.text
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
