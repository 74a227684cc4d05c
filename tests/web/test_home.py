"""``GET /``: the database at a glance (rating_batch/web/home.py,
rating_batch/monthly/overview.py)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from db_helpers import dump, event_file, run
from desk_helpers import desk, january, said

from rating_batch.monthly.overview import database_overview


def test_the_first_page_shows_rules_lists_the_next_list_and_what_waits(tmp_path: Path) -> None:
    db, event = january(tmp_path)
    # A second event of February (ends 2026-02-03: the list of 2026-03): 11 v 12, two games.
    february = event_file(
        tmp_path / "files", "feb", [(1, 1, 2, "1-0"), (2, 2, 1, "=-=")], day="2026/02/03"
    )
    assert run("add", event, february, "--db", db)[0] == 0
    before = dump(db)
    client = desk(db, tmp_path / "out")
    page = client.get("/")
    assert page.status_code == 200
    text = said(page.text)
    assert "<dt>Rules</dt><dd>fide</dd>" in page.text
    assert "<dt>Initial list</dt><dd>2026-01</dd>" in page.text
    assert "<dt>Last published</dt><dd>none yet</dd>" in page.text
    assert "<dt>Next list</dt><dd>2026-02 (dated 2026-02-01) · " in page.text
    assert 'href="/publish/2026-02"' in page.text
    # Waiting: 2026-02 holds jan (2 players, 1 game), 2026-03 feb (2 players, 2 games).
    assert '<tr><td class="text">2026-02</td><td>1</td><td>2</td><td>1</td></tr>' in page.text
    assert '<tr><td class="text">2026-03</td><td>1</td><td>2</td><td>2</td></tr>' in page.text
    assert "1: add, " in text
    assert "no whole copy of the database yet" in text
    assert dump(db) == before


def test_a_list_whose_date_has_come_is_a_warning(tmp_path: Path) -> None:
    db, event = january(tmp_path)
    assert run("add", event, "--db", db)[0] == 0
    due = database_overview(db, today=dt.date(2026, 2, 1))
    assert due.warnings[0] == (
        "the list of 2026-02 is dated 2026-02-01, which has come: preview and publish it"
    )
    early = database_overview(db, today=dt.date(2026, 1, 31))
    assert not any("has come" in warning for warning in early.warnings)


def test_the_first_pages_warnings_lead_where_they_are_acted_on(tmp_path: Path) -> None:
    """Officer review L-a: "the list of 2026-02 … has come: preview and publish it" was plain
    text; it links the preview, and the missing copy links the Backups page."""
    from desk_helpers import send

    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    send(client, event)
    page = client.get("/").text
    # The list of 2026-02 is dated 2026-02-01, which has come (today is later).
    assert '<a href="/publish/2026-02">the list of 2026-02 is dated 2026-02-01' in page
    assert '<p class="warning"><a href="/backups">no whole copy of the database yet' in page
