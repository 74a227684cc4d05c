"""All-or-nothing output sets (staging.py): staged, switched in by renames, undone on failure."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rating_batch import portable, staging
from rating_batch.staging import OutputProblem, staged_outputs


def files(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): p.read_text()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_outputs_appear_only_when_the_set_is_complete(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with staged_outputs(out) as outputs:
        outputs.path(out / "a.csv").write_text("new a")
        assert not (out / "a.csv").exists()  # not before the whole set is written
        outputs.path(out / "b" / "c.csv").write_text("new c")
    assert files(out) == {"a.csv": "new a", "b/c.csv": "new c"}
    assert sorted(os.listdir(out)) == ["a.csv", "b"]  # no staging folder left


def test_an_error_while_writing_changes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "a.csv").write_text("old a")
    with pytest.raises(RuntimeError), staged_outputs(out) as outputs:
        outputs.path(out / "a.csv").write_text("new a")
        raise RuntimeError("a bug half-way")
    assert files(out) == {"a.csv": "old a"}
    assert os.listdir(out) == ["a.csv"]  # no staging folder left


def test_no_empty_folder_is_left_behind(tmp_path: Path) -> None:
    out = tmp_path / "new" / "deeper"
    with pytest.raises(RuntimeError), staged_outputs(out) as outputs:
        outputs.path(out / "a.csv").write_text("x")
        raise RuntimeError("stop")
    assert not (tmp_path / "new").exists()


def test_a_failed_rename_puts_every_previous_file_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    for name in ("a.csv", "b.csv", "c.csv"):
        (out / name).write_text(f"old {name}")
    renames = []
    real = os.rename

    def flaky(source: object, target: object) -> None:
        renames.append(target)
        if len(renames) == 4:  # a.csv moved aside and in, b.csv moved aside: then a failure
            raise PermissionError(13, "Permission denied", str(target))
        real(source, target)  # type: ignore[arg-type]  # a spy forwards what it was given

    monkeypatch.setattr(staging.os, "rename", flaky)
    with (
        pytest.raises(OutputProblem, match="the previous files are as they were"),
        staged_outputs(out) as outputs,
    ):
        for name in ("a.csv", "b.csv", "c.csv"):
            outputs.path(out / name).write_text(f"new {name}")
    monkeypatch.undo()
    assert files(out) == {name: f"old {name}" for name in ("a.csv", "b.csv", "c.csv")}
    assert sorted(os.listdir(out)) == ["a.csv", "b.csv", "c.csv"]


def test_an_owned_folder_is_replaced_whole(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "events").mkdir(parents=True)
    (out / "events" / "old-event.html").write_text("stale page")
    with staged_outputs(out) as outputs:
        outputs.own(out / "events", r"[^/]+\.html")
        outputs.path(out / "events" / "new-event.html").write_text("page")
    assert files(out) == {"events/new-event.html": "page"}


@pytest.mark.parametrize(
    ("mine", "shown"),
    [("notes.txt", "notes.txt"), ("Thumbs.db/notes.txt", "Thumbs.db, Thumbs.db/notes.txt")],
    ids=["a file", "a folder named like a helper file"],
)
def test_an_owned_folder_holding_the_officers_files_is_refused(
    tmp_path: Path, mine: str, shown: str
) -> None:
    # Only files are the system's helpers: a folder "Thumbs.db" is something the officer made.
    out = tmp_path / "out"
    (out / "events" / mine).parent.mkdir(parents=True)
    (out / "events" / mine).write_text("mine")
    with (
        pytest.raises(OutputProblem, match=rf"holds files rating_batch does not write \({shown}\)"),
        staged_outputs(out) as outputs,
    ):
        outputs.own(out / "events", r"[^/]+\.html")
        outputs.path(out / "events" / "new-event.html").write_text("page")
    assert files(out) == {f"events/{mine}": "mine"}


def test_out_under_a_file_is_a_message(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with (
        pytest.raises(OutputProblem, match="a file is in the way"),
        staged_outputs(tmp_path / "file" / "out") as outputs,
    ):
        outputs.path(tmp_path / "file" / "out" / "a.csv").write_text("x")


def test_no_space_while_writing_is_a_message(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with (
        pytest.raises(OutputProblem, match=r"No space left on device.*nothing was written"),
        staged_outputs(out) as outputs,
    ):
        raise OSError(28, "No space left on device", str(outputs.path(out / "a.csv")))
    assert not out.exists()


def test_a_killed_runs_staging_folder_is_removed_by_the_next(tmp_path: Path) -> None:
    out = tmp_path / "out"
    stale = out / ".rating-batch-staging-999999999-abc"  # no such process
    (stale / "x").mkdir(parents=True)
    with staged_outputs(out) as outputs:
        outputs.path(out / "a.csv").write_text("a")
    assert sorted(os.listdir(out)) == ["a.csv"]


def test_helper_files_of_the_system_and_office_programs_go_with_the_folder_they_are_in(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    helpers = [".DS_Store", "._report.xlsx", "Thumbs.db", "desktop.ini", "~$report.xlsx",
               ".~lock.report.xlsx#"]  # fmt: skip
    (out / "events").mkdir(parents=True)
    for name in ["old-event.html", *helpers]:
        (out / "events" / name).write_text("x")
    with staged_outputs(out) as outputs:
        outputs.own(out / "events", r"[^/]+\.html")
        outputs.path(out / "events" / "new-event.html").write_text("page")
    assert files(out) == {"events/new-event.html": "page"}


def test_a_list_open_in_another_program_is_named_and_the_previous_files_stay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Windows refuses to move a file a spreadsheet program holds open (a sharing violation):
    # tried again for a moment (portable.replace), then named, with what to do.
    out = tmp_path / "out"
    out.mkdir()
    for name in ("a.csv", "list.xlsx"):
        (out / name).write_text(f"old {name}")
    real = os.rename
    tries = []

    def held(source: object, target: object) -> None:
        if source == out / "list.xlsx":  # moving it aside, to put the new one in
            tries.append(source)
            error = PermissionError(13, "The process cannot access the file", str(source))
            error.winerror = 32  # type: ignore[attr-defined]  # set by Python on Windows only
            raise error
        real(source, target)  # type: ignore[arg-type]  # a spy forwards what it was given

    monkeypatch.setattr(portable, "RETRY_FOR", 0.3)
    monkeypatch.setattr(os, "rename", held)
    with pytest.raises(OutputProblem) as raised, staged_outputs(out) as outputs:
        for name in ("a.csv", "list.xlsx"):
            outputs.path(out / name).write_text(f"new {name}")
    monkeypatch.undo()
    assert str(raised.value) == (
        f"{out / 'list.xlsx'}: cannot put the outputs in place (it is open in another program: "
        "close it there, then try again); the previous files are as they were"
    )
    assert len(tries) >= 3  # tried again before giving up
    assert files(out) == {"a.csv": "old a.csv", "list.xlsx": "old list.xlsx"}
    assert sorted(os.listdir(out)) == ["a.csv", "list.xlsx"]
