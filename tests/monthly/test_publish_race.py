"""Two publishes of one period at once (docs/guarantees.md §3): the second to
take the writers' lock finds the period published meanwhile and writes its stored files, as
a re-publish does; it never rates the period again nor advises ``--skip-to``."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from budget import runs
from db_helpers import COMMAND, companions, database, dump, event_file, process, query, run, tree

from rating_batch.store import Store

#: What the loser says (then what a re-publish says).
MEANWHILE = (
    "2026-03 was published meanwhile by another command: its files as stored then are "
    "written, nothing is rated again\n"
    "re-published 2026-03: its files as stored when it was published\n"
)


def february_published(folder: Path) -> Path:
    """11 beats 12 in January (published: 2026-02), 12 beats 11 in February (added)."""
    db = database(folder)
    assert run("add", event_file(folder, "jan", [(1, 1, 2, "1-0")]), "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", folder / "o0")[0] == 0
    feb = event_file(folder, "feb", [(1, 2, 1, "1-0")], day="2026/02/07")
    assert run("add", feb, "--db", db)[0] == 0
    return db


def publishes_of(db: Path) -> list[tuple[object, ...]]:
    """The lists of 2026-03 and the journal's commands that published it."""
    return query(db, "SELECT period, kind, origin FROM lists WHERE period = '2026-03'") + query(
        db, "SELECT label FROM undo_commands WHERE label LIKE 'publish 2026-03%'"
    )


def test_a_period_published_while_a_publish_waited_for_the_lock_is_re_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = february_published(tmp_path)
    first, second = tmp_path / "o1", tmp_path / "o2"
    after: list[list[str]] = []
    writing = Store.writing

    def another_publishes_first(self: Store, **options: bool) -> object:
        # The moment of the race: this publish has decided "a new list" and is about to
        # take the lock; another command (a real process) publishes the period now.
        if not after:
            code, printed, err = process("publish", "2026-03", "--db", db, "--out", first)
            assert code == 0 and printed.startswith("published 2026-03"), printed + err
            after.append(dump(db))
        return writing(self, **options)

    monkeypatch.setattr(Store, "writing", another_publishes_first)
    code, printed, err = run("publish", "2026-03", "--db", db, "--out", second)
    assert (code, err) == (0, "")
    assert printed.startswith(MEANWHILE)
    assert dump(db) == after[0]  # nothing changed, not even the undo journal
    assert publishes_of(db) == [("2026-03", "standard", "publish"), ("publish 2026-03",)]
    assert tree(second / "2026-03") == tree(first / "2026-03")
    assert tree(second / "site") == tree(first / "site")
    assert not list(second.glob(".rating-batch-staging-*"))


def test_a_dry_run_waiting_while_the_period_is_published_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = february_published(tmp_path)
    writing = Store.writing
    after: list[tuple[list[str], dict[str, str]]] = []

    def another_publishes_first(self: Store, **options: bool) -> object:
        if not after:
            code, printed, err = process("publish", "2026-03", "--db", db, "--out", tmp_path / "o1")
            assert code == 0, printed + err
            after.append((dump(db), companions(db)))
        return writing(self, **options)

    monkeypatch.setattr(Store, "writing", another_publishes_first)
    code, printed, err = run("publish", "2026-03", "--db", db, "--out", tmp_path / "o2",
                             "--dry-run")  # fmt: skip
    assert (code, err) == (0, "")
    assert printed == (
        "2026-03 was published meanwhile by another command: its files as stored then would "
        "be written, nothing is rated again\n"
        "2026-03 is published: publishing it again would write its stored files\n"
        "dry run: nothing was changed or written\n"
    )
    assert [(dump(db), companions(db))] == after
    assert not (tmp_path / "o2").exists()


@pytest.mark.slow  # two real publishes at once, several times
def test_two_publishes_of_one_period_at_once_publish_it_once_and_both_write_it(
    tmp_path: Path,
) -> None:
    (tmp_path / "base").mkdir()
    base = february_published(tmp_path / "base")
    for attempt in range(runs(10, 3)):
        folder = shutil.copytree(base.parent, tmp_path / f"run{attempt}")  # and its files
        db = folder / base.name
        commands = [
            [*COMMAND, "publish", "2026-03", "--db", str(db), "--out", str(folder / out)]
            for out in ("o1", "o2")
        ]
        racing = [subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True) for c in commands]  # fmt: skip
        results = [(p.wait(timeout=300), *p.communicate()) for p in racing]
        assert [code for code, _, _ in results] == [0, 0], results
        said = [out.splitlines()[0] for _, out, _ in results]
        # One publishes; the other, however late it starts, re-publishes what is stored.
        [won] = [line for line in said if line.startswith("published 2026-03")]
        [lost] = [line for line in said if line != won]
        assert lost.startswith(("2026-03 was published meanwhile", "re-published 2026-03")), said
        assert publishes_of(db) == [("2026-03", "standard", "publish"), ("publish 2026-03",)]
        assert tree(folder / "o1") == tree(folder / "o2")
