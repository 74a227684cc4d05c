"""The README is a guide whose commands run, whose quick-start output is what `make run` prints,
and whose links and citations, and those of docs/, lead somewhere."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from rating_batch.cli import cli

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
SAMPLE_COMMANDS = re.findall(r"^rating-batch (rate sample_data/\S+.*)$", README, flags=re.M)


def test_readme_shows_sample_commands() -> None:
    assert SAMPLE_COMMANDS, "the README should show how to rate sample_data"


@pytest.mark.parametrize("command", SAMPLE_COMMANDS)
def test_readme_sample_command_runs(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    args = shlex.split(command.replace("--out out", f"--out {tmp_path / 'out'}"))
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output


def test_quick_start_output_is_current(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    shown = re.search(r"and prints:\n\n```text\n(.*?)```", README, flags=re.S)
    assert shown is not None
    makefile = (ROOT / "Makefile").read_text()
    run_line = re.search(r"^run:.*\n\t\$\(BIN\)/rating-batch (.*)$", makefile, flags=re.M)
    assert run_line is not None
    out = tmp_path / "out"
    args = shlex.split(run_line.group(1).replace("--out out", f"--out {out}"))
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0
    printed = result.stdout.replace(f"{out}{os.sep}", "out/")
    assert printed == shown.group(1)


def test_development_guide_python_example_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Run where its relative paths resolve, without writing into the checkout's out/.
    (tmp_path / "sample_data").symlink_to(ROOT / "sample_data")
    monkeypatch.chdir(tmp_path)
    guide = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", guide, flags=re.S)
    assert blocks, "docs/development.md should show the Python API"
    for block in blocks:
        exec(compile(block, "docs/development.md", "exec"), {})
    assert "new_rating" in capsys.readouterr().out


def test_readme_is_a_guide_of_at_most_400_lines() -> None:
    # Issue 39: the officer's guide; the detail lives in docs/, each topic once.
    assert len(README.splitlines()) <= 400


def test_readme_contents_lists_its_sections_in_order() -> None:
    sections = re.findall(r"^## (.+)$", README, flags=re.M)
    assert sections[0] == "Contents"
    contents = README.split("## Contents\n", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^- \[(.+?)\]\(#([\w-]+)\)$", contents, flags=re.M)
    assert [title for title, _ in listed] == sections[1:]
    assert [anchor for _, anchor in listed] == [anchor_of(title) for title in sections[1:]]


def test_readme_read_more_lists_every_docs_page() -> None:
    read_more = README.split("## Read more\n", 1)[1]
    listed = re.findall(r"^\| \[docs/(\w+\.md)\]", read_more, flags=re.M)
    assert sorted(listed) == sorted(p.name for p in (ROOT / "docs").glob("*.md"))


def anchor_of(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


MARKDOWN = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("page", MARKDOWN, ids=[p.relative_to(ROOT).as_posix() for p in MARKDOWN])
def test_every_relative_link_resolves(page: Path) -> None:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    for link in links:
        if re.match(r"[a-z]+:", link):
            continue  # an absolute address: not ours to check
        path, _, anchor = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        assert target.exists(), (page.name, link)
        if anchor:
            headings = re.findall(r"^#+ (.+)$", target.read_text(encoding="utf-8"), flags=re.M)
            assert anchor in {anchor_of(h) for h in headings}, (page.name, link)


def test_every_citation_names_a_section_that_exists() -> None:
    # Comments, notes, tests and the docs themselves cite the project's docs (docs/rules.md
    # §3): each cited file exists and has the cited section.
    cited: set[tuple[str, str]] = set()
    files = [
        *(ROOT / "rating_batch").rglob("*.py"),
        *(ROOT / "tests").rglob("*.py"),
        ROOT / "README.md",
        *(ROOT / "docs").glob("*.md"),
    ]
    for path in files:
        text = path.read_text(encoding="utf-8")
        for doc, sections in re.findall(r"(docs/\w+\.md)((?:,? ?§[\d.]+)*)", text):
            assert (ROOT / doc).exists(), (path, doc)
            cited |= {(doc, s.rstrip(".")) for s in re.findall(r"§([\d.]+)", sections)}
    assert cited
    for doc, section in sorted(cited):
        text = (ROOT / doc).read_text(encoding="utf-8")
        headings = re.findall(r"(?:^#+ |\*\*)§([\d.]+)[ *]", text, re.M)
        assert section in headings, f"{doc} has no §{section}"
