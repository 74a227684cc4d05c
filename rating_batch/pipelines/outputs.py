"""A rated period's files, as ``rate`` writes them and as ``publish`` writes a list kind's,
under any system: the CSVs, report.xlsx and the HTML pages. Under FIDE Elo
(``write_rate_outputs``) report.xlsx has its detail and chart sheets and the event pages are
written beside the index (on two cores from ``PARALLEL_PAGES`` events); under another system
(``write_system_outputs``) the system's own columns, constants and calculations."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import pandas as pd

from rating_batch.loaders import (
    Progress,
    no_progress,
)
from rating_batch.parallel import alongside, beside
from rating_batch.pipelines.rated import RateResult, SystemRateResult
from rating_batch.schema import EventInfo, combined
from rating_batch.staging import OutputSet, staged_outputs
from rating_batch.systems.base import rating_key
from rating_batch.systems.elo.calculations import (
    calculation_rows,
    change_distribution,
    individual_calculations,
    rating_distribution,
)
from rating_batch.systems.elo.engine import PeriodResult
from rating_batch.systems.elo.pages import (
    EventPages,
    entrants_of,
    event_pages,
    index_events,
    index_page,
)
from rating_batch.systems.elo.reasons import ro_k_notes
from rating_batch.systems.elo.rules import Rules
from rating_batch.systems.params import described
from rating_batch.writers import (
    CALCULATION_LABELS,
    GAME_LABELS,
    MAX_DETAIL_ROWS,
    PLAYER_LABELS,
    EventRows,
    Sheet,
    event_rows,
    msa,
    write_calculations_sheet,
    write_chart_sheet,
    write_csv,
    write_event_html,
    write_index_html,
    write_workbook,
)
from rating_batch.writers.html import SystemPage, write_system_html
from rating_batch.writers.workbook import report_sheet, with_notation

Keep = Callable[[Sequence[tuple[Path, Path]]], list[Any]]
"""Keeps files as soon as they are written (publish keeps each beside its database): given
each file's final and staged path, keeps them and returns what it kept."""


#: ``rate`` writes event pages by default for at most this many events and ``PAGE_GAMES``
#: player-games (one event always: the per-event use); above, with ``--pages``. A page costs
#: ~12 µs a player-game (2×10^5 player-games, 665 events: 2.5 s of a 7 s command), so the
#: bounds keep the pages of a small run under ~0.3 s (docs/performance.md, issue 42).
PAGES_BY_DEFAULT = 20
PAGE_GAMES = 20_000
#: Above this many player-games ``rate``'s report.xlsx holds no Games and Calculations sheets
#: (games.csv and calculations.csv hold the rows; each sheet says so): they were 1.2 s of
#: 1.4 s of the workbook at 2×10^5, and cut at ``MAX_DETAIL_ROWS`` anyway.
DETAIL_SHEET_GAMES = 20_000


def pages_by_default(events: int, player_games: int) -> bool:
    """Whether ``rate`` writes the event pages unless told (``--pages``/``--no-pages``)."""
    return events == 1 or (events <= PAGES_BY_DEFAULT and player_games <= PAGE_GAMES)


def pages_note(events: int, player_games: int, asked: bool = False) -> str:
    """What the index and the summary say of event pages left out: by default, or ``asked``
    (``--no-pages``)."""
    size = f"{events:,} event{'' if events == 1 else 's'}, {player_games:,} player-games"
    if events > MAX_EVENT_PAGES:
        return f"{size}: no event pages above {MAX_EVENT_PAGES:,} events (rate an event alone)"
    if asked:
        return f"{size}: event pages left out (--no-pages)"
    return (
        f"{size}: event pages are written on request above {PAGES_BY_DEFAULT} events or "
        f"{PAGE_GAMES:,} player-games (rate the same files again with --pages)"
    )


def sheets_note(player_games: int) -> str:
    """What report.xlsx says of the per-game sheets it leaves out (``DETAIL_SHEET_GAMES``)."""
    return (
        f"{player_games:,} player-games: the Games and Calculations sheets are left out above "
        f"{DETAIL_SHEET_GAMES:,}: games.csv and calculations.csv hold every row"
    )


def write_rate_outputs(rated: RateResult, out: Path, pages: bool | None = None) -> list[Path]:
    """players.csv, games.csv, calculations.csv, report.xlsx and the event pages, all or
    none. ``pages``: whether to write the event pages (None: ``pages_by_default``); without
    them the index lists the events unlinked and says how to get them, as does the summary
    (``rated.output_notes``). Above ``DETAIL_SHEET_GAMES`` player-games the workbook's
    per-game sheets only say where their rows are."""
    hidden = ["first_event_done"] + ([] if rated.rules.classes else ["class"])
    players = rated.players.drop(columns=hidden)
    games = rated.games
    asked = pages is not None
    if pages is None:
        pages = pages_by_default(len(rated.events), len(games))
    # As publish: past MAX_EVENT_PAGES events no pages, asked for or not (the index says so).
    pages = pages and len(rated.events) <= MAX_EVENT_PAGES
    on_request = None if pages else pages_note(len(rated.events), len(games), asked)
    light = len(games) > DETAIL_SHEET_GAMES
    rated.output_notes = [
        *([on_request] if on_request else []),
        *([sheets_note(len(games))] if light else []),
    ]
    events = rated.result.player_events.assign(
        id=lambda frame: rated.players["id"].to_numpy()[frame["pidx"].to_numpy()]
    )[["id", "event", "games", "score", "expected", "change"]]
    calculations = individual_calculations(rated.result, rated.rules)
    paths = [out / "players.csv", out / "games.csv", out / "calculations.csv", out / "report.xlsx"]
    heading = rated.heading()
    with staged_outputs(out) as outputs:
        # The folder's pages are this run's: a page of an event no longer rated goes.
        outputs.own(out / "events", r"[^/]+\.html", pages=True)
        # Staged paths are recorded here, not in the child (``beside``).
        report_book, calculations_csv = outputs.path(paths[3]), outputs.path(paths[2])

        def workbook() -> None:
            # calculations.csv too: a child (beside the pages) has less to do than they.
            write_csv(calculations, calculations_csv)
            write_workbook(
                [
                    Sheet("Summary", rows=rated.summary_rows()),
                    *detail_sheets(
                        players, games, calculations, heading, rated.rules, per_game=not light
                    ),
                    Sheet(
                        "Player events",
                        frame=events,
                        heading=[f"Player events — {heading}"],
                        labels=PLAYER_LABELS,
                        keys=2,  # id, event
                    ),
                    replace(
                        charts_sheet(
                            rated.players["new_rating"].where(
                                rated.players["status"].isin(["rated", "new"])
                            )
                        ),
                        heading=[heading],
                    ),
                    replace(changes_chart_sheet(rated.players), heading=[heading]),
                ],
                report_book,
            )

        # A child for the workbook only beside the pages: without them the two halves are
        # ~0.5 s each at 2x10^5 and the fork of a 300 MB process costs more processor time
        # (~0.35 s, copied pages) than the wall time it saves on a shared machine.
        with alongside(workbook, worth=pages) as child:
            write_csv(players, outputs.path(paths[0]))
            write_csv(games, outputs.path(paths[1]))
            paths += write_pages(
                outputs,
                out,
                PageSource(
                    rated.result,
                    [event.info for event in rated.events],
                    rated.event_rules,
                    entrants_of(combined(rated.events, "players")),
                    calculations,
                ),
                f"Rating report: {heading}",
                [
                    ("rules", rated._editions()),
                    ("events", str(len(rated.events))),
                    ("players", str(len(rated.players))),
                    ("counted games", str(int(games["counted"].sum()))),
                ],
                on_request=on_request,
            ).paths
            child.result()
    return paths


#: More events than this get no HTML pages (each page is for posting one event).
MAX_EVENT_PAGES = 1_000


@dataclass(frozen=True)
class PageSource:
    """What the HTML pages of a rated period are made from."""

    result: PeriodResult
    infos: Sequence[EventInfo]
    event_rules: Mapping[str, Rules]
    entrants: pd.DataFrame
    """Every event's players as its file lists them (``pages.ENTRANT_COLUMNS``)."""
    calculations: pd.DataFrame
    period: str = ""


@dataclass(frozen=True)
class WrittenPages:
    """The pages written (their final paths) and what ``keep`` kept of them."""

    paths: list[Path]
    kept: list[Any]


def write_pages(
    outputs: OutputSet,
    folder: Path,
    source: PageSource,
    title: str,
    facts: list[tuple[str, str]],
    progress: Progress = no_progress,
    label: str = "event pages",
    keep: Keep | None = None,
    on_request: str | None = None,
) -> WrittenPages:
    """``folder/index.html`` and one page per event in ``folder/events`` (none past
    ``MAX_EVENT_PAGES`` events: the index then lists no events); with ``keep``, each process
    keeps the pages it wrote as soon as they are written. ``on_request``: no event pages,
    the index lists the events unlinked and says this (``pages_note``)."""
    written = [folder / "index.html"]
    pages = []
    kept: list[Any] = []
    unlinked = index_events(source.result, source.infos, source.entrants) if on_request else []
    if on_request is None and len(source.infos) <= MAX_EVENT_PAGES:
        prepared = event_pages(
            source.result, source.infos, source.event_rules, source.entrants,
            source.calculations, source.period,
        )  # fmt: skip
        pages = prepared.pages
        places = {page.key: folder / "events" / f"{page.key}.html" for page in pages}
        written += places.values()
        # Staged paths are taken here (the output set is the command's): the later pages
        # are laid out and written by a child (``parallel.alongside``) from PARALLEL_PAGES on.
        staged = {key: (place, outputs.path(place)) for key, place in places.items()}
        keys = list(places)
        half = len(keys) // 2 if len(keys) >= PARALLEL_PAGES else len(keys)
        later = prepared.subset(keys[half:])
        with alongside(
            lambda: _write_event_pages(later, staged, keep), worth=bool(later.pages)
        ) as child:
            kept += _write_event_pages(prepared.subset(keys[:half]), staged, keep, progress, label)
            kept += child.result()
    played = source.result.players[source.result.players["events"].to_numpy() > 0]
    index = outputs.path(written[0])
    write_index_html(
        index_page(title, facts, pages, played, source.infos, unlinked, on_request or ""), index
    )
    if keep is not None:
        kept += keep([(written[0], index)])
    return WrittenPages(written, kept)


#: Event pages of a run are laid out and written on two cores from this many.
PARALLEL_PAGES = 50


def _write_event_pages(
    prepared: EventPages,
    staged: Mapping[str, tuple[Path, Path]],
    keep: Keep | None = None,
    progress: Progress = no_progress,
    label: str = "event pages",
) -> list[Any]:
    """The pages ``prepared``, each at its staged path (``staged``: each page's final and
    staged path); what ``keep`` kept of them."""
    rows = event_rows(prepared)
    for page in progress(prepared.pages, label):
        page_rows = rows.get(page.key, EventRows())
        write_event_html(page, staged[page.key][1], page_rows, index_link="../index.html")
    return [] if keep is None else keep([staged[page.key] for page in prepared.pages])


def detail_sheets(
    players: pd.DataFrame,
    games: pd.DataFrame,
    calculations: pd.DataFrame,
    heading: str,
    rules: Rules,
    per_game: bool = True,
) -> list[Sheet]:
    """A report's Players, Games and Calculations sheets (the per-game ones cut at
    ``MAX_DETAIL_ROWS``: the CSVs hold every row; without ``per_game``, only saying where
    their rows are: ``left_out_sheets``); each rated player's heading row of the
    Calculations says where Ro and K came from when a reader would not guess it."""
    players_sheet = Sheet(
        "Players",
        frame=players,
        heading=[f"Players — {heading}"],
        labels=PLAYER_LABELS,
        keys=2,  # id, name
    )
    if not per_game:
        return [players_sheet, *left_out_sheets(len(games), len(calculations))]
    notes = ro_k_notes(players, rules.kind, rules.k_games_cap).set_axis(players["id"])
    return [
        players_sheet,
        Sheet(
            "Games",
            frame=games.head(MAX_DETAIL_ROWS),
            heading=[f"Games — {heading}"],
            labels=GAME_LABELS,
            keys=3,  # event, round, id
        ),
        Sheet(
            "Calculations",
            frame=calculation_rows(calculations.head(MAX_DETAIL_ROWS), notes),
            writer=write_calculations_sheet,
            heading=[f"Individual calculations — {heading}"],
            labels=CALCULATION_LABELS,
            keys=2,  # id, name
        ),
    ]


def left_out_sheets(games: int, calculations: int) -> list[Sheet]:
    """The Games and Calculations sheets of a report too large to hold them
    (``DETAIL_SHEET_GAMES``): one line each, saying where the rows are."""
    return [
        Sheet(
            "Games",
            rows=[
                [
                    f"The games ({games:,} rows) are in games.csv: this sheet holds them up "
                    f"to {DETAIL_SHEET_GAMES:,} player-games."
                ]
            ],
        ),
        Sheet(
            "Calculations",
            rows=[
                [
                    f"The individual calculations ({calculations:,} rows) are in "
                    f"calculations.csv: this sheet holds them up to {DETAIL_SHEET_GAMES:,} "
                    "player-games."
                ]
            ],
        ),
    ]


def charts_sheet(ratings: pd.Series) -> Sheet:
    """The Charts sheet: how the ratings are distributed, as a table and a bar chart."""
    return Sheet("Charts", frame=rating_distribution(ratings), writer=write_chart_sheet)


def changes_chart_sheet(players: pd.DataFrame) -> Sheet:
    """The period's rating changes (rated players: new rating − rating), as bars."""
    rated = players[players["status"].isin(["rated", "below_floor"]).to_numpy()]
    changes = (rated["new_rating"].astype("Int64") - rated["rating"].astype("Int64")).dropna()
    return Sheet("Changes chart", frame=change_distribution(changes), writer=write_chart_sheet)


@runtime_checkable
class Crosstables(Protocol):
    """A system with a crosstable of its own per section (US Chess's MSA, docs/systems.md
    §9.15): msa.html and report.xlsx's Crosstable sheet show it."""

    def crosstable(
        self,
        outcome: Any,
        games: pd.DataFrame,
        order: Sequence[str],
        names: Mapping[str, str],
    ) -> pd.DataFrame: ...


def crosstable_of(rated: SystemRateResult) -> pd.DataFrame | None:
    """The system's own crosstable of the run's sections, None if it has none."""
    if not isinstance(rated.system, Crosstables):
        return None
    infos = sorted(rated.events, key=lambda info: rating_key(info, rated.system.by_start))
    order = [info.key for info in infos]
    names = {info.key: info.name for info in infos}
    return rated.system.crosstable(rated.outcome, rated.games, order, names)


def write_system_outputs(rated: SystemRateResult, out: Path) -> list[Path]:
    """players.csv, games.csv, calculations.csv, report.xlsx and index.html, all or none."""
    with staged_outputs(out) as outputs:
        return write_system_files(rated, out, outputs)


def write_system_files(
    rated: SystemRateResult,
    folder: Path,
    outputs: OutputSet,
    extra_sheets: Sequence[Sheet] = (),
    heading: str | None = None,
) -> list[Path]:
    """The run's files under ``folder``, staged in ``outputs`` (``extra_sheets`` go into
    report.xlsx after the others: a publish's list; ``heading`` names the run instead of
    its first events: a publish's list)."""
    paths = [
        folder / "players.csv", folder / "games.csv", folder / "calculations.csv",
        folder / "report.xlsx", folder / "index.html",
    ]  # fmt: skip
    players, calculations = rated.outcome.players, rated.outcome.calculations
    games = rated.games.drop(columns=["pidx", "oidx", "event_order"], errors="ignore")
    title = heading or f"{rated.system.title}: {', '.join(e.name for e in rated.events[:3])}"
    table = crosstable_of(rated)  # the system's own crosstable: msa.html and a sheet
    if table is not None:
        paths.append(folder / "msa.html")
        extra_sheets = [msa.msa_sheet(table, title), *extra_sheets]
    book = outputs.path(paths[3])
    notation = rated.system.notation

    def workbook() -> None:
        write_workbook(
            [
                Sheet("Summary", rows=rated.summary_rows()),
                *report_sheet(rated.outcome.report),
                with_notation(
                    Sheet("Players", frame=players, heading=[f"Players — {title}"]), notation
                ),
                with_notation(
                    Sheet(
                        "Calculations",
                        frame=calculations.head(100_000),
                        heading=[f"Calculations — {title}"],
                    ),
                    notation,
                ),
                *extra_sheets,
            ],
            book,
        )

    with beside(workbook):
        write_csv(players, outputs.path(paths[0]), machine_read=True)
        write_csv(games, outputs.path(paths[1]))
        write_csv(calculations, outputs.path(paths[2]), machine_read=True)
        page = SystemPage(
            title=f"Rating report: {title}",
            facts=[("system", rated.system.name), ("events", str(len(rated.events))),
                   ("players", str(len(players)))],
            constants=described(rated.system.params),
            explanation=rated.system.explained,
            notes=rated.notes + [str(issue) for issue in rated.warnings],
            notation=rated.system.notation,
            report=rated.outcome.report,
        )  # fmt: skip
        if table is not None:
            page.notes.append(msa.MSA_NOTE)
        write_system_html(players, calculations, page, outputs.path(paths[4]))
        if table is not None:
            msa.write_msa_html(table, f"Crosstable: {title}", outputs.path(paths[5]))
    return paths
