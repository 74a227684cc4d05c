"""Published files kept beside the database (store/files.py): written once by their SHA-256,
with a second, real copy in the backups folder, read back checked; the database keeps their
names only."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from db_helpers import companions, database, dump, event_file, process, query, run

from rating_batch.errors import RatingBatchError


def published(tmp_path: Path) -> tuple[Path, Path]:
    db = database(tmp_path)
    assert run("add", event_file(tmp_path, "open", [(1, 1, 2, "1-0")]), "--db", db)[0] == 0
    out = tmp_path / "out"
    assert run("publish", "2026-02", "--db", db, "--out", out)[0] == 0
    return db, out / "2026-02"


def contents(folder: Path) -> dict[str, bytes]:
    return {
        f.relative_to(folder).as_posix(): f.read_bytes() for f in folder.rglob("*") if f.is_file()
    }


def test_a_publish_keeps_its_files_beside_the_database_and_twins_them(tmp_path: Path) -> None:
    db, period = published(tmp_path)
    rows = query(db, "SELECT path, digest, size FROM published_files ORDER BY path")
    assert [path for path, _, _ in rows] == sorted(contents(period))
    columns = [row[1] for row in query(db, "PRAGMA table_info(published_files)")]
    assert "data" not in columns  # the bytes are not in the database
    kept = sorted(p for p in Path(f"{db}.files").rglob("*") if p.is_file())
    twins = sorted(p for p in (Path(f"{db}.backups") / "files").rglob("*") if p.is_file())
    assert len(kept) == len(rows) and len(twins) == len(rows)
    for mine, twin in zip(kept, twins, strict=True):
        # Two files, not two names of one: a change in place hits one of them only.
        assert mine.name == twin.name and mine.read_bytes() == twin.read_bytes()
        assert mine.stat().st_ino != twin.stat().st_ino and mine.stat().st_nlink == 1
    # Each is named by the SHA-256 of the bytes published.
    import hashlib

    digests = {hashlib.sha256(data).hexdigest() for data in contents(period).values()}
    assert {digest for _, digest, _ in rows} == digests


def test_the_files_are_written_again_from_the_backups_folder_when_theirs_is_gone(
    tmp_path: Path,
) -> None:
    db, period = published(tmp_path)
    first = contents(period)
    shutil.rmtree(Path(f"{db}.files"))
    again = tmp_path / "again"
    code, out, err = run("publish", "2026-02", "--db", db, "--out", again)
    assert code == 0, out + err
    assert contents(again / "2026-02") == first


def test_a_damaged_file_is_read_from_its_twin_and_both_damaged_is_a_message(
    tmp_path: Path,
) -> None:
    db, period = published(tmp_path)
    first = contents(period)
    kept = next(p for p in Path(f"{db}.files").rglob("*") if p.is_file() and p.suffix != ".z")
    # Damaged in place, as bit rot, an editor or a sync tool would.
    damaged = kept.read_bytes()[:-1] + b"!"
    with kept.open("r+b") as handle:
        handle.seek(len(damaged) - 1)
        handle.write(b"!")
    assert kept.read_bytes() == damaged
    again = tmp_path / "again"
    assert run("publish", "2026-02", "--db", db, "--out", again)[0] == 0
    assert contents(again / "2026-02") == first
    twin = Path(f"{db}.backups") / "files" / kept.parent.name / kept.name
    assert twin.read_bytes() != damaged  # the second copy was not touched
    assert kept.read_bytes() == twin.read_bytes()  # the first was written again from it
    kept.write_bytes(damaged)
    twin.write_bytes(damaged)
    third = tmp_path / "third"
    before = dump(db)
    code, _, err = run("publish", "2026-02", "--db", db, "--out", third)
    assert code == 1 and "a published file cannot be read" in err
    assert f"{kept} (damaged: not the bytes published)" in err
    assert not third.exists() and dump(db) == before  # nothing half-written or changed


def test_the_files_of_a_refused_or_undone_publish_are_never_a_problem(tmp_path: Path) -> None:
    db, period = published(tmp_path)
    first = contents(period)
    assert run("unpublish", "2026-02", "--db", db)[0] == 0
    assert query(db, "SELECT COUNT(*) FROM published_files") == [(0,)]
    # Publishing again writes the same bytes: the kept files are the same, nothing twice.
    before = sorted(p.name for p in Path(f"{db}.files").rglob("*") if p.is_file())
    again = tmp_path / "again"
    assert run("publish", "2026-02", "--db", db, "--out", again)[0] == 0
    assert contents(again / "2026-02") == first
    assert sorted(p.name for p in Path(f"{db}.files").rglob("*") if p.is_file()) == before


@pytest.mark.parametrize("rows", [10**9, 0], ids=["one core", "two cores"])
def test_a_file_that_cannot_be_kept_refuses_the_publish_changing_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rows: int
) -> None:
    """The files are kept by the processes that write them, and by threads (the states are
    stored meanwhile): one that cannot be written is the command's error, named, and the
    whole transaction is rolled back; no output folder appears."""
    from rating_batch import parallel

    monkeypatch.setattr(parallel, "PARALLEL_ROWS", rows)
    db = database(tmp_path)
    assert run("add", event_file(tmp_path, "open", [(1, 1, 2, "1-0")]), "--db", db)[0] == 0
    Path(f"{db}.files").write_text("not a folder", encoding="utf-8")
    before, beside = dump(db), companions(db)
    out = tmp_path / "out"
    code, stdout, stderr = run("publish", "2026-02", "--db", db, "--out", out)
    assert code == 1
    assert f"{db}.files" in stderr and "cannot keep the published file" in stderr
    assert "nothing was changed" in stderr and "Traceback" not in stdout + stderr
    assert dump(db) == before and not out.exists()
    assert Path(f"{db}.files").read_text(encoding="utf-8") == "not a folder"
    assert companions(db) == beside  # no file kept, no folder left
    assert query(db, "SELECT COUNT(*) FROM lists WHERE period = '2026-02'") == [(0,)]


def test_a_missing_files_folder_is_said_and_written_again_from_the_second_copies(
    tmp_path: Path,
) -> None:
    db, period = published(tmp_path)
    first = contents(period)
    files, spare = Path(f"{db}.files"), Path(f"{db}.backups") / "files"
    kept = contents(files)
    shutil.rmtree(files)
    again = tmp_path / "again"
    code, out, err = process("publish", "2026-02", "--db", db, "--out", again)
    assert code == 0 and out.startswith("re-published 2026-02")
    assert err == (
        f"{files}: warning: the folder of the published files' first copies is missing; each "
        "file read is written into it again from its other copy\n"
    )
    assert contents(again / "2026-02") == first
    assert contents(files) == kept  # every file the re-publish read, as it was kept
    # One second copy gone: said, by name, and written again from the first.
    lost = next(p for p in spare.rglob("*") if p.is_file() and ".partial" not in p.parts)
    lost.unlink()
    code, _, err = process("publish", "2026-02", "--db", db, "--out", tmp_path / "third")
    assert code == 0
    assert err == (
        f"{lost}: warning: missing; written again from its other copy "
        f"{files / lost.relative_to(spare)}\n"
    )
    assert lost.read_bytes() == (files / lost.relative_to(spare)).read_bytes()
    code, _, err = process("publish", "2026-02", "--db", db, "--out", tmp_path / "fourth")
    assert (code, err) == (0, "")  # both copies whole again: nothing to say


def test_a_copy_that_cannot_be_read_is_not_said_to_be_missing(tmp_path: Path) -> None:
    from rating_batch.store.files import FileStore

    store = FileStore(tmp_path / "files", tmp_path / "spare", 1)
    digest, compressed = store.put("standard/list.csv", b"id,rating\n")
    name = f"{digest[:2]}/{digest}{'.z' if compressed else ''}"
    for root in (store.folder, store.spare):
        (root / name).unlink()
        (root / name).mkdir()  # in the way, and unreadable as a file (as chmod 000 would be)
    with pytest.raises(RatingBatchError) as refused:
        store.get(digest, compressed)
    assert str(refused.value) == (
        "a published file cannot be read from either of its two copies: "
        f"{store.folder / name} (cannot be read: Is a directory); "
        f"{store.spare / name} (cannot be read: Is a directory). Put back the folders beside "
        "the database from your own copies of them"
    )


def test_a_file_is_kept_a_chunk_at_a_time_and_reads_back_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``keep`` reads a written file in chunks (never whole in memory): what it keeps is
    the file, by the SHA-256 of all its bytes, deflated or (a workbook) as it is."""
    import hashlib
    import zlib

    from rating_batch.store import files

    monkeypatch.setattr(files, "KEEP_CHUNK", 7)  # 1,000 bytes: 143 chunks
    store = files.FileStore(tmp_path / "f", tmp_path / "s", 1)
    text = bytes(range(200)) * 5
    (tmp_path / "list.csv").write_bytes(text)
    (tmp_path / "list.xlsx").write_bytes(text[::-1])
    digest, deflated, size = store.keep("standard/list.csv", tmp_path / "list.csv")
    assert (digest, deflated, size) == (hashlib.sha256(text).hexdigest(), True, 1000)
    assert zlib.decompress((tmp_path / "s" / files.kept_name(digest, True)).read_bytes()) == text
    assert store.get(digest, True) == text
    digest, deflated, size = store.keep("standard/list.xlsx", tmp_path / "list.xlsx")
    assert (deflated, size) == (False, 1000)
    assert (tmp_path / "f" / files.kept_name(digest, False)).read_bytes() == text[::-1]
    with pytest.raises(RatingBatchError, match=r"gone\.csv: cannot read the published file"):
        store.keep("standard/gone.csv", tmp_path / "gone.csv")
