"""A rating system whose players carry a state from list to list (``StateSystem``: Glicko,
TrueSkill, …): what it is given and gives back, the period's players, games and states in
(``SystemInput``), the players with their new state and the calculations out
(``SystemOutcome``); ``state/system.StatePipeline`` makes it a ``RatingSystem``
(``seam.py``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

import numpy as np
import pandas as pd

from rating_batch.errors import RulesError
from rating_batch.periods import Period
from rating_batch.schema import Event, EventInfo, NationalId
from rating_batch.systems.games import PlayedGames
from rating_batch.systems.params import described

#: players.csv ``status`` under every system: rated before and after, a first rating now,
#: still unrated (too few games).
SYSTEM_STATUSES = ("rated", "new", "unrated")
#: The statuses of the players a list shows, under every system (FIDE Elo too).
LISTED = ("rated", "new")


@dataclass(frozen=True)
class SystemInput:
    """One period for a system.

    ``players``: one row per player in ``pidx`` order (``id``, ``name``, ``federation``,
    ``birth_year``); ``state``: the same rows, the system's state columns before the period
    (missing where the player had none: unrated); ``games``: the counted games;
    ``period``: the list the games go into (``YYYY-MM``), ``year`` its year."""

    players: pd.DataFrame
    state: pd.DataFrame
    games: PlayedGames
    events: list[str] = field(default_factory=list)
    """Event keys in rating order (``PlayedGames.event`` indexes them)."""
    period: Period | None = None
    year: int | None = None
    facts: pd.DataFrame | None = None
    """One row per event in rating order: ``key``, ``start`` and ``end`` (dates, None where
    the file gives none), ``time_control`` (as the file writes it) and ``minutes`` (main
    time + increment, NaN where unreadable) and ``round_dates`` (each round's date as the
    file gives it, TRF record 132; empty when it gives none, as a database's events): what a
    system whose rules depend on an event's date or time control reads (docs/systems.md §8,
    ``game_days``)."""
    kind: str | None = None
    """The list kind rated (``standard``, ``rapid``, ``blitz``; None: not known)."""

    def game_days(self) -> np.ndarray:
        """Each game row's day (a proleptic ordinal, NaN: undated): its round's date where the
        file gives one (``facts.round_dates``), else the event's days spread over its rounds,
        round 1 on the start date and the last on the end date (whole days, rounded down;
        docs/systems.md §14.3)."""
        games = self.games
        days = np.full(len(games), np.nan)
        if self.facts is None or not len(games):
            return days
        rows = self.facts.reset_index(drop=True)
        dated = rows["round_dates"] if "round_dates" in rows else pd.Series([()] * len(rows))
        for place, (start, end, given) in enumerate(zip(rows["start"], rows["end"], dated,
                                                        strict=True)):  # fmt: skip
            mine = games.event == place
            if not mine.any():
                continue
            rounds = games.round[mine]
            first = _ordinal(start if start is not None else end)
            last = _ordinal(end if end is not None else start)
            last_round = max(int(rounds.max()), 2)
            spread = first + np.floor((rounds - 1) * (last - first) / (last_round - 1))
            from_file = np.array([_ordinal(given[r - 1]) if 0 < r <= len(given) else np.nan
                                  for r in range(int(rounds.max()) + 1)])  # fmt: skip
            days[mine] = np.where(np.isnan(from_file[rounds]), spread, from_file[rounds])
        return days

    def initial(self, column: str, default: float) -> np.ndarray:
        """A state column before the period, ``default`` for players without one."""
        return self.state[column].astype("Float64").fillna(default).to_numpy(np.float64)


def _ordinal(day: object) -> float:
    """A date's proleptic ordinal (NaN: none)."""
    return float(day.toordinal()) if isinstance(day, dt.date) else np.nan


@dataclass(frozen=True)
class ReportTable:
    """A table in a federation's own form (the DSB's Turnierauswertung, docs/systems.md
    §10.9): headings and rows of texts as the federation prints them, and under it each
    row's worked lines (the formulas with the row's numbers)."""

    title: str
    heads: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    text_columns: frozenset[int]
    """The columns of text (left-aligned); the others are numbers."""
    worked: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(whose, lines) per player with a calculation to show."""
    language: str = "en"


@dataclass(frozen=True)
class SystemOutcome:
    """A rated period: ``players`` (players.csv: identity, games, score, the state before
    as ``<column>_before`` and after, the published value, ``status``), ``calculations``
    (calculations.csv: what each number was made of) and notes for the report."""

    players: pd.DataFrame
    calculations: pd.DataFrame
    notes: list[str] = field(default_factory=list)
    report: tuple[ReportTable, ...] = ()
    """The federation's own tables, where the system has them (the DWZ's per event)."""


#: The ECF's rating code (six digits and a letter), for its rating and its grade alike.
ECF_CODE = NationalId("ECF rating code", ("ecf_code",), r"\d{6}[A-Z]", "123456A")


class StateSystem(Protocol):
    """A rating system whose players carry a state: its name, constants and state, and how
    a period is rated.

    ``state`` names the columns a player carries from list to list (with their dtypes); a
    list given to ``rate --list`` has ``id`` and these columns. ``published`` is the column
    of players.csv that a list shows as the rating."""

    name: ClassVar[str]
    title: ClassVar[str]
    state: ClassVar[dict[str, str]]
    published: ClassVar[str]
    """The players.csv column a list ranks players by (``new_rating``, ``conservative``)."""
    list_digits: ClassVar[dict[str, int]]
    """Decimals a published list rounds to (half away from zero): ``rating`` for the
    published value, and each numeric state column (the database keeps them unrounded)."""
    explained: ClassVar[str]
    """What calculations.csv's columns are, for the reports."""
    notation: ClassVar[dict[str, tuple[str, int]]]
    """How a player's report heads and shows a numeric column of players.csv or
    calculations.csv: the sources' symbol and the decimals shown (the CSVs keep every
    digit). Columns not named keep their name, with 2 decimals."""
    player_values: ClassVar[tuple[str, ...]]
    """The calculations.csv columns that are the player's in the period (the same on each of
    his rows): a player's report shows them once per list, the others per game or event."""
    event_values: ClassVar[tuple[str, ...]]
    """The calculations.csv columns that are the player's in an event (the same on each of
    his rows of it): the terminal report shows them once per event, above its games (US
    Chess's R0, N', K, E … per section, docs/systems.md §9.12)."""
    lower_is_better: ClassVar[bool]
    by_start: ClassVar[bool]
    """Whether events of one end date are ordered by their start date before their key
    (docs/systems.md §1); the national systems order by end date and key alone (§8)."""
    seeds_from_file: ClassVar[bool]
    """Whether ``rate`` without a list starts each player from the Elo rating in their event
    file (``from_elo``); otherwise everyone starts unrated."""
    made_from_elo: ClassVar[bool]
    """Whether ``from_elo`` makes states at all (``init`` from an Elo list); the DWZ makes
    none (docs/systems.md §10.4), and a wrong list is then not pointed to ``init``."""
    optional: ClassVar[tuple[str, ...]]
    """Numeric state columns a player with a state may lack (empty in a list, NaN in the
    state): US Chess's ``peak``, docs/systems.md §9.3. The others are all given or none."""
    alone: ClassVar[tuple[str, ...]]
    """``optional`` columns a list may give without the others: a value the system makes a
    state of (the ECF's ``grade``, ``from_list``)."""
    choices: ClassVar[dict[str, tuple[str, ...]]]
    """The values a string state column can take (otherwise a string column is a list
    period, ``YYYY-MM``)."""
    carried_as: ClassVar[dict[str, str]]
    """The players.csv column holding what the next list carries for a state column, where
    not ``new_<column>`` (Glicko: ``new_rd`` is the RD as of the list, ``carried_rd`` the RD
    of the last games while ``last_period`` dates them, docs/systems.md §3)."""

    birth_from_list: ClassVar[bool]
    id_name: ClassVar[str]
    """What a report calls the id its lists key players by ("FIDE ID"; the DWZ's lists:
    the DSB's own, "ID")."""
    """Whether ``rate --list`` takes a player's birth year from the list when it gives one
    (the national systems, docs/systems.md §10.1), else from the event file."""
    national_id: ClassVar[NationalId | None]
    """The federation's own id of its players, when it has one (the DSB's ZPS-Mgl or PKZ,
    the US Chess id, the ECF code): a list's and a file's ``national_id`` column."""
    text_checks: ClassVar[dict[str, Callable[[str], str]]]
    """What is wrong with a value of a text state column other than a list period (the DWZ's
    Restpartien): per column a check giving "" for a good value; a list's value refused is
    an error naming its line."""

    @property
    def bounds(self) -> dict[str, tuple[float, float, str]]:
        """Where each numeric state column of a list can lie under these constants (low,
        high, a hint for a value outside): a value outside is an error naming the line, not
        a state (an Elo list given as an Ingo list would otherwise rate 2000 as an Ingo
        number). Every state the constants can make lies within (docs/formats.md §11)."""
        ...

    @property
    def params(self) -> object: ...

    @property
    def calendar(self) -> dict[str, Any]:
        """The system's own list calendar, as values of the Elo rules' period fields
        (``list_months``, ``period_months``, ``closing_offset_days``) that the lists and
        database under it use instead of FIDE's monthly ones; empty: FIDE's (the ECF grade's
        seasons, the ECF's months without the 3-day closing)."""
        ...

    @property
    def sources(self) -> dict[str, str]:
        """Where each constant not left at its default comes from (a rules file)."""
        ...

    def from_list(self, state: pd.DataFrame) -> pd.DataFrame:
        """A list's states (the ``state`` columns as read) as the system carries them: the
        same frame but where a list gives a value in another form (the ECF's input-only
        ``grade`` made a rating); ``init`` stores these."""
        ...

    def list_problems(self, state: pd.DataFrame) -> list[tuple[int, str]]:
        """What a list's rows (the ``state`` columns and ``id`` as read) give that the system
        cannot take as it stands, as (row position, why): the ECF's rating and grade that
        disagree. Read before ``from_list``; each is an error naming the row's line."""
        ...

    def list_month_problems(self, state: pd.DataFrame, month: Period) -> list[tuple[int, str]]:
        """As ``list_problems``, for a list whose month is known (``init --period``): what
        it cannot hold as of that month (a Lichess ``last_game`` after it)."""
        ...

    def from_elo(self, elo: pd.Series) -> pd.DataFrame:
        """Each player's state (the ``state`` columns, in ``elo``'s order) made from an Elo
        rating, NA where it is NA (unrated): ``init`` from an Elo list, and ``rate`` without
        a list when ``seeds_from_file`` (docs/systems.md §7)."""
        ...

    @property
    def from_elo_note(self) -> str:
        """How ``from_elo`` makes a state, with the constants it uses."""
        ...

    def kinds_of(self, minutes: float | None) -> tuple[str, ...] | None:
        """The list kinds an event whose time control is ``minutes`` (main time +
        increment) is rated for, the first being the kind ``rate`` takes without ``--kind``
        (``()``: not rated at all); None: the kind read as under FIDE Elo, as when the time
        control is unreadable (docs/systems.md §9.1)."""
        ...

    def list_extra(self, players: pd.DataFrame) -> dict[str, np.ndarray]:
        """Columns list.csv adds after the state for these players.csv rows (US Chess's
        ``provisional``, docs/systems.md §9.11)."""
        ...

    def lists_everyone(self, facts: pd.DataFrame) -> bool:
        """Whether ``rate --list`` over these events (``SystemInput.facts``) rates every
        player of the list, not only those of the events (the DWZ's uplift changes every
        state, docs/systems.md §10.8)."""
        ...

    def list_columns(self, listing: pd.DataFrame) -> pd.DataFrame:
        """A published list (list.csv: identity, ``rating``, the rounded state columns,
        ``games``) with any column the system's lists add (the DWZ's "1712-62")."""
        ...

    def rate(self, period: SystemInput) -> SystemOutcome: ...

    def worked(self, values: Mapping[str, object]) -> list[str]:
        """A player's worked lines for one event from its values under calculations.csv's
        names, in the federation's notation (the DWZ's "Rn = …"; none: the system has none)."""
        ...


C = TypeVar("C")


class SystemBase(Generic[C]):
    """What every system's class shares: its constants (``constants``' defaults unless given)
    and, unless it says otherwise, players of ``rate`` without a list starting unrated."""

    constants: ClassVar[type[Any]]
    seeds_from_file: ClassVar[bool] = False
    made_from_elo: ClassVar[bool] = True
    notation: ClassVar[dict[str, tuple[str, int]]] = {}
    player_values: ClassVar[tuple[str, ...]] = ()
    event_values: ClassVar[tuple[str, ...]] = ()
    lower_is_better: ClassVar[bool] = False
    by_start: ClassVar[bool] = True
    limits: ClassVar[dict[str, tuple[float, float, str]]] = {}
    """``bounds`` when they do not depend on the constants."""
    carried_as: ClassVar[dict[str, str]] = {}
    optional: ClassVar[tuple[str, ...]] = ()
    choices: ClassVar[dict[str, tuple[str, ...]]] = {}
    text_checks: ClassVar[dict[str, Callable[[str], str]]] = {}
    alone: ClassVar[tuple[str, ...]] = ()
    birth_from_list: ClassVar[bool] = False
    id_name: ClassVar[str] = "FIDE ID"
    national_id: ClassVar[NationalId | None] = None

    def __init__(self, params: C | None = None, sources: dict[str, str] | None = None) -> None:
        self._params: C = params if params is not None else self.constants()
        self.sources: dict[str, str] = sources or {}
        """Where each constant not left at its default comes from (a rules file)."""

    @property
    def params(self) -> C:
        return self._params

    @property
    def bounds(self) -> dict[str, tuple[float, float, str]]:
        return self.limits

    def kinds_of(self, minutes: float | None) -> tuple[str, ...] | None:
        return None

    def list_extra(self, players: pd.DataFrame) -> dict[str, np.ndarray]:
        return {}

    def lists_everyone(self, facts: pd.DataFrame) -> bool:
        return False

    def list_columns(self, listing: pd.DataFrame) -> pd.DataFrame:
        return listing

    @property
    def calendar(self) -> dict[str, Any]:
        return {}

    def from_list(self, state: pd.DataFrame) -> pd.DataFrame:
        return state

    def list_problems(self, state: pd.DataFrame) -> list[tuple[int, str]]:
        return []

    def list_month_problems(self, state: pd.DataFrame, month: Period) -> list[tuple[int, str]]:
        return []

    def worked(self, values: Mapping[str, object]) -> list[str]:
        return []


def not_whole(state: pd.DataFrame, column: str, what: str) -> list[tuple[int, str]]:
    """The rows of a list whose ``column`` holds a number with a fraction where the system
    takes whole numbers only (``list_problems``): each (row position, why); ``what`` says
    what the number is."""
    values = state[column].astype("Float64").to_numpy(np.float64, na_value=np.nan)
    rows = np.flatnonzero(~np.isnan(values) & (values != np.floor(values)))
    return [(int(row), f"{column} {values[row]:g} is not a whole number: {what}") for row in rows]


def seeded(elo: pd.Series, state: Mapping[str, str], **values: float | pd.Series) -> pd.DataFrame:
    """States made from Elo ratings (``StateSystem.from_elo``): each state column given in
    ``values`` (a number for everyone, or a value per rating), NA where the rating is NA (an
    unrated player); the columns not given NA."""
    rated = elo.notna().to_numpy(bool)
    frame = pd.DataFrame(index=range(len(elo)))
    for column, dtype in state.items():
        if column not in values:
            frame[column] = pd.Series(pd.NA, index=frame.index, dtype=dtype)
            continue
        value = values[column]
        numbers = (
            value.astype("Float64").to_numpy(np.float64, na_value=np.nan)
            if isinstance(value, pd.Series)
            else np.full(len(elo), float(value))
        )
        frame[column] = pd.Series(np.where(rated, numbers, np.nan), dtype="Float64")
    return frame


def rate_finite(system: StateSystem, period: SystemInput) -> SystemOutcome:
    """``system.rate(period)``, refused (a RulesError naming the system and the constants the
    rules set) when a value a list would carry or show is not a finite number for a player
    with a state: constants or states beyond what the system can compute must not become a
    list of NaN and inf. Callers write nothing before this returns."""
    try:
        with np.errstate(all="ignore"):  # what overflows is refused below, by value
            outcome = system.rate(period)
    except ArithmeticError as error:  # OverflowError of a Python float, a division by 0
        raise _not_computable(system, f"the calculation failed ({error})") from None
    players = outcome.players
    numbers = [c for c, dtype in system.state.items() if dtype != "string"]
    shown = [f"new_{c}" for c in numbers if c not in system.optional] + [
        system.published,
        *system.carried_as.values(),
    ]
    listed = players["status"].isin(["rated", "new"]).to_numpy(bool)
    for column in dict.fromkeys(shown):
        values = players[column].to_numpy(np.float64, na_value=np.nan)
        wrong = listed & ~np.isfinite(values)
        if wrong.any():
            who = ", ".join(players["id"].astype(str)[wrong].head(3))
            more = f" and {int(wrong.sum()) - 3} more" if wrong.sum() > 3 else ""
            raise _not_computable(system, f"{column} came out {values[wrong][0]:g} for {who}{more}")
    return outcome


def _not_computable(system: StateSystem, what: str) -> RulesError:
    given = [
        f"{key} {value}" for key, value, _ in described(system.params) if key in system.sources
    ]
    constants = f"the constants set ({', '.join(given)})" if given else "its default constants"
    return RulesError(
        f"{system.name}: {what}: {constants} or the states in the list are beyond what "
        f"{system.name} can compute; nothing was written"
    )


def half_away(values: np.ndarray) -> np.ndarray:
    """Rounded half away from zero (not numpy's half to even)."""
    rounded: np.ndarray = np.sign(values) * np.floor(np.abs(values) + 0.5)
    return rounded


def outcome_players(
    period: SystemInput,
    after: dict[str, np.ndarray],
    extra: dict[str, np.ndarray] | None = None,
    *,
    rated_now: np.ndarray | None = None,
) -> pd.DataFrame:
    """players.csv under a system (the columns of docs/reports.md §8): every
    player of the period (a participant with only byes too, his state unchanged), with
    identity, counted games and score, each state column before the period under its own
    name and after it as ``new_<name>``, then ``extra`` (the system's own) and the status.
    ``rated_now``: who has a state after the period (default: whoever had one or played).
    Values unrounded."""
    games = period.games
    count = len(period.players)
    played = np.bincount(games.pidx, minlength=count)
    score = np.bincount(games.pidx, weights=games.score, minlength=count)
    numbers = [c for c in period.state.columns if str(period.state[c].dtype) != "string"]
    had = period.state[numbers].notna().all(axis=1).to_numpy(bool)
    has = had | (played > 0) if rated_now is None else rated_now
    status = np.where(had, "rated", np.where(has, "new", "unrated"))
    frame = period.players[["id", "name", "federation"]].reset_index(drop=True).copy()
    frame["games"] = played
    frame["score"] = score
    for column in period.state.columns:
        frame[column] = period.state[column].to_numpy()
    for column, values in after.items():
        kept = np.asarray(values)
        frame[f"new_{column}"] = np.where(has, kept, np.nan) if kept.dtype.kind == "f" else kept
    for column, values in (extra or {}).items():
        frame[column] = np.where(has, values, np.nan)
    frame["status"] = pd.Categorical(status, categories=list(SYSTEM_STATUSES))
    return frame


def game_rows(period: SystemInput) -> pd.DataFrame:
    """The counted games, one row per player per game, with both players' ids and names: the
    first columns of calculations.csv under every system."""
    games, players = period.games, period.players
    ids, names = players["id"].to_numpy(), players["name"].to_numpy()
    keys = np.array(period.events or [""], dtype=object)
    return pd.DataFrame(
        {
            "id": ids[games.pidx],
            "name": names[games.pidx],
            "event": keys[np.minimum(games.event, len(keys) - 1)],
            "round": games.round,
            "opponent_id": ids[games.oidx],
            "opponent_name": names[games.oidx],
            "score": games.score,
        }
    )


def rating_key(info: EventInfo, by_start: bool = True) -> tuple[dt.date, dt.date, str]:
    """An event's place as the systems rate them (docs/systems.md §1): by end date, then
    start date (unless not ``by_start``: the national systems, §8), then key; undated last."""
    far = dt.date.max
    return (info.end or info.start or far, (info.start or far) if by_start else far, info.key)


def rating_order(events: Sequence[Event], by_start: bool = True) -> list[Event]:
    """Events as the systems rate them (``rating_key``)."""
    return sorted(events, key=lambda event: rating_key(event.info, by_start))
