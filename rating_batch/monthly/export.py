"""``export-list``: a stored list written again (list.csv, list.xlsx, list.txt). A published
list is written as it was published (its stored files); the initial list from its ratings.
Read-only: the database is never changed."""

from __future__ import annotations

from pathlib import Path

from rating_batch.errors import RatingBatchError
from rating_batch.monthly.common import player_ids, read_state, rule_book
from rating_batch.monthly.outputs import list_sheets, list_title
from rating_batch.monthly.states import state_list
from rating_batch.periods import INITIAL, Period, canonical_period, shown
from rating_batch.staging import staged_outputs
from rating_batch.store import Store, open_store
from rating_batch.systems import StateSystem
from rating_batch.systems.elo.state import listing_of
from rating_batch.writers import write_csv, write_list_txt, write_workbook

LIST_FILES = ("list.csv", "list.xlsx", "list.txt")

#: The list files a publish under another system writes.
SYSTEM_LIST_FILES = ("list.csv", "list.xlsx")


def export_list(period: str, *, db: Path, out: Path, kind: str | None = None) -> list[Path]:
    """Write a stored list (``initial``, or a published ``YYYY-MM``) as list.csv, .xlsx and
    .txt under ``OUT/PERIOD/KIND/``."""
    with open_store(db) as store:
        lists = store.lists()
        if period == "initial":
            label = store.initial_period() or INITIAL
        else:
            label = canonical_period(period)
        chosen = lists[(lists["period"] == label) & ((lists["kind"] == kind) if kind else True)]
        if chosen.empty:
            known = ", ".join(
                f"{shown(p)} {k}" for p, k in zip(lists["period"], lists["kind"], strict=True)
            )
            raise RatingBatchError(
                f"no {kind + ' ' if kind else ''}list {period} in {db} (known: {known or 'none'})"
            )
        stored = dict(store.published_files(label)) if label != INITIAL else {}
        book = rule_book(store)
        people = store.players()
        paths: list[Path] = []
        if book.system is not None:
            return _export_system(store, book.system, label, list(chosen["kind"]), stored, out)
        with staged_outputs(out) as outputs:
            for each in chosen["kind"]:
                folder = out / ("initial" if label == INITIAL else label) / each
                files = {name: stored.get(f"{each}/{name}") for name in LIST_FILES}
                kept = {name: data for name, data in files.items() if data is not None}
                if len(kept) == len(files):
                    for name, data in kept.items():
                        outputs.write_bytes(folder / name, data)
                else:
                    rules = book.for_period(label).for_kind(each)
                    state = read_state(store, each, label)
                    table = people.assign(id=player_ids(people))
                    listing = listing_of(
                        state.assign(inactive=state["inactive"].astype(bool)), table, rules
                    )
                    write_csv(listing, outputs.path(folder / "list.csv"))
                    write_workbook(
                        list_sheets(listing, *list_title(each, label, rules)),
                        outputs.path(folder / "list.xlsx"),
                    )
                    write_list_txt(listing, outputs.path(folder / "list.txt"), period=label)
                paths.extend(folder / name for name in LIST_FILES)
    return paths


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
            for name in SYSTEM_LIST_FILES:
                data = stored.get(f"{each}/{name}")
                if data is not None:
                    outputs.write_bytes(folder / name, data)
                    paths.append(folder / name)
            write_csv(state_list(store, system, each, label), outputs.path(folder / "state.csv"),
                      exact=True)  # fmt: skip
            paths.append(folder / "state.csv")
    return paths
