"""A progress bar on a terminal for many files, none when piped; --quiet and --verbose."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from trf_text import P, trf

from rating_batch.cli import cli


def fifty_events(folder: Path) -> Path:
    events = folder / "events"
    events.mkdir()
    for number in range(1, 51):
        text = trf(
            [
                P(1, f"A{number}", 1600, 1000 + number, 1980),
                P(2, f"B{number}", 1500, 2000 + number, 1980),
            ],
            [(1, 1, 2, "1-0")],
            name=f"Event {number}",
        )
        (events / f"event{number:02d}.trf").write_text(text, encoding="utf-8")
    return events


def run_with_stderr_on_a_terminal(args: list[str]) -> str:
    pty = pytest.importorskip("pty", reason="a terminal made by pty.openpty, which is Unix only")
    leader, follower = pty.openpty()
    environment = {**os.environ, "TERM": "xterm", "COLUMNS": "100"}
    process = subprocess.Popen(
        [sys.executable, "-m", "rating_batch", *args],
        stdout=subprocess.DEVNULL,
        stderr=follower,
        env=environment,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=120)
    os.close(leader)
    assert process.returncode == 0
    return b"".join(chunks).decode("utf-8", "replace")


def test_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    events = fifty_events(tmp_path)
    shown = run_with_stderr_on_a_terminal(
        ["rate", str(events), "--rules", "fide-2025", "--out", str(tmp_path / "out")]
    )
    assert "reading events" in shown and "50/50" in shown


def test_no_progress_bar_when_piped(tmp_path: Path) -> None:
    events = fifty_events(tmp_path)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "rating_batch",
            "rate",
            str(events),
            "--rules",
            "fide-2025",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0
    assert result.stderr == ""
    assert result.stdout.startswith("rated 50 event(s) as one period")


def test_quiet_prints_nothing_but_errors(tmp_path: Path) -> None:
    events = fifty_events(tmp_path)
    result = CliRunner().invoke(
        cli, ["--quiet", "rate", str(events), "--rules", "fide-2025", "--out", str(tmp_path / "o")]
    )
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")


def test_warnings_are_printed_the_first_twenty_by_default(tmp_path: Path) -> None:
    # 25 players whose declared points are wrong (1 each, the rounds give 0): 25 warnings.
    players = [P(i, f"Player {i}", 1500 + i, 100 + i, 1980) for i in range(1, 27)]
    games = [(1, 2 * i - 1, 2 * i, "1-0") for i in range(1, 14)]
    text = trf(players, games)
    lines = text.splitlines()
    wrong = [
        line.replace(" 0.0 ", " 1.0 ", 1) if line.startswith("001") and " 0.0 " in line else line
        for line in lines
    ]
    path = tmp_path / "points.trf"
    path.write_text("\n".join(wrong) + "\n", encoding="utf-8")
    shown = CliRunner().invoke(
        cli, ["rate", str(path), "--rules", "fide-2025", "--out", str(tmp_path / "a")]
    )
    every = CliRunner().invoke(
        cli, ["-v", "rate", str(path), "--rules", "fide-2025", "--out", str(tmp_path / "b")]
    )
    quiet = CliRunner().invoke(
        cli, ["-q", "rate", str(path), "--rules", "fide-2025", "--out", str(tmp_path / "c")]
    )
    warnings = [line for line in every.stderr.splitlines() if ": warning: declared points" in line]
    assert len(warnings) == 13  # the losers of round 1, each declared 1 point
    assert shown.stderr.splitlines() == warnings[:20]
    assert quiet.stderr == ""


def test_more_than_twenty_warnings_are_counted(tmp_path: Path) -> None:
    from rating_batch.cli.common import report

    context = click.Context(click.Command("show"), obj={"quiet": False, "verbose": False})
    warnings = [f"f.trf:{line}: warning: something" for line in range(1, 26)]
    runner = CliRunner()

    @click.command()
    def show() -> None:
        report(context, "summary", warnings)

    result = runner.invoke(show)
    assert result.stdout == "summary\n"
    assert result.stderr.splitlines() == [
        *warnings[:20],
        "… and 5 more warning(s) (-v prints them all)",
    ]
