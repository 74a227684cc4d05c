"""``Store``: every SQL statement of the rating database, each behind a named method.

Commands (``rating_batch.monthly``) never write SQL: they ask the store for frames and
give it frames to keep. Writing methods run inside the command's transaction
(``Store.writing()``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pandas as pd

from rating_batch.errors import RatingBatchError
from rating_batch.periods import INITIAL, Period
from rating_batch.store.events import EventQueries
from rating_batch.store.opening import open_database

T = TypeVar("T")


class Store(EventQueries):
    """An open rating database (``open_store``/``create_store``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._states: dict[tuple[str, str], pd.DataFrame] = {}
        """``state`` read once per (kind, period) until ratings are written again."""

    # -- meta -----------------------------------------------------------------------------------

    def meta(self, key: str) -> str | None:
        row = self.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # -- lists ----------------------------------------------------------------------------------

    def lists(self) -> pd.DataFrame:
        """Every known list: period, kind, origin (init/publish), rules, edit_mark."""
        return self.frame(
            "SELECT period, kind, origin, rules, edit_mark FROM lists ORDER BY period, kind"
        )

    def initial_period(self) -> Period | None:
        row = self.execute("SELECT MIN(period) FROM lists WHERE origin = 'init'").fetchone()
        return None if row[0] is None else Period.parse(str(row[0]))

    def last_published(self) -> Period | None:
        """The latest published period, over every list kind."""
        row = self.execute("SELECT MAX(period) FROM lists WHERE origin = 'publish'").fetchone()
        return None if row[0] is None else Period.parse(str(row[0]))

    def add_list(self, period: Period, kind: str, origin: str, rules: str) -> None:
        """A new list, marked with the last player edit it has seen (corrections after it
        are the next list's)."""
        self.execute(
            "INSERT INTO lists (period, kind, origin, rules, edit_mark) "
            "VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(edit_id), 0) FROM player_edits))",
            (period, kind, origin, rules),
        )

    def edit_mark(self, period: Period, kind: str) -> int:
        row = self.execute(
            "SELECT edit_mark FROM lists WHERE period = ? AND kind = ?", (period, kind)
        ).fetchone()
        return 0 if row is None else int(row[0])

    # -- rating states --------------------------------------------------------------------------

    def state(self, kind: str, period: Period) -> pd.DataFrame:
        """Every player's rating state in ``kind`` as of ``period`` (latest row ≤ period).

        Read once per command (a publish asks for the list in force for every event). Each
        player's latest row is found by his key (one look-up a player, in player order), not
        by grouping every row of the history: a list of the tenth year costs what the first
        one does."""
        if (kind, period) not in self._states:
            self._states[kind, period] = self.frame(
                """
                SELECT r.* FROM players p CROSS JOIN ratings r
                WHERE r.player_id = p.player_id AND r.kind = ?1 AND r.period = (
                    SELECT MAX(l.period) FROM ratings l
                    WHERE l.player_id = p.player_id AND l.kind = ?1 AND l.period <= ?2)
                ORDER BY p.player_id
                """,
                (kind, period),
            )
        return self._states[kind, period].copy()

    def list_ratings(self, kind: str) -> pd.DataFrame:
        """Every list of ``kind`` (the initial one and each published one) as its rows:
        period, player_id, rating, birth_year; a row per rated player (inactive ones too) on
        each list, by period and player. Each player's state is found by his key, as in
        ``state``: a list costs what the list before it did."""
        return self.frame(
            """
            SELECT l.period, p.player_id, r.rating, p.birth_year
            FROM lists l CROSS JOIN players p CROSS JOIN ratings r
            WHERE l.kind = ?1 AND r.player_id = p.player_id AND r.kind = ?1 AND r.period = (
                SELECT MAX(x.period) FROM ratings x
                WHERE x.player_id = p.player_id AND x.kind = ?1 AND x.period <= l.period)
              AND r.rating IS NOT NULL
            ORDER BY l.period, p.player_id
            """,
            (kind,),
        )

    def insert_ratings(self, rows: pd.DataFrame) -> None:
        self._states.clear()
        self._insert("ratings", rows)

    def pending(self, kind: str, period: Period) -> pd.DataFrame:
        """The first-rating pool kept after ``period``'s list."""
        return self.frame(
            "SELECT * FROM pending WHERE kind = ? AND period = ? "
            "ORDER BY player_id, event_id, round",
            (kind, period),
        )

    def pending_games(self, kind: str, period: Period) -> pd.DataFrame:
        """The pool kept after ``period``'s list with each game's event key and opponent
        (player_id, event, round, opponent_rating, half, game_period, opponent_player): the
        opponent's start rank from the event's games, him from its entries."""
        pool = self.frame(
            """
            SELECT p.player_id, e.key AS event, p.round, p.opponent_rating, p.half,
                   p.game_period, p.event_id, me.start_rank
            FROM pending p
            JOIN events e ON e.event_id = p.event_id
            LEFT JOIN event_players me
              ON me.event_id = p.event_id AND me.player_id = p.player_id
            WHERE p.kind = ? AND p.period = ?
            ORDER BY p.player_id, p.game_period, p.event_id, p.round
            """,
            (kind, period),
        )
        events = sorted({int(e) for e in pool["event_id"]})
        games = self.games_of(events)[["event_id", "round", "start_rank", "opponent_rank"]]
        seats = self._seats(events).rename(
            columns={"start_rank": "opponent_rank", "player_id": "opponent_player"}
        )
        found = pool.merge(games, on=["event_id", "round", "start_rank"], how="left")
        found = found.merge(seats, on=["event_id", "opponent_rank"], how="left")
        return found[
            ["player_id", "event", "round", "opponent_rating", "half", "game_period",
             "opponent_player"]
        ]  # fmt: skip

    def store_publication(
        self, period: Period, kind: str, ratings: pd.DataFrame, pool: pd.DataFrame, rules: str
    ) -> None:
        """A published list: the changed states, the pool after it, and the list itself."""
        self.insert_ratings(ratings)
        self._insert("pending", pool)
        self.add_list(period, kind, "publish", rules)

    def unpublish(self, period: Period) -> dict[str, int]:
        """Everything a publish of ``period`` stored (its lists, states, pools and files);
        how many rows of each were removed."""
        removed = {}
        # By kind and period (the tables' index), not by reading every row of the history.
        kinds = [str(kind) for (kind,) in self.execute("SELECT DISTINCT kind FROM lists")]
        of_period = f"kind IN ({', '.join('?' * len(kinds))}) AND period = ?"
        for table in ("ratings", "pending", "published_files", "lists"):
            where = of_period if table == "ratings" else "period = ?"
            parameters = (*kinds, period) if table == "ratings" else (period,)
            cursor = self.execute(f"DELETE FROM {table} WHERE {where}", parameters)
            removed[table] = cursor.rowcount
        # A system's state is a row per column: counted as the players' states it held.
        states = self.execute(
            "SELECT COUNT(*) FROM (SELECT DISTINCT player_id, kind FROM system_states "
            f"WHERE {of_period})",
            (*kinds, period),
        ).fetchone()[0]
        self.execute(f"DELETE FROM system_states WHERE {of_period}", (*kinds, period))
        removed["ratings"] += int(states)
        self._states.clear()
        return removed

    # -- the other rating systems' states -------------------------------------------------------

    def system_state(self, kind: str, period: Period) -> pd.DataFrame:
        """Every player's state under a rating system in ``kind`` as of ``period``, long:
        player_id, name (the state column), value (each player's latest rows ≤ period)."""
        return self.frame(
            """
            SELECT s.player_id, s.name, s.value FROM players p CROSS JOIN system_states s
            WHERE s.player_id = p.player_id AND s.kind = ?1 AND s.period = (
                SELECT MAX(l.period) FROM system_states l
                WHERE l.player_id = p.player_id AND l.kind = ?1 AND l.period <= ?2)
            ORDER BY s.player_id, s.name
            """,
            (kind, period),
        )

    def player_system_periods(self, player_id: int) -> pd.DataFrame:
        """The lists (kind, period) where a player's system state was set: the list init
        read and the published ones (a state unchanged since init is on every list after it)."""
        return self.frame(
            "SELECT DISTINCT s.kind, s.period FROM system_states s JOIN lists l "
            "ON l.period = s.period AND l.kind = s.kind AND l.origin IN ('publish', 'init') "
            "WHERE s.player_id = ? ORDER BY s.period, s.kind",
            (player_id,),
        )

    def insert_system_states(self, rows: pd.DataFrame) -> None:
        """Rows of player_id, kind, period, name, value."""
        self._insert("system_states", rows)

    # -- published files ------------------------------------------------------------------------

    def keep_file(self, path: str, where: Path) -> tuple[str, bool, int]:
        """A published file (``path`` within the period's folder, lying at ``where``) kept
        beside the database (``store/files.py``): its digest, whether it is kept deflated, its
        size. No SQL: a forked child may call it for the files it wrote."""
        return self.files.keep(path, where)

    def store_files(
        self,
        period: Period,
        files: Sequence[tuple[str, Path]],
        meanwhile: Callable[[], None] = lambda: None,
        kept: Sequence[tuple[str, str, bool, int]] = (),
    ) -> None:
        """The files the publish of ``period`` wrote (each path within the period's folder,
        and where it lies now): their bytes kept beside the database by two threads, which
        SHA-256 and deflate leave free to run at once, while ``meanwhile`` runs here; then a
        row for each, and for the files ``kept`` already (path, digest, deflated, size)."""
        with ThreadPoolExecutor(max_workers=2) as pool:
            keeping = [pool.submit(self.keep_file, path, where) for path, where in files]
            meanwhile()
            rows = [
                (period, path, digest, int(compressed), size)
                for (path, _), (digest, compressed, size) in zip(
                    files, (each.result() for each in keeping), strict=True
                )
            ]
        rows += [
            (period, path, digest, int(compressed), size) for path, digest, compressed, size in kept
        ]
        self.connection.executemany(
            "INSERT INTO published_files (period, path, digest, compressed, size) "
            "VALUES (?, ?, ?, ?, ?)",
            rows,
        )

    def published_files(self, period: Period) -> Iterator[tuple[str, bytes]]:
        """The files a publish of ``period`` wrote, by path within the period's folder."""
        rows = self.execute(
            "SELECT path, digest, compressed FROM published_files WHERE period = ? ORDER BY path",
            (period,),
        ).fetchall()
        for path, digest, compressed in rows:
            yield str(path), self._kept(str(digest), bool(compressed))

    def published_paths(self, period: Period) -> list[str]:
        """The paths of the files a publish of ``period`` wrote (in its period's folder),
        without reading them."""
        rows = self.execute(
            "SELECT path FROM published_files WHERE period = ? ORDER BY path", (period,)
        ).fetchall()
        return [str(path) for (path,) in rows]

    def published_file(self, period: Period, path: str) -> bytes | None:
        """One file a publish of ``period`` wrote (None if it is not stored)."""
        row = self.execute(
            "SELECT digest, compressed FROM published_files WHERE period = ? AND path = ?",
            (period, path),
        ).fetchone()
        if row is None:
            return None
        return self._kept(str(row[0]), bool(row[1]))

    def published_digest(self, period: Period, path: str) -> str | None:
        """The SHA-256 (hexadecimal) of one file a publish of ``period`` wrote, without
        reading it (None if it is not stored): a cache of its rows is named by it."""
        row = self.execute(
            "SELECT digest FROM published_files WHERE period = ? AND path = ?", (period, path)
        ).fetchone()
        return None if row is None else str(row[0])

    def _kept(self, digest: str, compressed: bool) -> bytes:
        try:
            return self.files.get(digest, compressed)
        except RatingBatchError as error:
            raise RatingBatchError(f"{self.path}: {error}") from None

    def kept_files(self) -> list[tuple[str, bool]]:
        """Every published file the database names (digest, deflated), once each."""
        return [
            (str(digest), bool(compressed))
            for digest, compressed in self.execute(
                "SELECT DISTINCT digest, compressed FROM published_files ORDER BY digest"
            )
        ]

    def published_names(self) -> dict[str, str]:
        """Each kept file's digest → the first published file it holds (``period/path``), to
        name a copy as the officer knows it."""
        named: dict[str, str] = {}
        for digest, period, path in self.execute(
            "SELECT digest, period, path FROM published_files ORDER BY period, path"
        ):
            named.setdefault(str(digest), f"{period}/{path}")
        return named

    def has_published_files(self, period: Period) -> bool:
        row = self.execute(
            "SELECT COUNT(*) FROM published_files WHERE period = ?", (period,)
        ).fetchone()
        return bool(row[0])

    # -- reading beside -------------------------------------------------------------------------

    @contextlib.contextmanager
    def reading_aside(self, work: Callable[[Store], T]) -> Iterator[Future[T]]:
        """``work`` run by a thread of its own on a second, read-only connection, while the
        block reads the rest (SQLite reads without holding Python's lock): its result is the
        future's. The second connection sees what is committed: once this command has
        written anything, ``work`` is done here instead, before the block."""

        def read() -> T:
            with open_database(self.path, Store) as other:
                return work(other)

        if not self.unwritten():
            done: Future[T] = Future()
            done.set_result(work(self))
            yield done
            return
        with ThreadPoolExecutor(max_workers=1) as pool:
            yield pool.submit(read)

    # -- writing --------------------------------------------------------------------------------

    def create_tables_content(self, rules_name: str, rules_text: str | None) -> None:
        """What a new database knows of its rules."""
        self.set_meta("rules", rules_name)
        if rules_text is not None:
            self.set_meta("rules_text", rules_text)


__all__ = ["INITIAL", "Store"]
