"""The files of a published period, under ``OUT/YYYY-MM/KIND/``: the new list (CSV, XLSX,
FIDE-style TXT), the period's players, games and individual calculations, the changes against
the previous list, the report workbook and one HTML page per event."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd

from rating_batch.loaders import Progress, no_progress
from rating_batch.parallel import alongside, worth
from rating_batch.periods import Period, shown
from rating_batch.pipelines.changes import ListCounts
from rating_batch.pipelines.outputs import (
    DETAIL_SHEET_GAMES,
    MAX_EVENT_PAGES,
    PageSource,
    changes_chart_sheet,
    charts_sheet,
    detail_sheets,
    sheets_note,
    write_pages,
)
from rating_batch.pipelines.rated import KindOutcome
from rating_batch.schema import EventInfo
from rating_batch.staging import OutputSet
from rating_batch.systems.elo.adjustment import adjustment_summary
from rating_batch.systems.elo.engine import STATUSES
from rating_batch.systems.elo.rules import Rules
from rating_batch.writers import (
    Sheet,
    write_csv,
    write_list_txt,
    write_workbook,
)

#: What a period's folder holds (paths relative to it): anything else there is not ours.
PERIOD_FILES = (
    r"(standard|rapid|blitz)(/(list\.(csv|xlsx|txt)|players\.csv|games\.csv|"
    r"calculations\.csv|changes\.csv|report\.xlsx|index\.html|msa\.html|"
    r"events(/[^/]+\.html)?|norms\.csv|norms(/[^/]+(/[^/]+\.html)?)?))?"
)


def list_sheets(
    listing: pd.DataFrame, title: str, details: str = "", *, lower_is_better: bool = False
) -> list[Sheet]:
    """A list workbook: the list with each player's rank (equal ratings, equal rank) under
    its title, and its rating distribution as a chart."""
    rank = listing["rating"].rank(method="min", ascending=lower_is_better).astype("Int64")
    ranked = pd.concat([rank.rename("rank"), listing], axis=1)
    heading = [title, details] if details else [title]
    return [
        Sheet("List", frame=ranked, heading=heading, keys=3),  # rank, id, name
        replace(charts_sheet(listing["rating"]), heading=[f"{title}: players by rating"]),
    ]


#: A published list's own files, under every system (``export-list`` writes them again);
#: FIDE Elo's lists add FIDE's TXT layout (``write_list``'s ``txt``).
LIST_FILES = ("list.csv", "list.xlsx")
TXT_LIST = "list.txt"


def write_list(
    listing: pd.DataFrame, sheets: list[Sheet], folder: Path, path: Callable[[Path], Path], *,
    txt: Period | None = None,
) -> list[Path]:  # fmt: skip
    """A list's files (``LIST_FILES``) in ``folder``, each written where ``path`` says (the
    output set's staged path): list.xlsx (``sheets``, ``list_sheets``), list.csv and, with
    ``txt`` (the list's period: FIDE Elo's lists), list.txt; their final paths."""
    names = LIST_FILES if txt is None else (*LIST_FILES, TXT_LIST)
    write_workbook(sheets, path(folder / "list.xlsx"))
    write_csv(listing, path(folder / "list.csv"))
    if txt is not None:
        write_list_txt(listing, path(folder / TXT_LIST), period=txt)
    return [folder / name for name in names]


def list_title(kind: str, period: Period, rules: Rules) -> tuple[str, str]:
    """A list's title and the line below it."""
    return f"Rating list: {kind}, {shown(period)}", f"rules {rules.label()}"


KeptFile = tuple[str, str, bool, int]
"""A written file kept beside the database: its path in the period's folder, its digest,
whether it is kept deflated, its size (``Store.store_files``)."""


@dataclass
class Keeping:
    """What publish does while the period's files are written: each process keeps the files
    it wrote (``keep``: a path in the period's folder and where the file lies now), as soon as
    they are written, and the command's own work (``meanwhile``: the new states stored) is
    done while the children write."""

    keep: Callable[[str, Path], tuple[str, bool, int]] | None = None
    """None: the files are not kept (no database)."""
    meanwhile: Callable[[], None] = lambda: None
    kept: list[KeptFile] = field(default_factory=list)
    folder: Path = Path()
    """The period's folder: a file is kept under its path within it (``name``)."""

    def name(self, final: Path) -> str:
        """A file's path within the period's folder, as it is kept."""
        return final.relative_to(self.folder).as_posix()

    def files(self, files: Sequence[tuple[Path, Path]]) -> list[KeptFile]:
        """The files (each one's final path and where it lies now) kept: what was kept."""
        if self.keep is None:
            return []
        return [(self.name(final), *self.keep(self.name(final), at)) for final, at in files]

    def run_meanwhile(self) -> None:
        """``meanwhile``, once."""
        work, self.meanwhile = self.meanwhile, lambda: None
        work()


def write_period(
    outcomes: list[KindOutcome],
    period: Period,
    out: Path,
    outputs: OutputSet,
    progress: Progress = no_progress,
    keeping: Keeping | None = None,
) -> list[Path]:
    """Every file of the period into ``outputs`` (the period's folder is replaced whole);
    with ``keeping``, the files kept as they are written (``Keeping``)."""
    outputs.own(out / period, PERIOD_FILES, pages=True)
    keeping = keeping or Keeping()
    paths: list[Path] = []
    for outcome in outcomes:
        paths += _write_kind(outcome, period, out, outputs, progress, keeping)
    return paths


def _write_kind(
    outcome: KindOutcome,
    period: Period,
    out: Path,
    outputs: OutputSet,
    progress: Progress,
    keeping: Keeping,
) -> list[Path]:
    """One list's files, on two cores (``parallel.alongside``): the list's files and the
    period's players and games are written while the individual calculations are made; then
    the report workbook while the calculations, the changes and the pages are written, and
    ``keeping.meanwhile`` is done."""
    folder = out / period / outcome.kind
    result = outcome.result
    # The period's players, as ``rate`` shows them: those of its events, and any whose
    # status changed without a game (the whole list is list.csv).
    shown = (result.players["events"] > 0) | result.players["status"].isin(["new", "below_floor"])
    if "adjustment" in result.players:  # and whom the list's adjustment moved (docs/rules.md §7)
        shown |= result.players["adjustment"].fillna(0).gt(0)
    players = result.players[shown.to_numpy(dtype=bool)].drop(
        columns=["first_event_done"] + ([] if outcome.rules.classes else ["class"])
    )
    targets = {
        name: folder / name
        for name in (
            *LIST_FILES,
            TXT_LIST,
            "players.csv",
            "games.csv",
            "calculations.csv",
            "changes.csv",
            "report.xlsx",
        )
    }
    # Staged paths are taken here: the output set records them, and a child's copy of it is
    # not the command's.
    staged = {name: outputs.path(target) for name, target in targets.items()}

    def kept(*names: str) -> list[KeptFile]:
        """The files ``names``, kept beside the database by the process that wrote them."""
        return keeping.files([(targets[name], staged[name]) for name in names])

    def list_files() -> list[KeptFile]:
        """What does not need the individual calculations."""
        sheets = list_sheets(outcome.listing, *list_title(outcome.kind, period, outcome.rules))
        files = write_list(outcome.listing, sheets, folder, lambda at: staged[at.name], txt=period)
        write_csv(players, staged["players.csv"])
        write_csv(result.games, staged["games.csv"])
        return kept(*(file.name for file in files), "players.csv", "games.csv")

    parallel = worth(len(result.games))
    with alongside(list_files, worth=parallel) as listed:
        calculations = outcome.calculations

        def report() -> list[KeptFile]:
            sheets = _report_sheets(outcome, period, players, calculations)
            write_workbook(sheets, staged["report.xlsx"])
            return kept("report.xlsx")

        with alongside(report, worth=parallel) as reported:
            keeping.run_meanwhile()
            write_csv(calculations, staged["calculations.csv"])
            write_csv(outcome.changes, staged["changes.csv"])
            mine = kept("calculations.csv", "changes.csv")
            infos = [_event_info(row) for row in outcome.events.to_dict("records")]

            pages = write_pages(
                outputs,
                folder,
                PageSource(
                    result,
                    infos,
                    {info.key: outcome.rules for info in infos},
                    outcome.entrants,
                    calculations,
                    period,
                ),
                f"{list_title(outcome.kind, period, outcome.rules)[0]}: events and players",
                [
                    ("rules", outcome.rules.label()),
                    ("events", str(len(outcome.events))),
                    ("players on the list", str(len(outcome.listing))),
                    *_adjustment_fact(outcome),
                ],
                progress,
                f"{outcome.kind} event pages",
                keeping.files,  # each page kept by the process that wrote it
            )
            theirs = listed.result() + reported.result()
    keeping.kept += [*theirs, *mine, *pages.kept]
    return [*targets.values(), *pages.paths]


def _adjustment_fact(outcome: KindOutcome) -> list[tuple[str, str]]:
    """The index page's line on a list adjustment the list took (docs/rules.md §7)."""
    players, rules = outcome.result.players, outcome.rules
    if "adjustment" not in players:
        return []
    said = adjustment_summary(rules, players)
    return [
        (
            "list adjustment",
            f"{rules.adjustment_on}: {said} (docs/rules.md §7); players.csv's adjustment column "
            "gives each",
        )
    ]


def _report_sheets(
    outcome: KindOutcome, period: Period, players: pd.DataFrame, calculations: pd.DataFrame
) -> list[Sheet]:
    """report.xlsx: the Summary (counts, events, notes, warnings), the period's players,
    games, calculations and changes, and the charts."""
    result = outcome.result
    counts = result.players["status"].value_counts()
    # The list's counts as changes.csv (the Changes sheet) gives them.
    listed = ListCounts.of(outcome.changes, len(outcome.listing))
    arrivals = [
        ("first ratings", listed.first_ratings),
        ("from their standard rating", listed.from_standard),
    ]
    summary: list[Sequence[object]] = [
        [f"{list_title(outcome.kind, period, outcome.rules)[0]}: period report"],
        [],
        ["Period", period],
        ["List", outcome.kind],
        ["Rules", outcome.rules.label()],
        ["Events", len(outcome.events)],
        ["Players on the new list", listed.listed],
        ["  from the previous list", listed.kept],
        ["  new on the list", listed.new],
        *([f"    {label}", count] for label, count in arrivals if count),
        ["Players who left the list", listed.left],
        ["  below the floor", listed.below_floor],
        ["Players of the period", len(result.players)],
        *([f"  {status}", int(counts.get(status, 0))] for status in STATUSES),
    ]
    summary += [[], ["Events"], ["key", "name", "start", "end", "source"]]
    summary += [
        [key, name, start or "", end or "", source]
        for key, name, start, end, source in outcome.events[
            ["key", "name", "start", "end", "source"]
        ].itertuples(index=False)
    ]
    # As rate's report: above DETAIL_SHEET_GAMES player-games the per-game sheets say where
    # their rows are (games.csv and calculations.csv, beside the workbook).
    per_game = len(result.games) <= DETAIL_SHEET_GAMES
    notes = [
        *outcome.notes,
        *([] if per_game else [sheets_note(len(result.games))]),
    ]
    if len(outcome.events) > MAX_EVENT_PAGES:
        notes.append(
            f"{len(outcome.events):,} events: no HTML pages (written up to "
            f"{MAX_EVENT_PAGES:,}; rate an event on its own for its page)"
        )
    summary += [[], ["Notes"], *([["", note] for note in notes])]
    key_of = dict(zip(outcome.events["source"], outcome.events["key"], strict=True))
    warned = [[key_of.get(w.source, ""), w.message] for w in outcome.warnings]
    summary += [[], ["Warnings"], *(warned or [["", "none"]])]
    heading = f"{outcome.kind} list {period}"
    return [
        Sheet("Summary", rows=summary),
        *detail_sheets(
            players, result.games, calculations, heading, outcome.rules, per_game=per_game
        ),
        Sheet(
            "Changes",
            frame=outcome.changes,
            heading=[f"Changes against the previous list — {heading}"],
            keys=3,  # change, id, name
        ),
        replace(charts_sheet(outcome.listing["rating"]), heading=[heading]),
        replace(changes_chart_sheet(result.players), heading=[heading]),
    ]


def _event_info(row: Mapping[Hashable, object]) -> EventInfo:
    """A stored event's metadata, for its HTML page."""
    end, start = row["end"], row["start_date"]
    return EventInfo(
        key=str(row["key"]),
        name=str(row["name"]),
        source=str(row["source"]),
        start=start if isinstance(start, dt.date) else None,
        end=dt.date.fromisoformat(str(end)) if isinstance(end, str) and end else None,
        time_control=str(row["time_control"] or ""),
    )
