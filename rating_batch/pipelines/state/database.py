"""The part in the database's commands (``pipelines/seam.DatabasePart``) of every system whose
players carry a state: a database made from the system's own list or seeded from a FIDE Elo
list (``init``), a period's list kinds rated from the previous list's states
(``publish``, ``publish.py``), a published list and its states written again
(``export-list``), and a player's values read from the files each publish stored
(``player``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from rating_batch.errors import InputError, Issue, raise_if_errors
from rating_batch.loaders import Progress, read_rating_list
from rating_batch.loaders.statelist import is_state_list
from rating_batch.periods import INITIAL, Period, shown
from rating_batch.pipelines.published import LIST_FILES, PERIOD_FILES, Keeping
from rating_batch.pipelines.rows import RowReader, rows_of
from rating_batch.pipelines.seam import InitRequest, Outcome, Publisher, RuleBook
from rating_batch.pipelines.state.publish import (
    SystemKindOutcome,
    rate_system_kind,
    system_kinds,
    write_system_kind,
)
from rating_batch.pipelines.state.states import (
    numeric_columns,
    read_system_list,
    state_list,
    state_rows,
)
from rating_batch.staging import OutputSet, staged_outputs
from rating_batch.store import Store, create_store
from rating_batch.systems.base import StateSystem
from rating_batch.systems.elo.rules import KINDS
from rating_batch.systems.explain import SystemListPart, SystemPlayerReport
from rating_batch.validation import refuse_repeated_ids
from rating_batch.values import number
from rating_batch.writers import (
    player_text,
    write_csv,
    write_player_html,
    write_player_workbook,
)


@dataclass(frozen=True)
class StateDatabase:
    """The database's commands under ``system``."""

    system: StateSystem

    def init(self, request: InitRequest) -> Outcome:
        r = request
        return init_system_database(
            r.list_path, db=r.db, kind=r.kind or "standard", label=r.period or INITIAL,
            rules_name=r.rules_name, rules_text=r.rules_text, system=self.system,
            from_elo=r.from_elo, encoding=r.encoding,
        )  # fmt: skip

    def publisher(self, book: RuleBook) -> Publisher[SystemKindOutcome]:
        return Publisher(StateLists(book, self.system))

    def also_rated(self, events: pd.DataFrame) -> set[str]:
        return {k for text in events["time_control"] for k in system_kinds(self.system, text)}

    def export(
        self, store: Store, book: RuleBook, period: Period, kinds: list[str],
        stored: dict[str, bytes], out: Path,
    ) -> list[Path]:  # fmt: skip
        return _export_system(store, self.system, period, kinds, stored, out)

    def explain(
        self, store: Store, book: RuleBook, person: dict[str, Any], label: str, out: Path | None
    ) -> str:
        return system_player_report(store, self.system, person, label, rows_of, out)


@dataclass(frozen=True)
class StateLists:
    """A period's list kinds rated from the previous list's states (``publish``), written
    as ``rate`` writes them with the list."""

    book: RuleBook
    system: StateSystem

    def rate(self, store: Store, period: Period, kind: str) -> SystemKindOutcome:
        return rate_system_kind(store, self.system, period, kind)

    def write(
        self, outcomes: list[SystemKindOutcome], period: Period, out: Path,
        outputs: OutputSet, progress: Progress, keeping: Keeping,
    ) -> list[Path]:  # fmt: skip
        outputs.own(out / period, PERIOD_FILES, pages=True)
        return [path for each in outcomes for path in write_system_kind(each, period, out, outputs)]

    def keep(self, store: Store, period: Period, outcome: SystemKindOutcome) -> None:
        store.insert_system_states(outcome.state)
        store.add_list(period, outcome.kind, "publish", self.book.name)

    def lines(self, outcome: SystemKindOutcome) -> list[str]:
        rated = outcome.rated
        counts = rated.status_counts()
        against = "no earlier list" if outcome.previous is None else shown(outcome.previous)
        return [
            f"{outcome.kind}: {len(rated.events)} event(s) under {rated.system.name}; list of "
            f"{len(outcome.listing)} players ({counts['rated']} rated before, {counts['new']} "
            f"new); {counts['unrated']} played but are still unrated; previous list: {against}"
        ]


def init_system_database(
    list_path: Path,
    *,
    db: Path,
    kind: str,
    label: Period,
    rules_name: str,
    rules_text: str | None,
    system: StateSystem,
    from_elo: bool = False,
    encoding: str | None = None,
) -> Outcome:
    """Create a database that rates under ``system`` from a list of one kind: the system's
    own list, or (``from_elo``, or a list without the state columns) an Elo list
    (``encoding``: the list's, when it is not UTF-8)."""
    warnings: list[Issue] = []
    if not from_elo and is_state_list(list_path, system.state, system.optional, system.alone):
        players, state, how = _from_state_list(list_path, system, encoding, label)
    else:
        players, state, how, warnings = _from_elo_list(list_path, system, kind, encoding)
    with create_store(db) as store:
        store.create_tables_content(rules_name, rules_text)
        store.insert_players(players)
        store.insert_system_states(state_rows(system, players["player_id"], state, kind, label))
        store.add_list(label, kind, "init", rules_name)
    rated = int(state[numeric_columns(system)].notna().all(axis=1).sum())
    return Outcome(
        [
            f"created {db} from {list_path}: {len(players)} players, list {label}, "
            f"rules {rules_name}" + (f" ({system.name})" if rules_name != system.name else ""),
            f"{kind}: {rated} players with a state under {system.name}, {how}",
        ],
        warnings,
    )


PLAYER_COLUMNS = (
    "national_id", "federation", "sex", "title", "w_title", "o_title", "foa_title", "birth_year",
)  # fmt: skip


def _registered(ids: pd.Series, identity: pd.DataFrame) -> pd.DataFrame:
    """``players`` rows: a numeric id is a FIDE ID; any other id (``<event>#<rank>`` from an
    earlier players.csv, a national id) is kept as the player's public id."""
    numeric = ids.str.fullmatch(r"\d{1,12}").fillna(False).to_numpy(bool)
    fide = pd.to_numeric(ids.where(numeric), errors="coerce").astype("Int64")
    frame = pd.DataFrame(
        {
            "player_id": np.arange(1, len(ids) + 1),
            "fide_id": fide.to_numpy(),
            "name": identity["name"].fillna("").to_numpy()
            if "name" in identity
            else np.full(len(ids), ""),
        }
    )
    for column in PLAYER_COLUMNS:
        frame[column] = identity[column].to_numpy() if column in identity else None
    frame["created_by"] = np.where(numeric, "list", ids.to_numpy(dtype=object))
    return frame


def _from_state_list(
    path: Path, system: StateSystem, encoding: str | None, month: Period
) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    listed = read_system_list(system, path, encoding, month)  # fmt: skip
    listed = listed.reset_index(drop=True)
    issues: list[Issue] = []
    if "birth_year" in listed:
        text = listed["birth_year"]
        years = pd.to_numeric(text, errors="coerce").astype("Int64")
        wrong = text.notna() & years.isna()
        issues += [
            Issue(str(path), int(line), f"birth_year {value!r} is not a year")
            for line, value in zip(listed["line"][wrong], text[wrong], strict=True)
        ]
        listed["birth_year"] = years
    raise_if_errors(issues[:20])
    players = _registered(listed["id"].astype("string"), listed)
    return players, system.from_list(listed[list(system.state)]), "read from the list"


def _from_elo_list(
    path: Path, system: StateSystem, kind: str, encoding: str | None
) -> tuple[pd.DataFrame, pd.DataFrame, str, list[Issue]]:
    rating_list = read_rating_list(path, kind=kind, encoding=encoding)
    warnings = rating_list.issues
    if kind not in rating_list.kinds:
        raise InputError([Issue(str(path), None, f"the list has no {kind} ratings")])
    frame = rating_list.frame
    refuse_repeated_ids(frame, rating_list.source)
    # A player without a FIDE ID keeps the id our lists give them, else is known by the
    # list's line (their public id).
    ids = frame["id"].astype("Int64").astype("string").fillna(frame["own_id"])
    ids = ids.fillna(frame["national_id"]).fillna("list#" + frame["line"].astype("string"))
    players = _registered(ids, frame)
    seeded = system.from_elo(rating_list.for_kind(kind)["rating"].reset_index(drop=True))
    return players, seeded, f"from the Elo ratings ({system.from_elo_note})", warnings


def _export_system(
    store: Store,
    system: StateSystem,
    label: Period,
    kinds: list[str],
    stored: dict[str, bytes],
    out: Path,
) -> list[Path]:
    """Under another system: a published list's list.csv and list.xlsx as published, and
    for every list state.csv, the unrounded states that ``rate --list`` and ``init`` read
    (docs/formats.md §11)."""
    paths: list[Path] = []
    with staged_outputs(out) as outputs:
        for each in kinds:
            folder = out / ("initial" if label == INITIAL else label) / each
            for name in LIST_FILES:  # as published; state.csv from the database
                data = stored.get(f"{each}/{name}")
                if data is not None:
                    outputs.write_bytes(folder / name, data)
                    paths.append(folder / name)
            write_csv(state_list(store, system, each, label), outputs.path(folder / "state.csv"),
                      exact=True)  # fmt: skip
            paths.append(folder / "state.csv")
    return paths


def system_player_report(
    store: Store,
    system: StateSystem,
    person: dict[str, Any],
    label: str,
    read_rows: RowReader,
    files: Path | None,
) -> str:
    """The player's text report; with ``files`` (``OUT/player-<id>``), the workbook and
    the page too, all or none."""
    report = gather_system_player(store, system, person, label, read_rows)
    if files is not None:
        with staged_outputs(files.parent) as outputs:
            write_player_workbook(report, outputs.path(files.with_name(f"{files.name}.xlsx")))
            write_player_html(report, outputs.path(files.with_name(f"{files.name}.html")))
    return player_text(report)


def gather_system_player(
    store: Store, system: StateSystem, person: dict[str, Any], label: str, read_rows: RowReader
) -> SystemPlayerReport:
    """Every published list of the kinds the player has a state in, from the first that
    holds him: his players.csv row and calculations.csv rows as that publish stored them."""
    lists = store.lists()
    his = store.player_system_periods(int(person["player_id"]))
    # The lists before he received a FIDE ID name him by the id he had (store.former_id).
    former = store.former_id(int(person["player_id"]))
    ids = {label} if former is None else {label, former}
    parts: list[SystemListPart] = []
    for kind, first in his.groupby("kind", sort=False)["period"].min().items():
        of_kind = lists[lists["kind"] == kind].sort_values("period")
        periods = of_kind["period"].tolist()
        published = of_kind[(of_kind["origin"] == "publish") & (of_kind["period"] >= first)]
        for period in published["period"]:
            players = read_rows(store.published_file(period, f"{kind}/players.csv"), ids)
            if players is None or players.empty:
                continue
            rows = read_rows(store.published_file(period, f"{kind}/calculations.csv"), ids)
            earlier = [p for p in periods if p < period]
            parts.append(
                SystemListPart(
                    kind=str(kind),
                    period=Period.parse(str(period)),
                    previous=Period.parse(str(earlier[-1])) if earlier else None,
                    player={str(k): v for k, v in players.iloc[0].items()},
                    rows=rows if rows is not None else pd.DataFrame(),
                )
            )
    federation, title = person["federation"], person.get("title")
    return SystemPlayerReport(
        label=label,
        name=str(person["name"]),
        federation=str(federation) if pd.notna(federation) else None,
        born=number(person["birth_year"]) or None,
        system=system,
        parts=sorted(parts, key=lambda part: (KINDS.index(part.kind), part.period)),
        fide_id=label if pd.notna(person["fide_id"]) else None,
        title=str(title) if pd.notna(title) else None,
    )
