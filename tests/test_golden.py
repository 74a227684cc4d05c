"""The whole output set of ``make run`` on sample_data, pinned: what an officer sees, reviewed
once by a person (on screen, printed through LibreOffice and Chromium) and then kept. Any change
to any output shows here as a diff; ``pytest tests/test_golden.py --update-golden`` rewrites
the pins after a deliberate change, and the diff is reviewed in the commit.

Text outputs are pinned whole when small; a large file keeps its first lines and the SHA-256
of the whole. A workbook is pinned as text: per sheet its print settings and its rows as
tab-separated values (the first rows whole, the rest by hash)."""

from __future__ import annotations

import difflib
import hashlib
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from rating_batch.cli import cli

ROOT = Path(__file__).parent.parent
GOLDEN = Path(__file__).parent / "golden"
#: Files up to this size are pinned whole; larger ones by their head and hash.
WHOLE_BYTES = 60_000
HEAD_LINES = 40


def make_run_steps() -> list[list[str]]:
    """The commands of the Makefile's ``run`` target."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    body = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    return [
        shlex.split(line.split("/rating-batch ", 1)[1])
        for line in body.splitlines()
        if "/rating-batch " in line
    ]


def pinned_text(data: bytes) -> str:
    text = data.decode("utf-8-sig")
    if len(data) <= WHOLE_BYTES:
        return text
    lines = text.splitlines(keepends=True)
    digest = hashlib.sha256(data).hexdigest()
    return (
        "".join(lines[:HEAD_LINES]) + f"… {len(lines) - HEAD_LINES} more lines; sha256 {digest}\n"
    )


def pinned_workbook(path: Path) -> str:
    from openpyxl import load_workbook

    book = load_workbook(path)
    out = []
    for sheet in book.worksheets:
        setup = sheet.page_setup
        out.append(
            f"== {sheet.title}: print titles {sheet.print_title_rows}, "
            f"{setup.orientation}, paper {setup.paperSize}, fit {setup.fitToWidth} wide, "
            f"header {sheet.oddHeader.left.text!r}, footer {sheet.oddFooter.center.text!r}, "
            f"freeze {sheet.freeze_panes}, charts {len(sheet._charts)}"
        )
        widths = [f"{k}={d.width:g}" for k, d in sorted(sheet.column_dimensions.items()) if d.width]
        out.append("widths " + " ".join(widths))
        # How numbers show (a whole-number column must not get a fraction's format).
        formats: dict[str, set[str]] = {}
        for line in sheet.iter_rows():
            for cell in line:
                if cell.number_format != "General" and cell.value is not None:
                    formats.setdefault(cell.column_letter, set()).add(cell.number_format)
        out.append("formats " + " ".join(f"{k}={'|'.join(sorted(v))}" for k, v in
                                         sorted(formats.items())))  # fmt: skip
        rows = [
            "\t".join("" if v is None else str(v) for v in row)
            for row in sheet.iter_rows(values_only=True)
        ]
        out.extend(rows[:HEAD_LINES])
        if len(rows) > HEAD_LINES:
            digest = hashlib.sha256("\n".join(rows).encode()).hexdigest()
            out.append(f"… {len(rows) - HEAD_LINES} more rows; sha256 {digest}")
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every file ``make run`` writes (and what it prints), as pinned text by path."""
    import os

    folder = tmp_path_factory.mktemp("make-run")
    (folder / "sample_data").symlink_to(ROOT / "sample_data")
    previous = Path.cwd()
    os.chdir(folder)
    try:
        printed = []
        for step in make_run_steps():
            result = CliRunner().invoke(cli, ["-q", *step] if step[0] != "player" else step)
            assert result.exit_code == 0, (step, result.output)
            if step[0] == "player":
                printed.append(result.stdout)
    finally:
        os.chdir(previous)
    pinned = {"player.txt": "".join(printed)}
    for path in sorted((folder / "out").rglob("*")):
        if "site" in path.relative_to(folder / "out").parts[1:2]:
            continue  # the web site: tests/monthly/test_site.py checks its pages and links
        if path.is_file() and path.suffix != ".sqlite" and "-wal" not in path.name:
            name = path.relative_to(folder / "out").as_posix()
            if path.suffix == ".xlsx":
                pinned[name + ".txt"] = pinned_workbook(path)
            elif path.suffix in (".csv", ".txt", ".html"):
                pinned[name] = pinned_text(path.read_bytes())
    return pinned


def test_the_sample_outputs_are_as_reviewed(
    outputs: dict[str, str], request: pytest.FixtureRequest
) -> None:
    if request.config.getoption("--update-golden"):
        if GOLDEN.exists():
            for old in sorted(GOLDEN.rglob("*"), reverse=True):
                old.unlink() if old.is_file() else old.rmdir()
        for name, text in outputs.items():
            target = GOLDEN / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(text.encode("utf-8"))  # line ends as written (list.txt: CRLF)
    pinned = {
        p.relative_to(GOLDEN).as_posix(): p.read_bytes().decode("utf-8")
        for p in GOLDEN.rglob("*")
        if p.is_file()
    }
    assert sorted(outputs) == sorted(pinned), "the set of output files changed"
    for name, text in outputs.items():
        if text != pinned[name]:
            diff = "".join(
                list(
                    difflib.unified_diff(
                        pinned[name].splitlines(keepends=True),
                        text.splitlines(keepends=True),
                        f"golden/{name}",
                        "now",
                    )
                )[:60]
            )
            pytest.fail(f"{name} changed (--update-golden after review):\n{diff}")


def test_the_pins_hold_no_machine_specific_text() -> None:
    # No temporary folder, user name or date of the run may leak into an output.
    for path in GOLDEN.rglob("*"):
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"/tmp/|pytest-of-|/home/|/root/", text), path
