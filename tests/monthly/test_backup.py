"""``backup`` (monthly/undo.py): both copies of every published file checked against the
digest the database recorded when it was published; a damaged or missing copy written again
from the good one and said; a file whose two copies are both bad said loudly (exit 1), the
whole copy of the database saved all the same."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import zlib
from pathlib import Path

import pytest
from db_helpers import COMMAND, database, dump, event_file, query, run, tree


def published(tmp_path: Path) -> Path:
    db = database(tmp_path)
    assert run("add", event_file(tmp_path, "open", [(1, 1, 2, "1-0")]), "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    return db


def kept(db: Path) -> list[str]:
    """The kept files' names (``ab/ab….z``), from the digests the database recorded."""
    return sorted(
        f"{digest[:2]}/{digest}{'.z' if compressed else ''}"
        for digest, compressed in query(
            db, "SELECT DISTINCT digest, compressed FROM published_files"
        )
    )


def published_bytes(place: Path) -> bytes:
    stored = place.read_bytes()
    return zlib.decompress(stored) if place.name.endswith(".z") else stored


def whole(place: Path) -> bool:
    """Whether a kept file holds the bytes published: its name is their SHA-256."""
    try:
        data = published_bytes(place)
    except (OSError, zlib.error):
        return False
    return hashlib.sha256(data).hexdigest() == place.name.removesuffix(".z")


def damage(place: Path) -> None:
    data = bytearray(place.read_bytes())
    data[10] ^= 0xFF
    place.write_bytes(bytes(data))


def test_backup_finds_a_damaged_or_missing_copy_and_writes_it_again(tmp_path: Path) -> None:
    db = published(tmp_path)
    files, spare = Path(f"{db}.files"), Path(f"{db}.backups") / "files"
    names = kept(db)
    assert len(names) >= 2
    damaged, lost_first = names[0], names[1]
    damage(spare / damaged)  # a second copy changed in place (bit rot)
    (files / lost_first).unlink()  # a first copy deleted
    before = dump(db)
    code, out, err = run("backup", "--db", db)
    assert code == 0, err
    (copy,) = Path(f"{db}.backups").glob("*-backup.sqlite")
    assert out.splitlines()[0].startswith(f"saved a whole copy of {db} as {copy} (")
    assert out.splitlines()[1:] == [
        f"checked both copies of {len(names)} published files: 2 written again from their "
        "other copy"
    ]
    assert err.splitlines() == [  # in the order of the kept files' names
        f"{spare / damaged}: warning: damaged: not the bytes published; written again from "
        f"its other copy {files / damaged}",
        f"{files / lost_first}: warning: missing; written again from its other copy "
        f"{spare / lost_first}",
    ]
    for name in names:
        assert whole(files / name) and whole(spare / name), name
        assert not (files / name).samefile(spare / name)
    assert dump(db) == before  # the database itself is only read
    code, out, err = run("backup", "--db", db)
    assert (code, err) == (0, "")  # both copies whole again: nothing to say
    assert out.splitlines()[1:] == [f"checked both copies of {len(names)} published files"]


def test_backup_says_loudly_a_file_whose_two_copies_are_both_bad(tmp_path: Path) -> None:
    db = published(tmp_path)
    files, spare = Path(f"{db}.files"), Path(f"{db}.backups") / "files"
    names = kept(db)
    bad = names[0]
    damage(files / bad)
    (spare / bad).unlink()
    left = (files / bad).read_bytes()
    code, out, err = run("backup", "--db", db)
    assert code == 1
    (copy,) = Path(f"{db}.backups").glob("*-backup.sqlite")  # the database is saved anyway
    assert out.splitlines()[0].startswith(f"saved a whole copy of {db} as {copy} (")
    # Named as the officer knows it: the first published file those bytes are.
    [(period, path)] = query(
        db,
        "SELECT period, path FROM published_files WHERE digest = ? ORDER BY period, path LIMIT 1",
        bad.split("/")[1].removesuffix(".z"),
    )
    assert err.splitlines() == [
        f"{period}/{path}: a published file cannot be read from either of its two copies: "
        f"{files / bad} (damaged: not the bytes published); {spare / bad} (missing). Put back "
        "the folders beside the database from your own copies of them",
        f"Error: 1 published file of {db} is lost from both of its copies (above): the whole "
        "copy just saved cannot bring it back",
    ]
    assert (files / bad).read_bytes() == left  # nothing made up, nothing removed
    assert not (spare / bad).exists()
    for name in names[1:]:
        assert whole(files / name) and whole(spare / name), name


@pytest.mark.slow  # a mount namespace with a read-only mount
def test_backup_on_read_only_media_says_so(tmp_path: Path) -> None:
    media = tmp_path / "media"
    media.mkdir()
    db = published(media)
    assert run("-q", "backup", "--db", db)[0] == 0
    with sqlite3.connect(db) as connection:  # one file, as copied onto a stick or share
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    before = tree(media)
    report = tmp_path / "report"
    script = f"""
set -u
mount --bind {media} {media} && mount -o remount,bind,ro {media} || exit 90
{" ".join(COMMAND)} backup --db {db} > {report}.out 2> {report}.err; echo $? > {report}.rc
"""
    done = subprocess.run(["unshare", "--mount", "sh", "-c", script], capture_output=True)
    assert done.returncode == 0, f"could not mount read-only here: {done.stderr!r}"
    assert Path(f"{report}.rc").read_text().split() == ["1"]
    assert Path(f"{report}.out").read_text() == ""
    # Without statvfs (Windows; make test-portable) the disk is not asked: the folder says it.
    why = "on a read-only disk or share"
    if not hasattr(os, "statvfs"):
        why = "read-only (no permission to write)"
    assert Path(f"{report}.err").read_text() == (
        f"Error: {db}: cannot save a whole copy in {db}.backups: it is {why}; nothing was changed\n"
    )
    assert tree(media) == before


def test_a_folder_of_copies_missing_whole_is_said_once(tmp_path: Path) -> None:
    import shutil

    db = published(tmp_path)
    files, spare = Path(f"{db}.files"), Path(f"{db}.backups") / "files"
    names = kept(db)
    shutil.rmtree(spare)
    code, out, err = run("backup", "--db", db)
    assert code == 0
    assert out.splitlines()[1:] == [
        f"checked both copies of {len(names)} published files: {len(names)} written again "
        "from their other copy"
    ]
    assert err == (
        f"{spare}: warning: the folder of the published files' second copies was missing; "
        "every file written into it again from its other copy\n"
    )
    for name in names:
        assert whole(spare / name) and (spare / name).read_bytes() == (files / name).read_bytes()


@pytest.mark.skipif(os.name == "nt", reason="links of files need privileges on Windows")
def test_a_second_copies_folder_that_is_a_link_to_the_first_is_said_every_time(
    tmp_path: Path,
) -> None:
    """Writing "again" through the link wrote onto the first copies and left one copy, and
    backup said it had mended every file on every run."""
    db = published(tmp_path)
    files, spare = Path(f"{db}.files"), Path(f"{db}.backups") / "files"
    before = tree(files)
    shutil.rmtree(spare)
    spare.symlink_to(files.resolve(), target_is_directory=True)
    for _ in range(2):
        code, out, err = run("backup", "--db", db)
        assert code == 1
        assert f"{spare}: is the folder of the first copies under another name" in err
        assert "written again" not in out
        assert err.splitlines()[-1] == (
            f"Error: 1 second copy of published files of {db} could not be made (above): the "
            "whole copy is saved; mend what each says"
        )
    assert tree(files) == before  # the first copies untouched
    assert len(list(Path(f"{db}.backups").glob("*-backup.sqlite"))) == 2


@pytest.mark.skipif(os.name == "nt", reason="links of files need privileges on Windows")
def test_a_first_copy_that_is_a_link_to_the_second_is_made_a_file_of_its_own(
    tmp_path: Path,
) -> None:
    db = published(tmp_path)
    files, spare = Path(f"{db}.files"), Path(f"{db}.backups") / "files"
    name = kept(db)[0]
    (files / name).unlink()
    (files / name).symlink_to((spare / name).resolve())
    assert run("backup", "--db", db)[0] == 0
    assert not (files / name).is_symlink()
    assert whole(files / name) and whole(spare / name)
    assert not os.path.samefile(files / name, spare / name)
    code, out, _ = run("backup", "--db", db)  # nothing left to mend
    assert code == 0 and "written again" not in out


def test_a_folder_in_place_of_a_copy_is_named_and_the_rest_still_done(tmp_path: Path) -> None:
    """One stray entry stopped backup before its whole copy, naming its folder."""
    db = published(tmp_path)
    files, spare = Path(f"{db}.files"), Path(f"{db}.backups") / "files"
    names = kept(db)
    (spare / names[1]).unlink()
    (spare / names[1]).mkdir()
    damage(spare / names[2])
    code, _, err = run("backup", "--db", db)
    assert code == 1
    assert f"{spare / names[1]}: cannot be written again from its other copy" in err
    assert len(list(Path(f"{db}.backups").glob("*-backup.sqlite"))) == 1  # saved all the same
    assert whole(spare / names[2])  # the other damaged copy mended
    assert whole(files / names[1])  # the good copy untouched
