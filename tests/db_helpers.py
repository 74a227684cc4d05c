"""Helpers of the database tests: the CLI in process, a small database, dumps to compare."""

from __future__ import annotations

import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from trf_text import P, trf

from rating_batch.cli import cli

ADULT = 1980
#: The time control of a rapid event (TRF tag 122).
RAPID = "122 15 minutes + 10 seconds"
SCHEMA_1 = Path(__file__).parent / "data" / "db" / "schema-1.sqlite"
SCHEMA_2 = Path(__file__).parent / "data" / "db" / "schema-2.sqlite"
SCHEMA_3 = Path(__file__).parent / "data" / "db" / "schema-3.sqlite"
SCHEMA_5 = Path(__file__).parent / "data" / "db" / "schema-5.sqlite"
COMMAND = [sys.executable, "-m", "rating_batch"]


def run(*args: object, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """The command line in this process: (exit status, stdout, stderr). An exception the
    command let through is raised here, as the traceback a real process would print: a
    test of a refusal cannot pass on a crash."""
    result = CliRunner().invoke(cli, [str(a) for a in args], env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def run_combined(*args: object) -> tuple[int, str]:
    """The command line in this process: (exit status, stdout and stderr as one text)."""
    result = CliRunner().invoke(cli, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def process(
    *args: object,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    memory: int | None = None,
) -> tuple[int, str, str]:
    """The command line as a real process; with ``memory``, its address space capped at
    that many bytes (a command that would use more fails with MemoryError, instead of making
    the machine swap): Unix only, the test is skipped elsewhere (``make test-portable``)."""
    import os

    def cap() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    if memory is not None:
        pytest.importorskip(
            "resource", reason="caps a command's memory by resource.setrlimit, which is Unix only"
        )

    done = subprocess.run(
        [*COMMAND, *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        preexec_fn=None if memory is None else cap,
        timeout=300,
    )
    return done.returncode, done.stdout, done.stderr


def query(db: Path, sql: str, *parameters: object) -> list[tuple[object, ...]]:
    """Rows of one SELECT on a database (opened and closed around it)."""
    connection = sqlite3.connect(db)
    try:
        return connection.execute(sql, parameters).fetchall()
    finally:
        connection.close()


def dump(db: Path) -> list[str]:
    """Everything a database holds, as SQL (to compare two states): for a command that must
    change nothing at all, not even the undo journal."""
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()


def data_dump(db: Path) -> list[str]:
    """What a database holds but its undo journal (the ``undo_*`` tables: the history of the
    commands, which an undo adds to) and its random id, as SQL: the state an undo must bring
    back exactly, and what two databases made by the same commands hold alike."""
    journal = re.compile(
        r"""(CREATE TABLE|INSERT INTO|CREATE INDEX) "?undo_"""
        r"""|INSERT INTO "meta" VALUES\('database_id'"""
    )
    return [line for line in dump(db) if journal.match(line) is None]


def companions(db: Path) -> dict[str, str]:
    """Every file in the database's folder and below but the database and its ``-wal`` and
    ``-shm`` (the files folder, the backups folder, anything else), by path: its SHA-256."""
    import hashlib

    live = {db.name, f"{db.name}-wal", f"{db.name}-shm"}
    return {
        path.relative_to(db.parent).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(db.parent.rglob("*"))
        if path.is_file() and path.relative_to(db.parent).as_posix() not in live
    }


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by its path relative to it: its bytes."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def write_list(folder: Path, lines: list[str], name: str = "list.csv") -> Path:
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def database(folder: Path, *listing: str, period: str | None = "2026-01") -> Path:
    """A new database from a CSV list (by default two players, 11 at 1600, 12 at 1500), of
    the month ``period`` (None: a list of unknown month)."""
    db = folder / "r.sqlite"
    lines = ["id,rating", *(listing or ("11,1600", "12,1500"))]
    month = () if period is None else ("--period", period)
    code, out, err = run("init", "--list", write_list(folder, lines), *month, "--db", db)
    assert code == 0, out + err
    return db


def event_file(
    folder: Path,
    name: str,
    games: list[tuple[int, int, int, str]],
    *,
    players: list[P] | None = None,
    day: str = "2026/01/10",
    end: str | None = None,
    title: str | None = None,
    extra: tuple[str, ...] = (),
) -> Path:
    """A TRF file of ``games`` between 11 (A, 1600) and 12 (B, 1500) unless ``players``;
    ``extra``: more tag lines (``"122 15 minutes + 10 seconds"`` for a rapid event)."""
    path = folder / f"{name}.trf"
    players = players or [P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT)]
    text = trf(players, games, name=title or name, start=day, end=end or day, extra=extra)
    path.write_text(text, encoding="utf-8")
    return path


def copy_of(source: Path, target: Path) -> Path:
    shutil.copyfile(source, target)
    return target


def rows(path: Path) -> dict[str, dict[str, str]]:
    """A CSV output's rows by ``id``."""
    from conftest import read_csv

    return {row["id"]: row for row in read_csv(path)}


def add_one_game(folder: Path, db: Path) -> Path:
    """An event of January 2026 in which 11 (1600) beats 12 (1500), added to ``db``."""
    event = folder / "e.trf"
    event.write_text(
        trf([P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT)], [(1, 1, 2, "1-0")])
    )
    assert run("add", event, "--db", db)[0] == 0
    return event


#: A newcomer without a FIDE ID: Newbie, Sam, ITA, born 2010.
NEWBIE = {"name": "Newbie, Sam", "birth": 2010, "federation": "ITA"}
#: list.csv, list.xlsx and list.txt: every list a publish writes.
LIST_FILES = ("list.csv", "list.xlsx", "list.txt")


def newcomer_database(folder: Path) -> tuple[Path, Path]:
    """A database that published 2026-02 with a first rating for a player without a FIDE ID,
    and where that list is: the database and the list's folder.

    The initial list: 11 to 16 (Player, P01 … P06, ITA, born 1980) rated 1800 … 1550 and 17
    (Idle, Ian) 1749, K 20 each. n1 (20-22 January): Newbie loses to 11 and 12, draws 13,
    beats 14, 15 and 16: 3.5 of 6 against an average of 1675. Their games against him, still
    unrated, do not count; his first rating (fide-2025) is Ra = (10050 + 2 × 1800) / 8 =
    1706.25 with the two hypothetical draws, p = 4.5 / 8 = 0.5625 → 0.56, dp 43, Ru = 1749.25
    → 1749, K 40 (a junior)."""
    people = [(11 + n, f"Player, P0{n + 1}", 1800 - 50 * n) for n in range(6)]
    listing = write_list(
        folder,
        ["id,name,federation,sex,birth_year,rating,k",
         *(f'{fide},"{name}",ITA,M,1980,{rating},20' for fide, name, rating in people),
         '17,"Idle, Ian",ITA,M,1980,1749,20'],
        name="initial.csv",
    )  # fmt: skip
    db = folder / "r.sqlite"
    code, out, err = run("init", "--list", listing, "--period", "2026-01", "--db", db)
    assert code == 0, out + err
    players = [P(n + 1, name, rating, fide, ADULT, sex="m", federation="ITA")
               for n, (fide, name, rating) in enumerate(people)]  # fmt: skip
    players.append(P(7, NEWBIE["name"], None, None, 2010, sex="m", federation="ITA"))
    games = [(1, 1, 7, "1-0"), (2, 2, 7, "1-0"), (3, 3, 7, "=-="),
             (4, 7, 4, "1-0"), (5, 7, 5, "1-0"), (6, 7, 6, "1-0")]  # fmt: skip
    n1 = folder / "n1.trf"
    n1.write_text(trf(players, games, name="Newbie Event", start="2026/01/20", end="2026/01/22"))
    code, out, err = run("add", n1, "--db", db)
    assert code == 0, out + err
    code, out, err = run("publish", "2026-02", "--db", db, "--out", folder / "lists")
    assert code == 0, out + err
    return db, folder / "lists" / "2026-02" / "standard"


def newcomer_plays(folder: Path) -> Path:
    """February's event: Newbie, Sam (without a FIDE ID again) beats Idle, Ian (17)."""
    players = [P(1, NEWBIE["name"], None, None, 2010, sex="m", federation="ITA"),
               P(2, "Idle, Ian", 1749, 17, ADULT, sex="m", federation="ITA")]  # fmt: skip
    path = folder / "g.trf"
    path.write_text(trf(players, [(1, 1, 2, "1-0")], name="February", start="2026/02/10",
                        end="2026/02/10"))  # fmt: skip
    return path


#: The FIDE ID Newbie, Sam receives in February.
NEWBIE_FIDE_ID = 955555555


def newcomer_with_fide_id(folder: Path, name: str = NEWBIE["name"]) -> Path:
    """February's event: Newbie, Sam, now with FIDE ID 955555555 (written ``name``), beats
    Idle, Ian (17, 1749)."""
    players = [P(1, name, 1749, NEWBIE_FIDE_ID, 2010, sex="m", federation="ITA"),
               P(2, "Idle, Ian", 1749, 17, ADULT, sex="m", federation="ITA")]  # fmt: skip
    path = folder / "g.trf"
    path.write_text(trf(players, [(1, 1, 2, "1-0")], name="February", start="2026/02/10",
                        end="2026/02/10"))  # fmt: skip
    return path


#: One game a list: (the event's time-control tag, A's result against B).
KIND_GAMES = {
    "standard": ((), "1-0"),
    "rapid": ((RAPID,), "=-="),
    "blitz": (("122 3 minutes + 2 seconds",), "0-1"),
}


def three_lists_database(folder: Path) -> Path:
    """A database whose 2026-02 lists of all three kinds are published, one game each.

    List 2026-01: A 11 at 1600 standard, 1610 rapid, 1620 blitz; B 12 100 below in each. K
    20 (adults, 30+ games assumed), D 100 → PD 0.64 (docs/rules.md §2): standard A wins,
    +0.36 × 20 = +7.20; rapid a draw, -0.14 × 20 = -2.80; blitz A loses, -0.64 × 20 =
    -12.80: 1607 in each list. The events are added blitz first, so no order of the reports
    comes from the order they were added in."""
    listing = write_list(
        folder,
        ["id,name,federation,birth_year,rating,rapid_rating,blitz_rating",
         '11,"Alpha, Ann",GER,1980,1600,1610,1620', '12,"Beta, Bob",ESP,1980,1500,1510,1520'],
    )  # fmt: skip
    db = folder / "r.sqlite"
    assert run("init", "--list", listing, "--period", "2026-01", "--db", db)[0] == 0
    players = [P(1, "Alpha, Ann", 1600, 11, ADULT, federation="GER"),
               P(2, "Beta, Bob", 1500, 12, ADULT, federation="ESP")]  # fmt: skip
    for kind, (tags, result) in reversed(KIND_GAMES.items()):
        path = folder / f"{kind}.trf"
        path.write_text(trf(players, [(1, 1, 2, result)], name=f"{kind} open", extra=tags))
        assert run("add", path, "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", folder / "out")[0] == 0
    return db
