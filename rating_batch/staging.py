"""All-or-nothing output sets: written into a staging folder, switched in by renames.

``staged_outputs(root)`` gives an ``OutputSet``: every output is written into a hidden
staging folder inside ``root`` (the same file system, so renames are atomic), and only when
the whole set is complete is it switched into place, unit by unit: a file, or a folder that
the command owns whole (``own``: a period's folder, the event pages). A unit already there is
first moved into the staging folder; if any rename fails, every one done is undone, so the
previous outputs stay as they were. Whatever happens, the staging folder is removed and no
empty folder the command made is left behind.

An owned folder that holds files we do not write (the officer's own notes, say) is refused
before anything is written: a command never deletes what it did not create. The files an
operating system or office program makes by itself (``HELPER_FILES``) are not the officer's:
they are moved away with the folder they are in.

A kill between the renames can leave some units new and some old (and a hidden staging folder,
removed by the next run in the same folder): running the command again completes it.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from rating_batch.errors import RatingBatchError
from rating_batch.portable import alive, replace

_STAGING_PREFIX = ".rating-batch-staging-"

#: Files the operating system or an office program makes in any folder it shows or whose
#: files it opens (Finder's .DS_Store and ._ files, Explorer's Thumbs.db and desktop.ini,
#: Excel's ~$report.xlsx and LibreOffice's .~lock.report.xlsx# lock files): an owned folder
#: holding them is still ours; they go with the folder it replaces.
HELPER_FILES = re.compile(r"\.DS_Store|\._.+|Thumbs\.db|desktop\.ini|~\$.+|\.~lock\..+#")


class OutputProblem(RatingBatchError):
    """The outputs cannot be written where asked (a file in the way, no space, no access)."""


class OutputSet:
    """Outputs of one command under ``root``, written into staging and switched in together."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.made: list[Path] = []
        """Folders made for the outputs, deepest first (removed again if nothing comes)."""
        self.staging: Path | None = None
        self.files: list[Path] = []
        """Every output's final path, in the order written."""
        self.owned: dict[Path, re.Pattern[str]] = {}
        self.switched = False

    def _prepare(self) -> Path:
        if self.staging is None:
            missing = [p for p in [self.root, *self.root.parents] if not p.exists()]
            try:
                self.root.mkdir(parents=True, exist_ok=True)
            except (FileExistsError, NotADirectoryError):
                raise OutputProblem(
                    f"{self.root}: cannot make this folder: a file is in the way "
                    "(choose another --out)"
                ) from None
            self.made.extend(missing)
            _remove_stale_staging(self.root)
            self.staging = Path(
                tempfile.mkdtemp(prefix=f"{_STAGING_PREFIX}{os.getpid()}-", dir=self.root)
            )
        return self.staging

    def own(self, folder: Path, pattern: str, *, pages: bool = False) -> None:
        """``folder`` (under root) is replaced whole; what it holds now must all match
        ``pattern`` (paths relative to it), else nothing is written. ``pages``: an HTML file
        is ours only when it says so (``GENERATOR`` near its top): a page the officer wrote
        by hand under a name like ours is his, and refused, not deleted."""
        self._prepare()
        self.owned[folder] = _ownable(folder, pattern, pages=pages)

    def path(self, final: Path) -> Path:
        """Where to write the output that will be ``final`` (a path under ``root``)."""
        staged = self._prepare() / final.relative_to(self.root)
        staged.parent.mkdir(parents=True, exist_ok=True)
        self.files.append(final)
        return staged

    def folder(self, final: Path) -> Path:
        """Where to write the files of the folder ``final``, inside an owned folder (switched
        with it, so its files need no record of their own: 10^5 pages at one ``mkdir``)."""
        assert any(owned in [final, *final.parents] for owned in self.owned), final
        staged = self._prepare() / final.relative_to(self.root)
        staged.mkdir(parents=True, exist_ok=True)
        return staged

    def write_bytes(self, final: Path, data: bytes) -> None:
        self.path(final).write_bytes(data)

    def staged(self) -> Iterator[tuple[Path, Path]]:
        """(final path, staged file) of every output written so far."""
        if not self.files:
            return
        assert self.staging is not None  # a file was written, so its folder was made
        for final in self.files:
            yield final, self.staging / final.relative_to(self.root)

    def _units(self) -> list[Path]:
        """What is switched: each owned folder, and every file outside them."""
        units: list[Path] = list(self.owned)
        for final in self.files:
            if not any(folder in final.parents for folder in self.owned):
                units.append(final)
        return list(dict.fromkeys(units))

    def switch(self) -> None:
        """Move the staged outputs into place; on any failure undo every move made."""
        if self.switched or self.staging is None:
            return
        trash = self.staging / ".replaced"
        trash.mkdir()
        done: list[tuple[Path, Path, Path | None]] = []
        try:
            for number, final in enumerate(self._units()):
                staged = self.staging / final.relative_to(self.root)
                old = None
                if final.exists() or final.is_symlink():
                    old = trash / str(number)
                    replace(final, old, rename=True, held=final)
                if not staged.exists():  # an owned folder nothing was written into: it goes
                    done.append((final, staged, old))
                    continue
                made = [p for p in [final.parent, *final.parent.parents] if not p.exists()]
                final.parent.mkdir(parents=True, exist_ok=True)
                self.made.extend(made)
                done.append((final, staged, old))
                replace(staged, final, rename=True)
        except OSError as error:
            for final, staged, old in reversed(done):
                with contextlib.suppress(OSError):
                    if final.exists() and not staged.exists():
                        replace(final, staged, rename=True)
                    if old is not None:
                        replace(old, final, rename=True)
            raise OutputProblem(
                f"{error.filename or self.root}: cannot put the outputs in place "
                f"({error.strerror}); the previous files are as they were"
            ) from None
        self.switched = True

    def cleanup(self, failed: bool) -> None:
        if self.staging is not None:
            shutil.rmtree(self.staging, ignore_errors=True)
        if failed:
            for folder in sorted(self.made, key=lambda p: len(p.parts), reverse=True):
                with contextlib.suppress(OSError):
                    folder.rmdir()


#: What every HTML page rating_batch writes says near its top (templates/base.html).
GENERATOR = b'<meta name="generator" content="rating_batch">'


def _ours(path: Path, compiled: re.Pattern[str], relative: str, pages: bool) -> bool:
    """Whether ``path`` is a file or folder this output writes (``pages``: an HTML page
    only when it carries ``GENERATOR`` in its first kilobyte)."""
    if not compiled.fullmatch(relative):
        return False
    if not pages or path.suffix != ".html" or not path.is_file():
        return True
    try:
        with path.open("rb") as page:
            return GENERATOR in page.read(1024)
    except OSError:
        return False


def _ownable(folder: Path, pattern: str, *, pages: bool = False) -> re.Pattern[str]:
    """``pattern`` compiled, once ``folder`` is found to hold nothing else (but helper
    files): else the refusal."""
    compiled = re.compile(pattern)
    if folder.exists():
        if not folder.is_dir():
            raise OutputProblem(f"{folder}: a file is in the way of this output folder")
        foreign = sorted(
            str(p.relative_to(folder))
            for p in folder.rglob("*")
            if not _ours(p, compiled, p.relative_to(folder).as_posix(), pages)
            and not (HELPER_FILES.fullmatch(p.name) and p.is_file())
        )
        if foreign:
            shown = ", ".join(foreign[:5]) + (
                f" and {len(foreign) - 5} more" if len(foreign) > 5 else ""
            )
            raise OutputProblem(
                f"{folder}: holds files rating_batch does not write ({shown}); move them "
                "away or choose another --out (nothing was written)"
            )
    return compiled


def check_outputs(root: Path, folder: Path, pattern: str, *, pages: bool = False) -> None:
    """What writing under ``root`` and owning ``folder`` (``own(folder, pattern)``) would
    refuse, found without writing anything: a dry run's check of its ``--out``."""
    existing = next(p for p in [root, *root.parents] if p.exists() or p.is_symlink())
    if not existing.is_dir():
        raise OutputProblem(
            f"{root}: cannot make this folder: a file is in the way (choose another --out)"
        )
    if not os.access(existing, os.W_OK | os.X_OK):
        raise OutputProblem(f"{existing}: cannot write the outputs there (permission denied)")
    _ownable(folder, pattern, pages=pages)


def _remove_stale_staging(root: Path) -> None:
    """Staging folders left by a killed run (its process is gone)."""
    for folder in root.glob(f"{_STAGING_PREFIX}*"):
        pid = folder.name[len(_STAGING_PREFIX) :].split("-")[0]
        if pid.isdigit() and not alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def staged_outputs(root: Path) -> Iterator[OutputSet]:
    """An OutputSet under ``root``, switched into place when the block ends without error
    (unless the block switched it itself); nothing is left behind otherwise."""
    outputs = OutputSet(root)
    failed = True
    try:
        try:
            yield outputs
        except OSError as error:
            raise OutputProblem(
                f"{root}: cannot write the outputs ({error.strerror or error}); nothing was written"
            ) from None
        outputs.switch()
        failed = False
    finally:
        outputs.cleanup(failed)
