"""The whole output set of ``make run`` on sample_data, pinned: what an officer sees, reviewed
once by a person (on screen, printed through LibreOffice and Chromium) and then kept. Any change
to any output shows here as a diff; ``pytest tests/test_golden.py --update-golden`` rewrites
the pins after a deliberate change, and the diff is reviewed in the commit.

Text outputs are pinned whole when small; a large file keeps its first lines and, for the
rest, a digest (``tail_digest``). A workbook is pinned as text: per sheet its print settings
and its rows as tab-separated values (the first rows whole, the rest by digest).

Numbers are compared within a stated tolerance, text exactly (``same_pins``): a float computed
a last bit apart on another CPU (SIMD, FMA, libm) is written to the same 10 significant digits
(writers/common.py), or at worst one unit apart in the tenth, which ``WRITTEN_RELATIVE``
allows; any larger change of a number fails. Whole numbers (ids, ratings, dates) are exact."""

from __future__ import annotations

import difflib
import hashlib
import math
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from rating_batch.cli import cli
from rating_batch.writers.common import WRITTEN_RELATIVE

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


#: A number as the outputs write it; one with a point or an exponent is a float, compared
#: within the tolerance below, any other (an id, a whole rating, a date's parts) exactly.
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
#: How far a pinned float may move, relative: one unit in the tenth significant digit, the
#: digits a float is written with (writers/common.py), so that a last-bit difference between
#: machines never fails and a change in a printed digit of a shorter number (an Elo expected
#: score 0.89 → 0.90, a rating) always does.
RELATIVE = WRITTEN_RELATIVE
#: How far from 0 a float may move: a quantity that is 0 in exact arithmetic can come out as
#: 1e-17 on another machine.
ABSOLUTE = 1e-12


def _is_float(token: str) -> bool:
    return any(mark in token for mark in ".eE")


def same_number(pinned: str, now: str) -> bool:
    """Whether two numbers' texts say the same number: whole numbers exactly, floats within
    ``RELATIVE`` (or ``ABSOLUTE`` of 0)."""
    if pinned == now or float(pinned) == float(now):
        return True
    return (_is_float(pinned) or _is_float(now)) and math.isclose(
        float(pinned), float(now), rel_tol=RELATIVE, abs_tol=ABSOLUTE
    )


def same_line(pinned: str, now: str) -> bool:
    """Whether two lines are the same text with the same numbers (``same_number``)."""
    if pinned == now:
        return True
    if TAIL.match(pinned) and TAIL.match(now):
        return same_tail(pinned, now)
    pinned_parts, now_parts = NUMBER.split(pinned), NUMBER.split(now)
    pinned_numbers, now_numbers = NUMBER.findall(pinned), NUMBER.findall(now)
    return (
        pinned_parts == now_parts
        and len(pinned_numbers) == len(now_numbers)
        and all(map(same_number, pinned_numbers, now_numbers))
    )


def same_pins(pinned: str, now: str) -> bool:
    """Whether a pinned output and the output now are the same, line by line (``same_line``),
    with the same line ends."""
    pinned_lines, now_lines = pinned.splitlines(keepends=True), now.splitlines(keepends=True)
    return len(pinned_lines) == len(now_lines) and all(
        a[len(a.rstrip("\r\n")) :] == b[len(b.rstrip("\r\n")) :]
        and same_line(a.rstrip("\r\n"), b.rstrip("\r\n"))
        for a, b in zip(pinned_lines, now_lines, strict=True)
    )


#: The line that stands for a large output's rest (``tail_digest``).
TAIL = re.compile(
    r"… (\d+) more (?:lines|rows); text sha256 ([0-9a-f]{64}); (\d+) floats, "
    r"Σ (\S+), Σw (\S+), Σ\|x\| (\S+)$"
)


def tail_digest(text: str, count: int, unit: str) -> str:
    """The rest of a large output (``count`` lines or rows) as one line: the SHA-256 of its
    text with every float as "#" (text, line ends, whole numbers and where each float stands,
    exactly), and the floats' sum, position-weighted sum (weights 1 to 7: a float moved to
    another place shows) and sum of sizes, compared within the tolerance (``same_tail``)."""
    floats = [float(t) for t in NUMBER.findall(text) if _is_float(t)]
    shape = NUMBER.sub(lambda m: "#" if _is_float(m.group()) else m.group(), text)
    digest = hashlib.sha256(shape.encode()).hexdigest()
    total = math.fsum(floats)
    weighted = math.fsum((k % 7 + 1) * x for k, x in enumerate(floats))
    size = math.fsum(map(abs, floats))
    return (
        f"… {count} more {unit}; text sha256 {digest}; {len(floats)} floats, "
        f"Σ {total!r}, Σw {weighted!r}, Σ|x| {size!r}"
    )


def same_tail(pinned: str, now: str) -> bool:
    """Whether two ``tail_digest`` lines agree: the text exactly; each sum within what its
    floats may move together, each ``RELATIVE`` of itself or ``ABSOLUTE`` (a sum weighted
    by up to 7, up to 7 times that). A change of one float by more than that shows, unless
    the tail's other floats are 10^9 times larger in all."""
    was, found = TAIL.match(pinned), TAIL.match(now)
    assert was is not None and found is not None
    if was.groups()[:3] != found.groups()[:3]:
        return False
    count, size = int(found[3]), float(found[6])
    slack = RELATIVE * size + ABSOLUTE * count
    return all(
        abs(float(was[group]) - float(found[group])) <= weight * slack
        for group, weight in ((4, 1), (5, 7), (6, 1))
    )


def pinned_text(data: bytes) -> str:
    text = data.decode("utf-8-sig")
    if len(data) <= WHOLE_BYTES:
        return text
    lines = text.splitlines(keepends=True)
    rest = "".join(lines[HEAD_LINES:])
    return "".join(lines[:HEAD_LINES]) + tail_digest(rest, len(lines) - HEAD_LINES, "lines") + "\n"


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
            rest = "\n".join(rows[HEAD_LINES:])
            out.append(tail_digest(rest, len(rows) - HEAD_LINES, "rows"))
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
        if not same_pins(pinned[name], text):
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


# The comparison itself: the pair is one Glicko-2 volatility of the sample run as two CPUs
# computed it (tests/writers/test_numbers.py), one unit in the last place apart.
ONE_MACHINE, ANOTHER = "0.059998256379520415", "0.05999825637952042"


@pytest.mark.parametrize(
    ("pinned", "now"),
    [
        (
            f"2256738,Garcia,{ONE_MACHINE},1355.7410938273333\n",
            f"2256738,Garcia,{ANOTHER},1355.741093827333\n",
        ),
        # Written to 10 digits, a last bit can at worst move the tenth by one unit.
        ("0.05999825638,1355.741094\n", "0.05999825637,1355.741093\n"),
        ("delta 0\n", "delta 1e-17\n"),
        ("-0.00\r\n", "0.00\r\n"),
    ],
    ids=["in-full", "tenth-digit", "zero", "signed-zero"],
)
def test_a_last_bit_apart_is_the_same_pin(pinned: str, now: str) -> None:
    assert same_pins(pinned, now)


@pytest.mark.parametrize(
    ("pinned", "now"),
    [
        ("expected 0.89\n", "expected 0.90\n"),  # a printed digit of an Elo score
        ("1464.05,151.52\n", "1464.06,151.52\n"),
        ("0.05999825638\n", "0.05999825648\n"),  # ten units in the tenth digit
        ("900000020,1750\n", "900000021,1750\n"),  # ids and whole ratings are exact
        ("Misu, Rasa,2376\n", "Misu, Rosa,2376\n"),
        ("1,2\n", "1,2,3\n"),
        ("a\r\nb\r\n", "a\nb\n"),  # list.txt's CRLF
        ("a\n", "a\nb\n"),
    ],
    ids=["hundredth", "rating", "tenth-digit-x10", "id", "text", "count", "line-ends", "lines"],
)
def test_a_real_difference_fails_the_pin(pinned: str, now: str) -> None:
    assert not same_pins(pinned, now)


def _tail(values: list[str]) -> str:
    return tail_digest("".join(f"{n},Player {n},{v}\n" for n, v in enumerate(values)), 3, "lines")


def test_a_tail_a_last_bit_apart_is_the_same_pin() -> None:
    assert same_pins(_tail(["1500.0", ONE_MACHINE, "171.2"]), _tail(["1500.0", ANOTHER, "171.2"]))


@pytest.mark.parametrize(
    "now",
    [["1500.01", ONE_MACHINE, "171.2"], ["1500.0", "171.2", ONE_MACHINE], ["1500", ONE_MACHINE]],
    ids=["changed", "moved", "shape"],
)
def test_a_tail_with_a_real_difference_fails_the_pin(now: list[str]) -> None:
    assert not same_pins(_tail(["1500.0", ONE_MACHINE, "171.2"]), _tail(now))
