"""Faults of the machine, injected into a real ``rating-batch`` process by the safety tests.

Python imports ``sitecustomize`` at start-up from the path; the tests put this folder on
PYTHONPATH and name the fault in ``RATING_BATCH_FAULT``:

* ``enospc:TEXT``: writing a file whose path contains TEXT fails as on a full disk;
* ``rename:TEXT``: moving a staged output onto a path containing TEXT is refused (as when the
  officer has that file open in a spreadsheet program);
* ``readonly:TEXT``: making folders or writing files under a path containing TEXT is refused,
  as in a read-only folder (the tests run as root, for whom chmod refuses nothing).
"""

from __future__ import annotations

import builtins
import errno
import io
import os

_SPEC = os.environ.get("RATING_BATCH_FAULT", "")
_KIND, _, _WHERE = _SPEC.partition(":")
_real_open = builtins.open
_real_rename = os.rename
_real_mkdir = os.mkdir


def _writing(mode: str) -> bool:
    return any(flag in mode for flag in "wax+")


def _open(file, mode="r", *args, **kwargs):  # type: ignore[no-untyped-def]  # mirrors the builtin's signature
    if _writing(str(mode)) and _WHERE in str(file):
        if _KIND == "enospc":
            raise OSError(errno.ENOSPC, "No space left on device", str(file))
        if _KIND == "readonly":
            raise OSError(errno.EROFS, "Read-only file system", str(file))
    return _real_open(file, mode, *args, **kwargs)


def _rename(source, target, *args, **kwargs):  # type: ignore[no-untyped-def]  # mirrors the builtin's signature
    staged = ".rating-batch-staging-" in str(source) and ".replaced" not in str(source)
    if _WHERE in str(target) and (_KIND == "readonly" or (_KIND == "rename" and staged)):
        raise OSError(errno.EACCES, "Permission denied", str(target))
    return _real_rename(source, target, *args, **kwargs)


def _mkdir(path, *args, **kwargs):  # type: ignore[no-untyped-def]  # mirrors the builtin's signature
    if _KIND == "readonly" and _WHERE in str(path):
        raise OSError(errno.EROFS, "Read-only file system", str(path))
    return _real_mkdir(path, *args, **kwargs)


if os.environ.get("RATING_BATCH_PORTABILITY", "") == "1":
    # Under the portability check this module takes the place of its sitecustomize: that
    # one runs too (tests/portability/sitecustomize.py).
    import runpy

    runpy.run_path(os.path.join(os.path.dirname(__file__), "..", "portability", "sitecustomize.py"))

if _KIND:
    builtins.open = _open
    io.open = _open
    os.rename = _rename
    os.replace = _rename
    os.mkdir = _mkdir
