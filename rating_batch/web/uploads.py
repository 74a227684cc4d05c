"""Tournament files sent to the desk (docs/desk.md §3): each kept in the database's folder,
``<db>.inbox/<SHA-256>/<name as sent>``, while it is checked or added, and kept there only
once added (the event's file, as ``add`` records it); never anywhere else. The limits are
the commands' (``loaders.common``: the size here, before anything is written; the zip limits
of an XLSX file in the loaders, as for any file)."""

from __future__ import annotations

import contextlib
import hashlib
import re
import shutil
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from starlette.datastructures import UploadFile

from rating_batch.errors import InputError, Issue
from rating_batch.loaders.common import MAX_EVENT_BYTES
from rating_batch.portable import replace
from rating_batch.web.pages import UserError

#: Files one upload may hold.
MAX_FILES = 100
#: A file name longer than this (in bytes) is refused: file systems keep 255.
MAX_NAME_BYTES = 200
#: What a sent file's name may not hold: control characters and the path separators.
_UNSAFE = re.compile(r"[\x00-\x1f\x7f/\\]")

#: One upload checked or added at a time in this process: two requests sending the same
#: file share its folder, which the first would otherwise remove under the second. Other
#: processes (a command, another desk) wait for the database's own lock, as commands do.
_ONE_AT_A_TIME = threading.Lock()


@dataclass(frozen=True)
class Sent:
    """A file as received: its name as sent (no folder) and its bytes."""

    name: str
    data: bytes


async def received(files: Sequence[object]) -> list[Sent]:
    """The files of the form's ``files`` field, each with a safe name and at most
    ``MAX_EVENT_BYTES``; every problem of every file named at once."""
    uploads = [f for f in files if isinstance(f, UploadFile) and (f.filename or f.size)]
    if not uploads:
        raise UserError("no file was sent: choose one or more tournament files")
    if len(uploads) > MAX_FILES:
        raise UserError(f"{len(uploads)} files sent; at most {MAX_FILES} at once")
    sent, issues = [], []
    for upload in uploads:
        name = Path((upload.filename or "").replace("\\", "/")).name.strip()
        problem = _name_problem(name)
        size = upload.size if upload.size is not None else 0
        if problem is None and size > MAX_EVENT_BYTES:
            problem = f"the file is {size:,} bytes; at most {MAX_EVENT_BYTES:,} are read"
        if problem is not None:
            issues.append(Issue(name or "(a file without a name)", None, problem))
            continue
        data = await upload.read(MAX_EVENT_BYTES + 1)
        if len(data) > MAX_EVENT_BYTES:
            issues.append(Issue(name, None, f"the file is over {MAX_EVENT_BYTES:,} bytes"))
            continue
        sent.append(Sent(name, data))
    if issues:
        raise InputError(issues)
    return sent


def _name_problem(name: str) -> str | None:
    if not name or name in {".", ".."}:
        return "the file has no name: send it from a file on the computer"
    if name.startswith(".") or _UNSAFE.search(name):
        return f"the file name {name!r} cannot be kept: rename the file (no leading dot)"
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:
        return f"the file name is over {MAX_NAME_BYTES} bytes: rename the file"
    return None


@contextlib.contextmanager
def placed(inbox: Path, files: Sequence[Sent], wait: float) -> Iterator[Placed]:
    """The files in the inbox for the block; afterwards those this upload put there are
    removed unless ``keep()`` was called (they were added)."""
    if not _ONE_AT_A_TIME.acquire(timeout=wait):
        raise UserError(
            f"the desk is busy: another upload is being checked or added; waited {wait:g} s, "
            "try again",
            409,
        )
    placing = Placed(inbox)
    try:
        for sent in files:
            placing.put(sent)
        yield placing
    finally:
        try:
            placing.clean()
        finally:
            _ONE_AT_A_TIME.release()


class Placed:
    """Files placed in the inbox, and those of them this upload put there."""

    def __init__(self, inbox: Path) -> None:
        self.inbox = inbox
        self.paths: list[Path] = []
        self._made: list[Path] = []
        self._kept = False

    def put(self, sent: Sent) -> None:
        folder = self.inbox / hashlib.sha256(sent.data).hexdigest()
        path = folder / sent.name
        self.paths.append(path)
        if path.exists():
            return  # the same file under the same name, added before: the add says so
        if not folder.exists():
            folder.mkdir(parents=True)
            self._made.append(folder)
        partial = folder / f".{sent.name}.part"
        partial.write_bytes(sent.data)
        replace(partial, path)

    def keep(self) -> None:
        self._kept = True

    def clean(self) -> None:
        if self._kept:
            return
        for folder in self._made:
            shutil.rmtree(folder, ignore_errors=True)
