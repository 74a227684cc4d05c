"""``GET /publish/<period>`` (the preview), ``POST /publish/<period>`` and
``POST /unpublish/<period>`` (rating_batch/web/publish.py, spec/desk.md §1)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from db_helpers import dump, query
from desk_helpers import csrf, desk, january, said, send


def _added(tmp_path: Path):
    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    assert send(client, event).status_code == 200
    return db, client


def test_the_preview_is_publish_dry_run_and_changes_nothing(tmp_path: Path) -> None:
    db, client = _added(tmp_path)
    before = dump(db)
    page = client.get("/publish/2026-02")
    assert page.status_code == 200
    text = said(page.text)
    # 11 (1600) beat 12 (1500): both stay on the list of two, both ratings change.
    assert "would publish 2026-02" in text
    assert "changes against 2026-01: 0 new, 0 left, 2 ratings changed" in text
    assert "dry run: nothing was changed or written" in text
    assert 'action="/publish/2026-02"' in page.text
    # The changes named as changes.csv will name them, largest first: 11 (A) won, K 20,
    # We 0.64 for a difference of 100: 20 x (1 - 0.64) = +7.2 -> 1607; 12 (B) -7.2 -> 1493.
    assert "Standard: largest rating changes (2)" in text
    rows = re.findall(r"<tr><td class=\"text\">(\d+)</td><td class=\"text\">([^<]*)</td>"
                      r"<td class=\"text\">[^<]*</td><td>(\d+)</td><td>(\d+)</td><td>([^<]+)</td>",
                      page.text)  # fmt: skip
    assert rows == [("11", "A", "1600", "1607", "+7"), ("12", "B", "1500", "1493", "-7")]
    assert "rating-batch" not in text and "--dry-run" not in text
    assert dump(db) == before
    assert not (tmp_path / "out").exists()


def test_publish_writes_the_lists_links_them_and_unpublish_takes_it_back(tmp_path: Path) -> None:
    db, client = _added(tmp_path)
    answer = client.post("/publish/2026-02", data={"csrf": csrf(client)})
    assert answer.status_code == 200
    assert "published 2026-02" in said(answer.text)
    assert 'href="/lists/2026-02/standard/list.csv"' in answer.text
    assert query(db, "SELECT period FROM lists WHERE origin = 'publish'") == [("2026-02",)]
    written = tmp_path / "out" / "2026-02" / "standard" / "list.csv"
    download = client.get("/lists/2026-02/standard/list.csv")
    assert download.status_code == 200 and download.content == written.read_bytes()
    # Where the web site is, and the way back.
    site = tmp_path / "out" / "site"
    assert f"The federation's web site is the folder {site}" in " ".join(said(answer.text).split())
    assert "web site:" not in said(answer.text)  # the command's line, said by the paragraph
    assert "2026-02" in (site / "index.html").read_text(encoding="utf-8")
    assert 'action="/restore" class="undo"' in answer.text
    # Unpublish asks first (a dry run: nothing changes), then withdraws the list and writes
    # the web site again without it.
    published = dump(db)
    asked = client.get("/unpublish/2026-02")
    assert asked.status_code == 200
    assert "would unpublish 2026-02 (standard)" in said(asked.text)
    assert '<form method="post" action="/unpublish/2026-02">' in asked.text
    assert dump(db) == published
    undone = client.post("/unpublish/2026-02", data={"csrf": csrf(client)})
    assert undone.status_code == 200
    assert "unpublished 2026-02 (standard)" in said(undone.text)
    assert "wrote index.html: 0 published list(s)" in said(undone.text)
    assert query(db, "SELECT period FROM lists WHERE origin = 'publish'") == []
    assert "2026-02" not in (site / "index.html").read_text(encoding="utf-8")
    # Undo this: the list is back, on the site too.
    again = client.post("/restore", data={"csrf": csrf(client), "backup": "latest"})
    assert again.status_code == 200, said(again.text)
    assert query(db, "SELECT period FROM lists WHERE origin = 'publish'") == [("2026-02",)]
    assert "2026-02" in (site / "index.html").read_text(encoding="utf-8")


def test_a_period_out_of_order_or_not_a_month_is_a_400_page(tmp_path: Path) -> None:
    db, client = _added(tmp_path)
    before = dump(db)
    later = client.post("/publish/2026-04", data={"csrf": csrf(client)})
    assert later.status_code == 400
    assert "the next list is 2026-02, not 2026-04: publish 2026-02 first" in said(later.text)
    assert client.get("/publish/2026-13").status_code == 400
    nothing = client.post("/unpublish/2026-02", data={"csrf": csrf(client)})
    assert nothing.status_code == 400
    assert "no period is published; nothing to unpublish" in said(nothing.text)
    assert dump(db) == before


def test_another_writer_holding_the_database_is_named_with_409(tmp_path: Path) -> None:
    db, client = _added(tmp_path)
    token = csrf(client)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    owner = "'rating-batch add' (pid 4242 on officer-pc, since 2026-12-01 06:00:00 UTC)"
    Path(f"{db}.writer").write_text(owner, encoding="utf-8")
    try:
        answer = client.post("/publish/2026-02", data={"csrf": token})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert answer.status_code == 409
    assert f"the database is busy: {owner} is writing to it; waited 0.2 s" in said(answer.text)
    assert query(db, "SELECT period FROM lists WHERE origin = 'publish'") == []


def test_a_web_site_that_cannot_be_written_is_a_warning_not_a_failed_publish(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack on the desk: a site folder the desk cannot write made a published list look
    refused (a 400 page, no files, no Undo), and an unpublish say the site was written again.
    The list is published; the page says so, with the site's problem as a warning."""
    from rating_batch.monthly import site as site_module
    from rating_batch.staging import OutputProblem

    db, client = _added(tmp_path)

    def refused(*args: object, **kwargs: object) -> None:
        raise OutputProblem("site: permission denied")

    monkeypatch.setattr(site_module, "write_site_pages", refused)
    answer = client.post("/publish/2026-02", data={"csrf": csrf(client)})
    assert answer.status_code == 200
    text = said(answer.text)
    assert "published 2026-02" in text
    assert "web site: warning: the web site was not written: site: permission denied" in text
    assert 'href="/lists/2026-02/standard/list.csv"' in answer.text
    assert 'action="/restore" class="undo"' in answer.text
    assert query(db, "SELECT period FROM lists WHERE origin = 'publish'") == [("2026-02",)]
    withdrawn = client.post("/unpublish/2026-02", data={"csrf": csrf(client)})
    assert withdrawn.status_code == 200
    assert "not written again, so it still shows the withdrawn list of 2026-02" in said(
        withdrawn.text
    )
    assert query(db, "SELECT period FROM lists WHERE origin = 'publish'") == []
