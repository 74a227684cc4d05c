"""The package's imports drawn as a house (docs/architecture.md, "The house"): every module's
imports of the package's own modules, read with ``ast`` (nothing is imported or run), grouped
into rooms (a module, or a folder until it is opened), rooms stacked on floors (a room stands
above everything it imports), arrows back up (an import that closes a circle between rooms)
and circles between modules.

``python tests/layers.py [FOLDER ...]`` prints the figures with the named folders opened;
tests/test_layers.py holds the rules."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "rating_batch"
NAME = "rating_batch"


@dataclass(frozen=True)
class Import:
    """One import of a package module by another: where, and whether it runs at import time
    (module level, ``TYPE_CHECKING`` blocks included) or inside a function."""

    source: str
    target: str
    line: int
    module_level: bool


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (``rating_batch.systems.elo.k``)."""
    found: dict[str, Path] = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _target(name: str, known: Mapping[str, Path]) -> str | None:
    """The package module an imported name lives in (``a.b.c`` of ``from a.b import c`` is
    the module ``a.b.c`` when there is one, else ``a.b``)."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports(package: Path = PACKAGE) -> list[Import]:
    """Every import of a package module by a package module."""
    known = modules(package)
    found: list[Import] = []
    for source, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        for node, module_level in _walk(tree.body, True):
            for name in _names(node, source, is_package):
                target = _target(name, known)
                if target and target != source and target.startswith(NAME):
                    found.append(Import(source, target, node.lineno, module_level))
    return found


def _walk(body: Iterable[ast.stmt], module_level: bool) -> Iterable[tuple[ast.stmt, bool]]:
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, module_level
        inside = module_level and not isinstance(
            node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
        )
        for field in ("body", "orelse", "finalbody", "handlers"):
            children = getattr(node, field, None)
            if isinstance(children, list):
                stmts = [c for c in children if isinstance(c, ast.stmt | ast.excepthandler)]
                for child in stmts:
                    if isinstance(child, ast.excepthandler):
                        yield from _walk(child.body, inside)
                    else:
                        yield from _walk([child], inside)


def _names(node: ast.stmt, source: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    assert isinstance(node, ast.ImportFrom)
    base = node.module or ""
    if node.level:
        anchor = source if is_package else source.rpartition(".")[0]
        for _ in range(node.level - 1):
            anchor = anchor.rpartition(".")[0]
        base = f"{anchor}.{base}" if base else anchor
    return [f"{base}.{alias.name}" for alias in node.names] or [base]


def room(module: str, opened: Iterable[str] = ()) -> str:
    """The room a module is in: the first name below the package, or deeper inside an
    opened folder (``systems`` opened: ``systems/elo``, ``systems/k``... )."""
    parts = module.split(".")[1:]
    if not parts:
        return "__init__"
    depth = 1
    while ".".join(parts[:depth]) in set(opened) and depth < len(parts):
        depth += 1
    here = "/".join(parts[:depth])
    is_folder = (PACKAGE / here).is_dir()
    return f"{here}/" if is_folder else here


@dataclass(frozen=True)
class House:
    rooms: list[str]
    arrows: set[tuple[str, str]]
    back_up: list[tuple[str, str]]
    floors: dict[str, int]
    circles: list[list[str]]


def house(opened: Iterable[str] = (), found: list[Import] | None = None) -> House:
    """The house with ``opened`` folders opened (``"systems"``, ``"pipelines"``); arrows back
    up are the imports a depth-first walk finds closing a circle between rooms, floors are
    counted over the others."""
    opened = list(opened)
    found = imports() if found is None else found
    module_level = [each for each in found if each.module_level]
    rooms = sorted({room(m, opened) for m in modules()})
    arrows = {(room(i.source, opened), room(i.target, opened)) for i in module_level}
    arrows = {(a, b) for a, b in arrows if a != b}
    back = _back_edges(rooms, arrows)
    dag = arrows - set(back)
    floors: dict[str, int] = {}

    def floor(name: str) -> int:
        if name not in floors:
            floors[name] = 1 + max((floor(b) for a, b in dag if a == name), default=0)
        return floors[name]

    for name in rooms:
        floor(name)
    every = {(i.source, i.target) for i in found}
    return House(rooms, arrows, back, floors, _circles(every))


def _back_edges(rooms: list[str], arrows: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """The arrows running against an order of the rooms that few arrows run against (Eades,
    Lin and Smyth's greedy order: sinks to the bottom, sources to the top, else the room with
    most arrows out over in); none when the rooms import each other in no circle."""
    left = set(rooms)
    top: list[str] = []
    bottom: list[str] = []

    def degree(name: str, out: bool) -> int:
        return sum(1 for a, b in arrows if (a if out else b) == name and {a, b} <= left)

    while left:
        changed = True
        while changed:
            changed = False
            for name in sorted(left):
                if degree(name, True) == 0:
                    bottom.insert(0, name)
                    left.discard(name)
                    changed = True
                elif degree(name, False) == 0:
                    top.append(name)
                    left.discard(name)
                    changed = True
        if left:
            best = max(sorted(left), key=lambda n: degree(n, True) - degree(n, False))
            top.append(best)
            left.discard(best)
    place = {name: i for i, name in enumerate(top + bottom)}
    return sorted((a, b) for a, b in arrows if place[a] > place[b])


def _circles(edges: set[tuple[str, str]]) -> list[list[str]]:
    """Sets of modules importing each other (Tarjan), function-level imports included."""
    out: dict[str, list[str]] = {}
    for a, b in edges:
        out.setdefault(a, []).append(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    result: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in out.get(v, []):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group: list[str] = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                result.append(sorted(group))

    for v in sorted(out):
        if v not in index:
            strong(v)
    return result


def main(opened: list[str]) -> None:
    drawn = house(opened)
    counts = [len(drawn.rooms), max(drawn.floors.values()), len(drawn.arrows)]
    print("rooms {}, floors {}, arrows {}".format(*counts), end=", ")
    print(f"arrows back up {len(drawn.back_up)}, circles {len(drawn.circles)}")
    for level in sorted(set(drawn.floors.values()), reverse=True):
        names = sorted(n for n, f in drawn.floors.items() if f == level)
        print(f"floor {level:2}  {', '.join(names)}")
    for a, b in drawn.back_up:
        print(f"back up: {a} -> {b}")
    for circle in drawn.circles:
        print("circle:", " ".join(circle))


if __name__ == "__main__":
    sys.setrecursionlimit(10_000)
    main(sys.argv[1:])
