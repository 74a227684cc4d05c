"""Tournament files sent to the desk (spec/desk.md §1, §3): streamed to disk as they arrive
(``forms``), then each kept in the database's folder, ``<db>.inbox/<SHA-256>/<name as sent>``,
while it is checked or added. A file added stays there (the event's file, as ``add`` records
it); a file only checked stays for ``CHECKED_HOURS`` so that **Add these files** adds it
without its being sent again (``checked=<digest>``); any other is removed. Never anywhere
else. The limits are the commands' (``loaders.common``: the size here, as the bytes arrive;
the zip limits of an XLSX file in the loaders, as for any file)."""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import re
import shutil
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from rating_batch.errors import InputError, Issue
from rating_batch.portable import replace
from rating_batch.web.forms import Received
from rating_batch.web.pages import UserError

#: A file name longer than this (in bytes) is refused: file systems keep 255.
MAX_NAME_BYTES = 200
#: What a sent file's name may not hold: control characters, the path separators, and the
#: characters Windows keeps out of a file name (the desk may run there).
_UNSAFE = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]')
#: The names Windows reserves for devices, whatever their ending (CON, NUL.trf, COM1 …).
_DEVICE = re.compile(r"(?i)(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?")
#: How long files only checked are kept for **Add these files**.
CHECKED_HOURS = 1
#: In a file's folder, the names of its files checked and not added, a line each.
CHECKED = ".checked"
#: A digest as ``checked`` gives it.
_DIGEST = re.compile(r"[0-9a-f]{64}")

#: One upload checked or added at a time in this process: two requests sending the same
#: file share its folder, which the first would otherwise remove under the second. Other
#: processes (a command, another desk) wait for the database's own lock, as commands do.
_ONE_AT_A_TIME = threading.Lock()


@dataclass(frozen=True)
class Sent:
    """A file to check or add: its name as sent (no folder), its SHA-256, and where its bytes
    are now (streamed in, or kept from a check: ``None`` when they are in the inbox already)."""

    name: str
    digest: str
    path: Path | None


def received(files: Sequence[Received]) -> list[Sent]:
    """The files of the form's ``files`` field, each with a safe name; every problem of
    every file named at once."""
    uploads = list(files)
    if not uploads:
        raise UserError("no file was sent: choose one or more tournament files")
    sent, issues = [], []
    for upload in uploads:
        name = Path(upload.name.replace("\\", "/")).name.strip()
        problem = _name_problem(name)
        if problem is not None:
            issues.append(Issue(name or "(a file without a name)", None, problem))
            continue
        sent.append(Sent(name, upload.digest, upload.path))
    if issues:
        raise InputError(issues)
    return sent


def checked_files(inbox: Path, digests: Sequence[str]) -> list[Sent]:
    """The files a check kept (``checked=<digest>``), as they were sent; a digest whose files
    are no longer kept (added since, or over ``CHECKED_HOURS`` old) is refused by name."""
    sent: list[Sent] = []
    oldest = time.time() - CHECKED_HOURS * 3600
    for digest in dict.fromkeys(digests):
        marker = inbox / digest / CHECKED
        names = _checked_names(marker) if _DIGEST.fullmatch(digest) else []
        kept = [name for name in names if (inbox / digest / name).is_file()]
        if not kept or len(kept) < len(names) or marker.stat().st_mtime < oldest:
            raise UserError(
                "the files checked are no longer kept (added since, or checked over "
                f"{CHECKED_HOURS} hour ago): send them again",
                409,
            )
        sent += [Sent(name, digest, None) for name in kept]
    return sent


def _checked_names(marker: Path) -> list[str]:
    """The names a folder's ``.checked`` file lists (none: no such file)."""
    try:
        return [name for name in marker.read_text(encoding="utf-8").split("\n") if name]
    except OSError:
        return []


def _name_problem(name: str) -> str | None:
    if not name or name in {".", ".."}:
        return "the file has no name: send it from a file on the computer"
    if name.startswith(".") or _UNSAFE.search(name) or _DEVICE.fullmatch(name):
        return (
            f"the file name {name!r} cannot be kept: rename the file (no leading dot, none "
            'of : * ? " < > |)'
        )
    if name.endswith((" ", ".")):
        return f"the file name {name!r} ends in a space or a dot: rename the file"
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:
        return f"the file name is over {MAX_NAME_BYTES} bytes: rename the file"
    return None


@contextlib.contextmanager
def placed(inbox: Path, files: Sequence[Sent], wait: float) -> Iterator[Placed]:
    """The files in the inbox for the block; afterwards those this upload put there are
    removed unless ``keep()`` (they were added) or ``keep_checked()`` was called."""
    if not _ONE_AT_A_TIME.acquire(timeout=wait):
        raise UserError(
            f"the desk is busy: another upload is being checked or added; waited {wait:g} s, "
            "try again",
            409,
        )
    placing = Placed(inbox)
    try:
        prune_checked(inbox)
        for sent in files:
            placing.put(sent)
        yield placing
    finally:
        try:
            placing.clean()
        finally:
            _ONE_AT_A_TIME.release()


def prune_checked(inbox: Path, now: float | None = None) -> None:
    """Remove the files only checked more than ``CHECKED_HOURS`` ago (their folder too when
    it holds nothing added)."""
    deadline = (now or time.time()) - CHECKED_HOURS * 3600
    for incoming in inbox.glob(".incoming-*"):
        # A request's files that no request ended (a desk stopped mid-upload).
        with contextlib.suppress(OSError):
            if incoming.stat().st_mtime < deadline:
                shutil.rmtree(incoming, ignore_errors=True)
    for marker in inbox.glob(f"*/{CHECKED}"):
        with contextlib.suppress(OSError):
            if marker.stat().st_mtime >= deadline:
                continue
            folder = marker.parent
            for name in _checked_names(marker):
                (folder / name).unlink(missing_ok=True)
            marker.unlink()
            if not any(folder.iterdir()):
                folder.rmdir()


class Placed:
    """Files placed in the inbox, and those of them this upload put there."""

    def __init__(self, inbox: Path) -> None:
        self.inbox = inbox
        self.sent: list[Sent] = []
        self._made: list[Path] = []
        self._new_folders: set[Path] = set()
        self._done = False

    @property
    def paths(self) -> list[Path]:
        return [self.inbox / sent.digest / sent.name for sent in self.sent]

    def put(self, sent: Sent) -> None:
        folder = self.inbox / sent.digest
        path = folder / sent.name
        if path in self._paths_of(self.sent):
            return  # sent again beside its copy kept from a check: one file
        self.sent.append(sent)
        if path.exists() or sent.path is None:
            # The same file under the same name, added or checked before: only if it still
            # holds the bytes its folder is named by (a file changed in the inbox is refused).
            if not path.is_file() or _digest(path) != sent.digest:
                raise UserError(
                    f"{sent.name}: the copy the desk keeps has changed or gone since it was "
                    "sent: nothing was done; send the file again",
                    409,
                )
            return
        if not folder.exists():
            folder.mkdir(parents=True)
            self._new_folders.add(folder)
        replace(sent.path, path)
        self._made.append(path)

    def keep(self) -> None:
        """The files were added: they stay, and are no longer only checked (another name of
        the same bytes, only checked, still is)."""
        self._done = True
        for folder in dict.fromkeys(self.inbox / sent.digest for sent in self.sent):
            added = {sent.name for sent in self.sent if self.inbox / sent.digest == folder}
            left = [name for name in _checked_names(folder / CHECKED) if name not in added]
            if left:
                (folder / CHECKED).write_text("\n".join(left) + "\n", encoding="utf-8")
            else:
                (folder / CHECKED).unlink(missing_ok=True)

    def keep_checked(self, only: Sequence[Sent] | None = None) -> None:
        """The files were checked (``only``: those of them found good): kept
        ``CHECKED_HOURS`` for **Add these files**, each in a folder of files only checked (one
        added already is not marked); the others are removed."""
        self._done = True
        kept = list(self.sent if only is None else only)
        self._remove([path for path in self._made if path not in self._paths_of(kept)])
        for folder in dict.fromkeys(self.inbox / sent.digest for sent in kept):
            marker = folder / CHECKED
            if folder not in self._new_folders and not marker.exists():
                self._remove([path for path in self._made if path.parent == folder])
                continue
            names = {sent.name for sent in kept if self.inbox / sent.digest == folder}
            names |= set(_checked_names(marker))
            marker.write_text("\n".join(sorted(names)) + "\n", encoding="utf-8")

    def _paths_of(self, sent: Sequence[Sent]) -> set[Path]:
        return {self.inbox / each.digest / each.name for each in sent}

    def clean(self) -> None:
        if not self._done:
            self._remove(self._made)

    def _remove(self, paths: Sequence[Path]) -> None:
        for path in paths:
            path.unlink(missing_ok=True)
            with contextlib.suppress(OSError):
                if path.parent in self._new_folders and not any(path.parent.iterdir()):
                    path.parent.rmdir()


def _digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def kept_until(inbox: Path, digest: str) -> dt.datetime | None:
    """Until when the files checked under ``digest`` are kept (UTC), if they are."""
    try:
        taken = (inbox / digest / CHECKED).stat().st_mtime
    except OSError:
        return None
    return dt.datetime.fromtimestamp(taken, dt.UTC) + dt.timedelta(hours=CHECKED_HOURS)
