"""Who may use the desk, and what a request may do (rating_batch/web/security.py,
spec/desk.md §1): csrf on every POST, GET never writes, the Host checked, the token."""

from __future__ import annotations

import re
import time
import urllib.request
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
    ("/events", {"checked": "0" * 64}),
    ("/events/jan/remove", {}),
    ("/publish/2026-02", {}),
    ("/unpublish/2026-02", {}),
    ("/restore", {"backup": "latest"}),
    ("/backup", {"after_publish": "1"}),
    ("/site", {}),
]
#: A token long enough for a desk open to other machines (``security.MIN_TOKEN``).
TOKEN = "s3cret-desk-token-42"


def _desk_with_jan(tmp_path: Path) -> tuple[Path, TestClient, Path]:
    db, event = january(tmp_path)
    client = desk(db, tmp_path / "out")
    assert send(client, event).status_code == 200
    return db, client, event


@pytest.mark.parametrize(("address", "fields"), POSTS, ids=[f"{a}{sorted(f)}" for a, f in POSTS])
@pytest.mark.parametrize("given", [None, "0" * 64], ids=["no-csrf", "wrong-csrf"])
def test_a_post_without_the_right_csrf_is_403_and_changes_nothing(
    tmp_path: Path, address: str, fields: dict[str, str], given: str | None
) -> None:
    db, client, event = _desk_with_jan(tmp_path)
    before, inbox = dump(db), sorted((tmp_path / "r.sqlite.inbox").rglob("*"))
    every = sorted(p for p in tmp_path.rglob("*") if "-wal" not in p.name and "-shm" not in p.name)
    data = {**fields, **({} if given is None else {"csrf": given})}
    files = [("files", ("feb.trf", event.read_bytes().replace(b"jan", b"feb"), "text/plain"))]
    answer = client.post(address, data=data, files=files if address == "/events" else None)
    assert answer.status_code == 403
    assert "the form is not one this desk gave" in said(answer.text)
    assert dump(db) == before
    assert sorted((tmp_path / "r.sqlite.inbox").rglob("*")) == inbox
    assert not (tmp_path / "out").exists()
    assert (
        sorted(p for p in tmp_path.rglob("*") if "-wal" not in p.name and "-shm" not in p.name)
        == every
    )


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
        "Error: --host 192.168.1.5: other machines could reach the desk; give a token in "
        "$RATING_BATCH_TOKEN or a file (--token-file FILE), or leave --host at 127.0.0.1\n"
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
    client = desk(db, tmp_path / "out", token=TOKEN)
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
    signed = client.post("/login", data={"csrf": token, "token": TOKEN},
                         follow_redirects=False)  # fmt: skip
    assert signed.status_code == 303
    assert TOKEN not in signed.headers["set-cookie"]
    assert COOKIE in client.cookies
    page = client.get("/events")
    assert page.status_code == 200 and TOKEN not in page.text
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
    # Said as the commands say it, without the server's folders.
    assert "out: No space left on device (disk full: nothing was changed)" in said(refused.text)
    assert str(tmp_path) not in refused.text


def _raw_post(client: TestClient, path: str, body: bytes, headers: dict[str, str]):
    return client.post(path, content=body, headers=headers)


def test_a_post_over_its_routes_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """R4-04: a body declared larger than the route takes is answered 413 at once; none of it
    is read (the body would raise here), nothing is written."""
    db, client, _ = _desk_with_jan(tmp_path)
    before = dump(db)

    def endless():  # would fill the disk if it were read
        yield b'--x\r\nContent-Disposition: form-data; name="files"; filename="a.trf"\r\n\r\n'
        raise AssertionError("the desk read the body of a request over its limit")

    answer = client.post(
        "/events",
        content=endless(),
        headers={"Content-Type": "multipart/form-data; boundary=x",
                 "Content-Length": str(200 * 1024**3)},
    )  # fmt: skip
    assert answer.status_code == 413
    assert "over the" in said(answer.text) and "nothing was read or done" in said(answer.text)
    assert dump(db) == before
    assert not any((tmp_path / "r.sqlite.inbox").glob(".incoming-*"))
    # A small form route takes no more than a form's worth either.
    assert client.post("/restore", content=b"x" * 10, headers={
        "Content-Type": "application/x-www-form-urlencoded", "Content-Length": str(10**7)
    }).status_code == 413  # fmt: skip


def _streamed(address: str, csrf_field: str | None, chunks: int, *, during=None, head=None):
    """POST /events over a real socket: the csrf field (if any), then a file part of
    ``chunks`` MiB sent a MiB at a time while the desk has not answered; ``during`` is
    called after each MiB sent. The status line, and the MiB sent before the answer."""
    import select
    import socket as sockets
    from urllib.parse import urlsplit

    where = urlsplit(address)
    head_part, head = head, b""
    if csrf_field is not None:
        head += (b'--x\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n'
                 + csrf_field.encode() + b"\r\n")  # fmt: skip
    head += head_part or (
        b'--x\r\nContent-Disposition: form-data; name="files"; filename="a.trf"\r\n\r\n'
    )
    tail = b"\r\n--x--\r\n"
    size = len(head) + chunks * 1024 * 1024 + len(tail)
    sent = 0
    with sockets.create_connection((where.hostname, where.port), timeout=30) as connection:
        connection.sendall(
            f"POST /events HTTP/1.1\r\nHost: {where.netloc}\r\nContent-Type: multipart/form-data;"
            f" boundary=x\r\nContent-Length: {size}\r\n\r\n".encode()
            + head
        )
        for _ in range(chunks):
            if select.select([connection], [], [], 0)[0]:
                break  # answered already
            try:
                connection.sendall(b"0" * (1024 * 1024))
            except OSError:
                break  # the desk closed the connection: it reads no more
            sent += 1
            if during is not None:
                during()
        else:
            connection.sendall(tail)
        answer = connection.recv(4096).split(b"\r\n", 1)[0].decode()
    return answer, sent


@pytest.mark.slow
def test_a_file_part_before_the_csrf_field_is_refused_unread(tmp_path: Path) -> None:
    """R4-04: the csrf field comes first in the desk's forms; a file part without it stops
    the reading at its headers: the desk answers 403 long before the body is sent, and not a
    byte of it is written."""
    from desk_helpers import serving

    db, _ = january(tmp_path)
    before = dump(db)
    with serving(db, tmp_path / "out") as address:
        answer, sent = _streamed(address, None, 256)
    assert answer == "HTTP/1.1 403 Forbidden"
    assert sent < 256  # the desk answered without reading the 256 MiB
    assert dump(db) == before
    assert list((tmp_path / "r.sqlite.inbox").rglob("*")) == []


@pytest.mark.slow
def test_an_upload_is_streamed_to_disk_not_held_in_memory(tmp_path: Path) -> None:
    """R4-05: a file's bytes are on disk (in the database's inbox folder) while it is still
    being sent: the desk holds no file whole in memory."""
    from desk_helpers import serving

    db, _ = january(tmp_path)
    on_disk = []

    def look() -> None:
        time.sleep(0.05)
        on_disk.append(sum(p.stat().st_size for p in (tmp_path / "r.sqlite.inbox").glob(
            ".incoming-*/*")))  # fmt: skip

    with serving(db, tmp_path / "out") as address:
        page = urllib.request.urlopen(f"{address}/events").read().decode()
        token = re.search(r'name="csrf" value="([^"]+)"', page)[1]
        answer, sent = _streamed(address, token, 24, during=look)
    assert sent == 24
    assert answer.startswith("HTTP/1.1 400")  # 24 MiB of zeros: not a tournament file
    # Half-way through the sending, megabytes of the file were on disk already.
    assert on_disk[12] >= 4 * 1024 * 1024, on_disk
    assert list((tmp_path / "r.sqlite.inbox").rglob("*")) == []  # refused: nothing kept


@pytest.mark.parametrize(
    "headers",
    [{"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"},
     {"Sec-Fetch-Site": "same-site", "Origin": "http://127.0.0.1:9999"}],
    ids=["origin", "cross-site", "same-site-other-port"],
)  # fmt: skip
def test_a_form_sent_by_another_sites_page_is_refused(
    tmp_path: Path, headers: dict[str, str]
) -> None:
    db, client, _ = _desk_with_jan(tmp_path)
    before = dump(db)
    answer = client.post("/restore", data={"csrf": csrf(client), "backup": "latest"},
                         headers=headers)  # fmt: skip
    assert answer.status_code == 403
    assert "sent by another web site's page: nothing was done" in said(answer.text)
    assert dump(db) == before
    # The desk's own page (as Chromium sends it under no-referrer: Origin null).
    own = client.post("/restore", data={"csrf": csrf(client), "backup": "latest"},
                      headers={"Origin": "null", "Sec-Fetch-Site": "same-origin"})  # fmt: skip
    assert own.status_code == 200
    assert dump(db) != before


def test_a_short_token_is_refused_and_the_token_option_would_show_it(tmp_path: Path) -> None:
    with pytest.raises(RatingBatchError, match=r"the token has 5 characters \(5 different\)"):
        Guard("0.0.0.0", "short")
    with pytest.raises(RatingBatchError, match=r"has 20 characters \(1 different\)"):
        Guard("0.0.0.0", "a" * 20)
    db, _ = january(tmp_path)
    code, out, err = run("serve", "--host", "0.0.0.0", "--token", TOKEN, "--db", db)
    assert code == 1 and TOKEN not in out + err
    assert "--token would show the token to every user of this machine" in err
    assert "--token-file FILE" in err


def test_wrong_tokens_are_answered_slowly_one_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R4-07: every wrong token waits LOGIN_DELAY before its answer; the right one does not."""
    import time

    from rating_batch.web import security

    monkeypatch.setattr(security, "LOGIN_DELAY", 0.3)
    db, _ = january(tmp_path)
    client = desk(db, tmp_path / "out", token=TOKEN)
    token = csrf(client, "/login")
    started = time.monotonic()
    for guess in ("a" * 16, "b" * 16, "c" * 16):
        assert client.post("/login", data={"csrf": token, "token": guess}).status_code == 403
    assert time.monotonic() - started >= 0.9
    started = time.monotonic()
    right = client.post("/login", data={"csrf": token, "token": TOKEN}, follow_redirects=False)
    assert right.status_code == 303 and time.monotonic() - started < 0.3


def test_names_sent_are_shown_with_their_hidden_characters_visible(tmp_path: Path) -> None:
    """R4-19: a bidi control in a sent file's name is shown as its code point, never obeyed."""
    db, _ = january(tmp_path)
    client = desk(db, tmp_path / "out")
    name = "\u202egpj.trf"
    files = [("files", (name, b"not a tournament", "text/plain"))]
    answer = client.post("/events", data={"csrf": csrf(client), "check": "1"}, files=files)
    assert answer.status_code == 400
    assert "\u202e" not in answer.text
    assert "<U+202E>gpj.trf" in said(answer.text)


def test_error_pages_show_no_folder_of_the_server(tmp_path: Path) -> None:
    """R4-19: a restore point naming a server path, and an event of a file given by its
    path, are told without the server's folders."""
    db, event = january(tmp_path)
    code, _, err = run("add", event, "--db", db)
    assert code == 0, err
    client = desk(db, tmp_path / "out")
    answer = client.post("/restore", data={"csrf": csrf(client), "backup": "/etc/passwd"})
    assert answer.status_code == 400
    asked = client.get("/events/jan/remove")
    for page in (answer.text, asked.text):
        assert str(tmp_path) not in page and "/etc/" not in page
    assert "file jan.trf" in said(asked.text)


@pytest.mark.slow
def test_guesses_sent_at_once_are_told_one_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Attack on the desk: wrong tokens sent in parallel were each delayed, but the right one
    beside them was told at once, so guessing went as fast as connections. Every sign-in now
    waits its turn; past MAX_WAITING waiting, one is refused (429) without a look."""
    from concurrent.futures import ThreadPoolExecutor

    import httpx2 as httpx
    from desk_helpers import serving

    from rating_batch.web import security

    monkeypatch.setattr(security, "LOGIN_DELAY", 0.5)
    db, _ = january(tmp_path)
    with serving(db, tmp_path / "out", token=TOKEN) as address:
        with httpx.Client(base_url=address) as client:
            form = client.get("/login").text
        token = re.search(r'name="csrf" value="([^"]+)"', form)[1]

        def sign_in(given: str) -> tuple[int, float]:
            started = time.monotonic()
            answer = httpx.post(f"{address}/login", data={"csrf": token, "token": given},
                                timeout=30)  # fmt: skip
            return answer.status_code, time.monotonic() - started

        with ThreadPoolExecutor(8) as pool:
            wrong = [pool.submit(sign_in, f"wrong-guess-{n:04d}xyz") for n in range(3)]
            time.sleep(0.2)  # the three are waiting their turns
            right = pool.submit(sign_in, TOKEN).result()
            told = [future.result() for future in wrong]
            crowd = list(pool.map(sign_in, [f"crowd-guess-{n:04d}xyz" for n in range(8)]))
    assert [code for code, _ in told] == [403, 403, 403]
    # The right token waited behind the wrong ones (3 x 0.5 s, less the 0.2 s head start).
    assert right[0] == 303 and right[1] >= 1.2
    codes = sorted(code for code, _ in crowd)
    assert codes.count(429) >= 4 and set(codes) <= {403, 429}


def test_a_form_whose_first_part_is_not_csrf_is_read_no_further(tmp_path: Path) -> None:
    """Attack on the desk: a form without csrf and without a file was read to its end (200 MB
    of trailing bytes) before its 403. The desk's forms put csrf first: any other first part
    stops the reading."""
    from desk_helpers import serving

    db, _ = january(tmp_path)
    before = dump(db)
    field = b'--x\r\nContent-Disposition: form-data; name="backup"\r\n\r\n'
    with serving(db, tmp_path / "out") as address:
        answer, sent = _streamed(address, None, 256, head=field)
    assert answer == "HTTP/1.1 403 Forbidden"
    assert sent < 256
    assert dump(db) == before
