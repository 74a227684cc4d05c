"""Who may use the desk, and what a request may do (rating_batch/web/security.py,
spec/desk.md §1): csrf on every POST, GET never writes, the Host checked, the token."""

from __future__ import annotations

from pathlib import Path

import pytest
from db_helpers import dump, run
from desk_helpers import BASE, csrf, desk, january, said, send
from starlette.testclient import TestClient

from rating_batch.errors import RatingBatchError
from rating_batch.web.security import COOKIE, Guard

#: Every POST of the contract, with what it would do given the right csrf field.
POSTS = [
    ("/events", {}),
    ("/events/jan/remove", {}),
    ("/publish/2026-02", {}),
    ("/unpublish/2026-02", {}),
    ("/restore", {"backup": "latest"}),
]


def _desk_with_jan(tmp_path: Path) -> tuple[Path, TestClient, Path]:
    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    assert send(client, event).status_code == 200
    return db, client, event


@pytest.mark.parametrize(("address", "fields"), POSTS, ids=[a for a, _ in POSTS])
@pytest.mark.parametrize("given", [None, "0" * 64], ids=["no-csrf", "wrong-csrf"])
def test_a_post_without_the_right_csrf_is_403_and_changes_nothing(
    tmp_path: Path, address: str, fields: dict[str, str], given: str | None
) -> None:
    db, client, event = _desk_with_jan(tmp_path)
    before, inbox = dump(db), sorted((tmp_path / "r.sqlite.inbox").rglob("*"))
    data = {**fields, **({} if given is None else {"csrf": given})}
    files = [("files", ("feb.trf", event.read_bytes().replace(b"jan", b"feb"), "text/plain"))]
    answer = client.post(address, data=data, files=files if address == "/events" else None)
    assert answer.status_code == 403
    assert "the form is not one this desk gave" in said(answer.text)
    assert dump(db) == before
    assert sorted((tmp_path / "r.sqlite.inbox").rglob("*")) == inbox
    assert not (tmp_path / "out").exists()


def test_every_get_of_the_contract_changes_nothing(tmp_path: Path) -> None:
    db, client, _ = _desk_with_jan(tmp_path)
    before = dump(db)
    for address in ["/", "/events", "/publish/2026-02", "/players?name=a", "/players/11",
                    "/backups", "/lists/2026-02/standard/list.csv"]:  # fmt: skip
        assert client.get(address).status_code in (200, 404), address
    assert dump(db) == before
    assert not (tmp_path / "out").exists()


def test_a_non_loopback_host_without_a_token_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RatingBatchError, match=r"--host 0\.0\.0\.0: other machines could reach"):
        Guard("0.0.0.0")
    db, _ = january(tmp_path)
    code, _, err = run("serve", "--host", "192.168.1.5", "--db", db)
    assert code == 1
    assert err == (
        "Error: --host 192.168.1.5: other machines could reach the desk; give --token TEXT "
        "(or $RATING_BATCH_TOKEN), or leave --host at 127.0.0.1\n"
    )


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.0.2"])
def test_loopback_hosts_need_no_token(host: str) -> None:
    assert Guard(host).token is None


def test_a_request_naming_another_host_is_refused(tmp_path: Path) -> None:
    db, _ = january(tmp_path)
    client = desk(db, tmp_path / "out")
    answer = client.get("/", headers={"Host": "rebind.example:8765"})
    assert answer.status_code == 400
    assert "this desk answers only to 127.0.0.1 or localhost" in said(answer.text)
    assert client.get("/", headers={"Host": "localhost:8765"}).status_code == 200
    # Without a token there is nothing to sign in to.
    assert client.get("/login", follow_redirects=False).headers["location"] == "/"


def test_with_a_token_every_request_signs_in_first(tmp_path: Path) -> None:
    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out", token="s3cret-desk")
    first = client.get("/events", follow_redirects=False)
    assert first.status_code == 303 and first.headers["location"] == "/login"
    before = dump(db)
    assert client.post("/events/jan/remove", data={}).status_code == 403
    form = client.get("/login")
    assert form.status_code == 401 and 'name="token"' in form.text
    token = csrf(client, "/login")
    wrong = client.post("/login", data={"csrf": token, "token": "guess"})
    assert wrong.status_code == 403
    assert dump(db) == before
    signed = client.post("/login", data={"csrf": token, "token": "s3cret-desk"},
                         follow_redirects=False)  # fmt: skip
    assert signed.status_code == 303
    assert "s3cret-desk" not in signed.headers["set-cookie"]
    assert COOKIE in client.cookies
    page = client.get("/events")
    assert page.status_code == 200 and "s3cret-desk" not in page.text
    assert send(client, event).status_code == 200
    # The field given before signing in (any visitor can read it) is no signed-in form's.
    before = dump(db)
    stale = client.post("/events/jan/remove", data={"csrf": token})
    assert stale.status_code == 403 and dump(db) == before
    # Another browser, without the cookie, is still asked to sign in.
    other = TestClient(client.app, base_url=BASE)
    assert other.get("/", follow_redirects=False).status_code == 303


def test_pages_forbid_frames_and_scripts(tmp_path: Path) -> None:
    db, _ = january(tmp_path)
    answer = desk(db, tmp_path / "out").get("/")
    policy = answer.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "script-src" not in policy
    assert "default-src 'none'" in policy


def test_an_unknown_page_and_a_wrong_method_are_pages_with_a_way_back(tmp_path: Path) -> None:
    db, _ = january(tmp_path)
    client = desk(db, tmp_path / "out")
    missing = client.get("/nowhere")
    assert missing.status_code == 404 and "no page '/nowhere' on this desk" in said(missing.text)
    assert client.get("/restore").status_code == 405
    assert 'href="/"' in missing.text


def test_a_bug_or_a_refusal_of_the_machine_is_a_page_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from rating_batch import monthly

    db, _ = january(tmp_path)
    client = TestClient(desk(db, tmp_path / "out").app, base_url=BASE,
                        raise_server_exceptions=False)  # fmt: skip

    def failing(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(monthly, "database_overview", failing)
    bug = client.get("/")
    assert bug.status_code == 500
    assert "the desk met an error it does not know" in said(bug.text)
    assert "Traceback" not in bug.text and "ZeroDivisionError" not in bug.text

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "out"))

    monkeypatch.setattr(monthly, "database_overview", full)
    refused = client.get("/")
    assert refused.status_code == 500
    assert f"{tmp_path / 'out'}: No space left on device (disk full: nothing was changed)" in said(
        refused.text
    )
