"""The files a publish wrote, kept beside the database (``<db>.files/``), not in it.

A published file never changes, so it is kept once, by the SHA-256 of its bytes
(``<db>.files/ab/ab…`` as written, ``ab…​.z`` deflated), and the database's
``published_files`` rows name it. Each is written to a temporary file, synced and renamed: a
file of that name is always whole. A second, real copy of each (never a second name for the
same file: a change in place, bit rot or ``chmod``, would hit both) is kept in
``<db>.backups/files/``, so a damaged or missing one is read from the other, and the backups
folder alone holds everything a whole copy of the database names.

The files a command creates are listed, as it creates them (by every process it forks), in
``.partial/<pid>.new`` in the files folder: a command that fails removes them (they are its
own, and no stored row names them), one that commits forgets the list, and the next command
removes those of a command that was killed before its commit, with its temporary files.
Reading checks the SHA-256.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import uuid
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from rating_batch.errors import RatingBatchError
from rating_batch.portable import alive, replace

log = logging.getLogger(__name__)

#: Files kept as they are (already compressed): everything else is deflated.
STORED_AS_IS = (".xlsx", ".zip")

#: The folder (inside each of the two folders) of temporary files and of the lists of files
#: created by a command under way.
PARTIAL = ".partial"


def kept_name(digest: str, compressed: bool) -> str:
    """Where a kept file lies within each folder."""
    return f"{digest[:2]}/{digest}{'.z' if compressed else ''}"


@dataclass(frozen=True)
class FileStore:
    """The published files of one database: ``folder`` and its second copy ``spare``;
    ``command``: the process id of the command whose new files are listed."""

    folder: Path
    spare: Path
    command: int
    _said: set[str] = field(default_factory=set, compare=False, repr=False)
    """The folders found missing and said so (once each)."""

    @property
    def roots(self) -> tuple[Path, Path]:
        """The two folders, the first copies' first."""
        return self.folder, self.spare

    @property
    def _new_list(self) -> Path:
        return self.folder / PARTIAL / f"{self.command}.new"

    def put(self, path: str, data: bytes) -> tuple[str, bool]:
        """Keep ``data`` (a published file at ``path``); its digest and whether it is kept
        deflated. Anything that cannot be written is an error naming the folder."""
        digest = hashlib.sha256(data).hexdigest()
        compressed = not path.endswith(STORED_AS_IS)
        self._store(
            path, digest, compressed, lambda: zlib.compress(data, 1) if compressed else data
        )
        return digest, compressed

    def keep(self, path: str, where: Path) -> tuple[str, bool, int]:
        """``put`` of the file lying at ``where``, read a chunk at a time (``KEEP_CHUNK``):
        its digest, whether it is kept deflated, and its size. The file is never whole in
        memory (the 10^6 month's games.csv is 141 MB): digested as it is read, then, unless
        kept already, deflated as it is read again."""
        compressed = not path.endswith(STORED_AS_IS)
        digest = hashlib.sha256()
        size = _read_back(path, where, digest.update)
        self._store(
            path, digest.hexdigest(), compressed, lambda: _kept_bytes(path, where, compressed)
        )
        return digest.hexdigest(), compressed, size

    def _store(self, path: str, digest: str, compressed: bool, blob: Callable[[], bytes]) -> None:
        """The file of ``digest`` written into each folder that lacks it, its bytes (``blob``,
        deflated when ``compressed``) made once, only when one does."""
        name = kept_name(digest, compressed)
        made: bytes | None = None
        try:
            for mark, root in (("f", self.folder), ("s", self.spare)):
                if (root / name).is_file():
                    continue
                made = made if made is not None else blob()
                self._note(f"{mark} {name}")
                _write_whole(root, name, made)
        except OSError as error:
            raise RatingBatchError(
                f"{(self.folder / name).parent}: cannot keep the published file {path} "
                f"({error.strerror}); nothing was changed"
            ) from None

    def _note(self, line: str) -> None:
        """A file about to be created, listed first (a kill between the two leaves a line
        without its file, which is harmless)."""
        self._new_list.parent.mkdir(parents=True, exist_ok=True)
        with self._new_list.open("a", encoding="utf-8") as listing:
            listing.write(line + "\n")

    def get(self, digest: str, compressed: bool) -> bytes:
        """A kept file's bytes, checked against its digest: from the files folder, else from
        its copy in the backups folder. A copy found missing or damaged is written again
        from the other, and said (a warning)."""
        name = kept_name(digest, compressed)
        tried: list[tuple[Path, str]] = []
        for root in (self.folder, self.spare):
            place = root / name
            stored, data, why = _read_checked(place, digest, compressed)
            if stored is None or data is None:
                tried.append((place, why))
                continue
            if root == self.folder and not (self.spare / name).is_file():
                tried.append((self.spare / name, "missing"))
            self._mend(name, stored, tried, place)
            return data
        raise RatingBatchError(_lost(tried))

    def _mend(self, name: str, stored: bytes, bad: list[tuple[Path, str]], good: Path) -> None:
        """The copies in ``bad`` written again from ``good`` (``stored``: its bytes), each
        said once: a whole folder gone is one warning, not one per file."""
        for place, why in bad:
            root = self.folder if place == self.folder / name else self.spare
            gone = not root.is_dir() or str(root) in self._said
            try:
                _write_whole(root, name, stored)
                done = f"written again from its other copy {good}"
            except OSError as error:
                done = f"it could not be written again from {good} ({error.strerror})"
            if not gone:
                log.warning(f"{place}: warning: {why}; {done}")
            elif str(root) not in self._said:
                self._said.add(str(root))
                log.warning(
                    f"{root}: warning: the folder of the published files' "
                    f"{'first' if root == self.folder else 'second'} copies is missing; each "
                    "file read is written into it again from its other copy"
                )

    def whole(self, digest: str, compressed: bool) -> bool:
        """Whether either copy of a kept file is there (not read)."""
        name = kept_name(digest, compressed)
        return (self.folder / name).is_file() or (self.spare / name).is_file()

    def forget_new(self) -> None:
        """The command committed: its new files are named by stored rows."""
        with contextlib.suppress(OSError):
            self._new_list.unlink(missing_ok=True)

    def discard_new(self) -> None:
        """The command failed: remove the files it created (no stored row names them)."""
        _discard(self, self._new_list, lambda names: set())

    def sweep(self, referenced: Callable[[], set[str]]) -> None:
        """Remove what commands that were killed left: their temporary files, and the files
        they created that no stored row names (``referenced``: the kept names the database
        names, asked for only when there is something to check)."""
        for root in (self.folder, self.spare):
            for leftover in _stale(root / PARTIAL, r"(\d+)-[0-9a-f]+\.tmp"):
                with contextlib.suppress(OSError):
                    leftover.unlink()
        lists = list(_stale(self.folder / PARTIAL, r"(\d+)\.new"))
        if lists:
            names = referenced()
            for listing in lists:
                _discard(self, listing, lambda _: names)

    def check_both(self, names: Iterable[tuple[str, bool]]) -> Checked:
        """Both copies of every kept file (digest, deflated) read and checked against its
        digest: a copy missing, damaged, or the same file as the other (a hard link made by
        versions before schema 8) written again from the good one; a file whose two copies
        are both bad left as it is and said. Every byte is read: about what a publish of
        every list took to write (docs/undo.md §5)."""
        checked = Checked()
        gone = {root for root in self.roots if not root.is_dir()}
        one_folder = not gone and _same_file(self.folder, self.spare)
        if one_folder:
            # A link where the second copies' folder was: writing "again" through it would
            # write onto the first copies, every run, and leave one copy.
            checked.failed.append(
                (self.spare, f"is the folder of the first copies under another name (a link to "
                 f"{self.folder}): the published files have no second copy; put a folder of "
                 "its own in its place, then run backup again")
            )  # fmt: skip
        for digest, compressed in names:
            checked.files += 1
            name = kept_name(digest, compressed)
            found = [(root, *_read_checked(root / name, digest, compressed)) for root in self.roots]
            good = [(root, stored) for root, stored, _, _ in found if stored is not None]
            if not good:
                tried = [(root / name, why) for root, _, _, why in found]
                checked.lost.append((digest, self.folder / name, _lost(tried)))
                continue
            if one_folder:
                continue  # nowhere to write a second copy
            source, stored = good[0]
            bad = [(root, why) for root, kept, _, why in found if kept is None]
            if len(good) == 2 and _same_file(self.folder / name, self.spare / name):
                # A second name of the first (a hard link of versions before schema 8, or a
                # link made by hand): the name that is a link is made a file of its own.
                linked = [root for root in self.roots if (root / name).is_symlink()]
                bad = [((linked or [self.spare])[0], "")]
            for root, why in bad:
                try:
                    _write_whole(root, name, stored)
                except OSError as error:
                    checked.failed.append(
                        (root / name, f"cannot be written again from its other copy "
                         f"{source / name} ({error.strerror})")
                    )  # fmt: skip
                    continue
                if _same_file(self.folder / name, self.spare / name):
                    checked.failed.append(
                        (root / name, "is still the other copy under another name (a link in "
                         "the folders above it?): the published file has no second copy")
                    )  # fmt: skip
                    continue
                checked.written += 1
                if why and root not in gone:
                    checked.mended.append(
                        (root / name, f"{why}; written again from its other copy {source / name}")
                    )
        # A folder missing whole is said once, not once a file.
        checked.mended[:0] = [
            (root, f"the folder of the published files' {which} copies was missing; every file "
             "written into it again from its other copy")
            for root, which in zip(self.roots, ("first", "second"), strict=True)
            if root in gone and checked.written
        ]  # fmt: skip
        return checked


@dataclass
class Checked:
    """What ``check_both`` found: how many files it checked and copies it wrote again, the
    copies it mended (place, what was wrong and done; a folder missing whole once), the
    files lost from both copies (digest, the first copy's place, a message each), and the
    copies it could not make whole (place, why: a copy that cannot be written, a folder
    that is the other one through a link)."""

    files: int = 0
    written: int = 0
    mended: list[tuple[Path, str]] = field(default_factory=list)
    lost: list[tuple[str, Path, str]] = field(default_factory=list)
    failed: list[tuple[Path, str]] = field(default_factory=list)


#: A kept copy read: its bytes as stored and the bytes published; or why not (None, None, why).
Read = tuple[bytes, bytes, str] | tuple[None, None, str]


def _read_checked(place: Path, digest: str, compressed: bool) -> Read:
    """A kept copy's bytes as stored and as published, checked against the digest; None,
    and why, when it is missing, cannot be read or holds other bytes."""
    try:
        stored = place.read_bytes()
    except FileNotFoundError:
        return None, None, "missing"
    except OSError as error:
        return None, None, f"cannot be read: {error.strerror}"
    try:
        data = zlib.decompress(stored) if compressed else stored
    except zlib.error:
        data = b""
    if hashlib.sha256(data).hexdigest() != digest:
        return None, None, "damaged: not the bytes published"
    return stored, data, ""


def _same_file(first: Path, second: Path) -> bool:
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


#: How a file lost from both its copies is said (``backup`` counts them by it).
LOST = "a published file cannot be read from either of its two copies"


def _lost(tried: list[tuple[Path, str]]) -> str:
    shown = "; ".join(f"{place} ({why})" for place, why in tried)
    return f"{LOST}: {shown}. Put back the folders beside the database from your own copies of them"


#: Bytes of a written file read at a time to keep it (``FileStore.keep``).
KEEP_CHUNK = 1 << 22


def _read_back(path: str, where: Path, take: Callable[[bytes], object]) -> int:
    """The file at ``where`` (the published file ``path``) given to ``take`` a chunk at a
    time (``KEEP_CHUNK``); its size."""
    size = 0
    try:
        with where.open("rb") as handle:
            while chunk := handle.read(KEEP_CHUNK):
                take(chunk)
                size += len(chunk)
    except OSError as error:
        raise RatingBatchError(
            f"{where}: cannot read the published file {path} back ({error.strerror}); "
            "nothing was changed"
        ) from None
    return size


def _kept_bytes(path: str, where: Path, compressed: bool) -> bytes:
    """The bytes kept of the file at ``where``: deflated (level 1) as it is read, when
    ``compressed``, else as they are."""
    deflate = zlib.compressobj(1) if compressed else None
    parts: list[bytes] = []
    _read_back(
        path, where, lambda chunk: parts.append(deflate.compress(chunk) if deflate else chunk)
    )
    return b"".join([*parts, deflate.flush()] if deflate else parts)


def _write_whole(root: Path, name: str, data: bytes) -> None:
    """``data`` at ``root/name``: written to a temporary file in ``root/.partial``, synced,
    renamed."""
    final = root / name
    final.parent.mkdir(parents=True, exist_ok=True)
    partial = root / PARTIAL
    partial.mkdir(exist_ok=True)
    temporary = partial / f"{os.getpid()}-{uuid.uuid4().hex[:12]}.tmp"
    try:
        with temporary.open("wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        replace(temporary, final)
    finally:
        temporary.unlink(missing_ok=True)


def _stale(folder: Path, pattern: str) -> Iterable[Path]:
    """The files of ``folder`` named by ``pattern`` whose process (its first group) is gone."""
    if not folder.is_dir():
        return []
    found = []
    for path in folder.iterdir():
        match = re.fullmatch(pattern, path.name)
        if match is not None and not alive(int(match[1])):
            found.append(path)
    return found


def _discard(store: FileStore, listing: Path, keep: Callable[[set[str]], set[str]]) -> None:
    """Remove the files ``listing`` names, but those ``keep`` says stored rows name; then the
    listing, and the folders left empty."""
    try:
        lines = listing.read_text(encoding="utf-8").splitlines()
    except OSError:
        return
    names = {line[2:] for line in lines if line[:2] in ("f ", "s ")}
    kept = keep(names)
    for line in lines:
        mark, _, name = line.partition(" ")
        root = {"f": store.folder, "s": store.spare}.get(mark)
        if (
            root is None
            or name in kept
            or not re.fullmatch(r"[0-9a-f]{2}/[0-9a-f]{64}(\.z)?", name)
        ):
            continue
        with contextlib.suppress(OSError):
            (root / name).unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            (root / name).parent.rmdir()  # only when empty
    with contextlib.suppress(OSError):
        listing.unlink(missing_ok=True)
    for empty in (
        store.folder / PARTIAL, store.folder, store.spare / PARTIAL, store.spare,
        store.spare.parent,
    ):  # fmt: skip
        with contextlib.suppress(OSError):
            empty.rmdir()  # only when empty
