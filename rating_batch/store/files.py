"""The files a publish wrote, kept beside the database (``<db>.files/``), not in it.

A published file never changes, so it is kept once, by the SHA-256 of its bytes
(``<db>.files/ab/ab…`` as written, ``ab…​.z`` deflated), and the database's
``published_files`` rows name it. Written to a temporary file, synced and renamed: a file of
that name is always whole. Each one is also hard-linked into ``<db>.backups/files/`` (copied
where links are not possible), so deleting either folder loses nothing, and the backups folder
alone holds everything a backup of the database names.

This keeps the database small: the backup saved before every command copies the database,
and the published files (most of its bytes, and never changed) are not copied again by every
command. Reading checks the SHA-256: a damaged file is an error naming it (its twin in the
backups folder is used when that one is whole).
"""

from __future__ import annotations

import hashlib
import os
import zlib
from pathlib import Path

from rating_batch.errors import RatingBatchError

#: Files kept as they are (already compressed): everything else is deflated.
STORED_AS_IS = (".xlsx", ".zip")


def files_folder(db: Path) -> Path:
    return Path(f"{db}.files")


def spare_folder(db: Path) -> Path:
    return Path(f"{db}.backups") / "files"


def _name(digest: str, compressed: bool) -> str:
    return f"{digest[:2]}/{digest}{'.z' if compressed else ''}"


def put_file(db: Path, path: str, data: bytes) -> tuple[str, bool]:
    """Keep ``data`` (a published file at ``path``) beside ``db``; its digest and whether it
    is kept deflated. Anything that cannot be written is an error naming the folder."""
    digest = hashlib.sha256(data).hexdigest()
    compressed = not path.endswith(STORED_AS_IS)
    name = _name(digest, compressed)
    final = files_folder(db) / name
    try:
        if not final.is_file():
            _write_whole(final, zlib.compress(data, 1) if compressed else data)
        spare = spare_folder(db) / name
        if not spare.is_file():
            spare.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(final, spare)
            except FileExistsError:
                pass
            except OSError:  # a file system without hard links: a copy
                _write_whole(spare, final.read_bytes())
    except OSError as error:
        raise RatingBatchError(
            f"{final.parent}: cannot keep the published file {path} ({error.strerror}); "
            "nothing was changed"
        ) from None
    return digest, compressed


def keep_file(db: Path, path: str, where: Path) -> tuple[str, bool, int]:
    """``put_file`` of the file lying at ``where``: its digest, whether it is kept deflated,
    and its size."""
    try:
        data = where.read_bytes()
    except OSError as error:
        raise RatingBatchError(
            f"{where}: cannot read the published file {path} back ({error.strerror}); "
            "nothing was changed"
        ) from None
    return (*put_file(db, path, data), len(data))


def _write_whole(final: Path, data: bytes) -> None:
    """``data`` at ``final``: written to a temporary file beside it, synced, renamed."""
    final.parent.mkdir(parents=True, exist_ok=True)
    temporary = final.parent / f".{final.name}.{os.getpid()}.tmp"
    try:
        with temporary.open("wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, final)
    finally:
        temporary.unlink(missing_ok=True)


def get_file(db: Path, digest: str, compressed: bool) -> bytes:
    """A kept file's bytes, checked against its digest: from ``<db>.files``, else from its
    twin in the backups folder."""
    name = _name(digest, compressed)
    tried = []
    for folder in (files_folder(db), spare_folder(db)):
        place = folder / name
        try:
            stored = place.read_bytes()
        except OSError:
            tried.append(f"{place} (missing)")
            continue
        try:
            data = zlib.decompress(stored) if compressed else stored
        except zlib.error:
            data = b""
        if hashlib.sha256(data).hexdigest() == digest:
            return data
        tried.append(f"{place} (damaged: not the bytes published)")
    raise RatingBatchError(
        f"{db}: a published file cannot be read: {'; '.join(tried)}. Put the folder "
        f"{files_folder(db).name} back beside the database (or restore it from your copies)"
    )
