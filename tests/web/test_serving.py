"""``rating-batch serve`` as a real process: the address printed, the pages served, Ctrl-C
ends it cleanly, the token never printed (rating_batch/web/serving.py, cli/desk.py)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from db_helpers import COMMAND, run
from desk_helpers import january

#: Left out of ``make test-fast`` (a real server process).
pytestmark = pytest.mark.slow


@contextlib.contextmanager
def _serving(
    db: Path, *options: str, env: dict[str, str] | None = None
) -> Iterator[subprocess.Popen[str]]:
    """``serve`` on a free port; killed if the block leaves it running."""
    desk = subprocess.Popen(
        [*COMMAND, "serve", "--db", str(db), "--port", "0", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    try:
        yield desk
    finally:
        if desk.poll() is None:
            desk.kill()
            desk.wait()


def _interrupted(desk: subprocess.Popen[str]) -> tuple[str, str]:
    """Ctrl-C, then what it printed afterwards (stdout, stderr)."""
    desk.send_signal(signal.SIGINT)
    return desk.communicate(timeout=60)


def test_serve_prints_its_address_serves_and_ends_on_ctrl_c(tmp_path: Path) -> None:
    db, _ = january(tmp_path)
    with _serving(db, "--out", str(tmp_path / "out")) as desk:
        assert desk.stdout is not None
        line = desk.stdout.readline()
        prefix = f"the desk of {db} is at http://127.0.0.1:"
        assert line.startswith(prefix) and line.endswith("/ (Ctrl-C ends it)\n"), line
        address = line[len("the desk of ") + len(str(db)) + len(" is at ") :].split(" ")[0]
        with urllib.request.urlopen(address) as answer:
            assert answer.status == 200
            assert "<dt>Initial list</dt><dd>2026-01</dd>" in answer.read().decode("utf-8")
        printed, errors = _interrupted(desk)
    assert desk.returncode == 0, errors
    assert printed == "the desk is closed\n"
    assert "Traceback" not in errors


def test_the_token_is_never_printed(tmp_path: Path) -> None:
    db, _ = january(tmp_path)
    token = "s3cret-desk-token-42"
    with _serving(db, "--host", "0.0.0.0", env={"RATING_BATCH_TOKEN": token}) as desk:
        assert desk.stdout is not None
        line = desk.stdout.readline()
        assert line.startswith(f"the desk of {db} is at http://0.0.0.0:")
        printed, errors = _interrupted(desk)
    assert token not in line + printed + errors


def test_serve_without_a_database_offers_to_make_one(tmp_path: Path) -> None:
    """No database at --db: the desk starts, says so, and its first page makes one; nothing
    is made until the officer sends a list."""
    db = tmp_path / "none.sqlite"
    with _serving(db) as desk:
        assert desk.stdout is not None
        first = desk.stdout.readline()
        assert first == (
            f"no rating database at {db} yet: the desk's first page makes it from a rating list\n"
        )
        line = desk.stdout.readline()
        address = line[len("the desk of ") + len(str(db)) + len(" is at ") :].split(" ")[0]
        with urllib.request.urlopen(address) as answer:
            page = answer.read().decode("utf-8")
        assert '<form method="post" action="/init" enctype="multipart/form-data">' in page
        with urllib.request.urlopen(address + "events") as answer:  # leads to the first page
            assert answer.geturl() == address
        _interrupted(desk)
    assert not db.exists()


def test_serve_refuses_a_file_that_is_no_database(tmp_path: Path) -> None:
    db = tmp_path / "notes.sqlite"
    db.write_text("my notes", encoding="utf-8")
    code, _, err = run("serve", "--db", db)
    assert code == 1
    assert err.startswith(f"Error: {db}")
    assert db.read_text(encoding="utf-8") == "my notes"


@pytest.mark.parametrize("inside", [".backups", ".files/site"])
def test_serve_refuses_an_out_inside_the_databases_folders(inside: str, tmp_path: Path) -> None:
    """Said before the officer works, not at the first publish: rating_batch removes from
    those folders what it does not name."""
    db, _ = january(tmp_path)
    out = tmp_path / f"{db.name}{inside}"
    refused = subprocess.run(
        [*COMMAND, "serve", "--db", str(db), "--port", "0", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 1
    assert refused.stderr.startswith(f"Error: --out {out} is")
    assert "of the database" in refused.stderr and "choose a folder of your own" in refused.stderr
    assert not out.exists()
