"""tests/long_tests.txt names only tests that are there: a test renamed or deleted since
``make long-tests`` is told here, not left out of ``make test-fast`` unseen."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from budget import long_tests

ROOT = Path(__file__).parent.parent


@cache  # each module parsed once, however many of its tests are listed
def _test_functions(module: Path) -> set[str]:
    tree = ast.parse(module.read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_every_long_test_is_a_test_function_of_its_module() -> None:
    names = long_tests()
    assert names, "the list is read"
    missing = []
    for name in sorted(names):
        path, _, function = name.partition("::")
        module = ROOT / path
        if not module.is_file() or function not in _test_functions(module):
            missing.append(name)
    assert missing == [], f"not tests any more (run `make long-tests`): {missing}"
