"""``GET /lists/<period>/<kind>/<file>``: only what the database says was published
(rating_batch/web/lists.py, spec/desk.md §1)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from db_helpers import run
from desk_helpers import desk, january, said


def made_published(folder: Path) -> None:
    """January's event added and published (out/), and a file beside the lists that was
    never published (out/secret.txt)."""
    db, event = january(folder)
    out = folder / "out"
    assert run("add", event, "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", out)[0] == 0
    (out / "secret.txt").write_text("not published", encoding="utf-8")


@pytest.fixture
def published(tmp_path: Path, made_once: Callable[..., Path]):
    """A desk over ``made_published``'s folder (made once, copied) and its out/."""
    made_once(made_published, tmp_path)
    return desk(tmp_path / "r.sqlite", tmp_path / "out"), tmp_path / "out"


@pytest.mark.parametrize(
    "name", ["list.csv", "list.xlsx", "list.txt", "report.xlsx", "changes.csv", "index.html"]
)
def test_each_published_file_is_served_byte_for_byte(published, name: str) -> None:
    client, out = published
    answer = client.get(f"/lists/2026-02/standard/{name}")
    assert answer.status_code == 200
    assert answer.content == (out / "2026-02" / "standard" / name).read_bytes()


def test_an_event_page_and_the_media_types(published) -> None:
    client, out = published
    page = client.get("/lists/2026-02/standard/events/jan.html")
    assert page.content == (out / "2026-02" / "standard" / "events" / "jan.html").read_bytes()
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    listing = client.get("/lists/2026-02/standard/list.csv")
    assert listing.headers["content-disposition"] == (
        'attachment; filename="2026-02-standard-list.csv"'
    )


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("/lists/2026-02/standard/secret.txt", "no file standard/secret.txt was published"),
        ("/lists/2026-02/standard/%2E%2E/%2E%2E/secret.txt", "no published file"),
        ("/lists/2026-02/standard/events/..%2F..%2Flist.csv", "no published file"),
        ("/lists/2026-03/standard/list.csv", "no file standard/list.csv was published"),
        ("/lists/2026-2/standard/list.csv", "'2026-2' is not a period (YYYY-MM)"),
        ("/lists/2026-02/classical/list.csv", "'classical' is not a list kind"),
        ("/lists/..%2F2026-02/standard/list.csv", "not a period"),
    ],
    ids=["not-published", "dots", "encoded-slashes", "unpublished-period", "bad-period",
         "bad-kind", "dots-in-period"],
)  # fmt: skip
def test_anything_else_is_404(published, address: str, message: str) -> None:
    client, _ = published
    answer = client.get(address)
    assert answer.status_code == 404
    assert message in said(answer.text)
