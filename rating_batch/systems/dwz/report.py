"""The DWZ in the DSB's own form (docs/systems.md §10.9): per event a Turnierauswertung
(Nr., Name, DWZ alt, Punkte, Partien, We, E, Leistung, DWZ neu) with German labels and
decimal commas, and under it each player's worked lines in the DSB's notation: E from E0,
fB and SBr, "Rn = 1912 + 800 × (3 − 3,538) / (28 + 5) = 1899", the Erst-DWZ, and the 2026
uplift (Umstufung) where it acts. Texts only: every number comes from the run."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from rating_batch.systems.base import ReportTable
from rating_batch.systems.dwz.constants import Dwz
from rating_batch.systems.dwz.engine import DwzRun, half_up, uplifted_values
from rating_batch.systems.games import PlayedGames

#: E0's decimals wherever it is shown (the worked E line, the notation's "E0"): enough that
#: the rounding to E visibly holds (25,4976 → E = 25, docs/systems.md §10.9).
E0_DIGITS = 4

#: The Turnierauswertung's columns, as the DSB heads them.
HEADS = ("Nr.", "Name", "DWZ alt", "Punkte", "Partien", "We", "E", "Leistung", "DWZ neu")


def number(value: float, digits: int = 0) -> str:
    """A number as German pages write it: decimal comma, a true minus sign."""
    text = f"{value:.{digits}f}".replace(".", ",")
    return text.replace("-", "−")


def points(value: float) -> str:
    """Points as a crosstable writes them: 3½, ½, 0."""
    whole, half = int(value), value % 1 >= 0.5
    return f"{whole or ''}½" if half else str(whole)


def dwz(rating: float, index: float) -> str:
    """The DWZ as the DSB writes it: 1912-87."""
    return f"{rating:.0f}-{index:.0f}"


def uplift_line(before: float, index: float, params: Dwz) -> str:
    """``DWZ 1912-87 → 1984-88 durch die Umstufung 2026 (0,64 × 1912 + 760)`` (§10.8)."""
    if before < params.uplift_low:
        after, how = before + params.uplift_add, f"{before:.0f} + {params.uplift_add:g}"
    elif before < params.uplift_high:
        after = float(half_up(np.array([params.uplift_factor * before + params.uplift_offset]))[0])
        how = f"{number(params.uplift_factor, 2)} × {before:.0f} + {params.uplift_offset:g}"
    else:
        after, how = before, f"ab {params.uplift_high:g} unverändert"
    return f"DWZ {dwz(before, index)} → {dwz(after, index + 1)} durch die Umstufung 2026 ({how})"


def _e_line(record: dict[str, Any], params: Dwz) -> str:
    """``E0 = (1912/1000)^4 + 15 = 28,3624 → E = 28``, with fB, SBr and a bound where they
    act. E0 and what is made of it to 4 decimals: E is E0 rounded, and "25,50 → E = 25"
    (for 25,4976) would read as a mistake; 4 show the rounding hold (R0/1000 to the fourth
    power has at most 12 decimals, and a ,5000 that is not a tie cannot be shown as one
    below 1/20 000)."""
    r0, e0, fb, sbr, e = (record[k] for k in ("r0", "e0", "fb", "sbr", "e"))
    line = f"E0 = ({r0:.0f}/1000)^4 + {record['j']:.0f} = {number(e0, E0_DIGITS)}"
    raw = e0
    if fb != 1.0:
        raw = e0 * fb
        line += f"; E0 × fB = {number(e0, E0_DIGITS)} × {number(fb, 4)} = {number(raw, E0_DIGITS)}"
    if sbr > 0:
        line += f"; + SBr {number(sbr, 4)} = {number(raw + sbr, E0_DIGITS)}"
        raw += sbr
    line += f" → E = {e:.0f}"
    if e != math.floor(raw + 0.5):
        bound = (
            f"mindestens {params.e_min:g}"
            if e > raw
            else f"höchstens {e:.0f}"
            + (" (Index ≤ 5: 5 × Index)" if e < params.e_max and sbr == 0 else "")
        )
        line += f" ({bound})"
    return line


def _established(record: dict[str, Any], params: Dwz) -> list[str]:
    r0, w, we, e, n = (record[k] for k in ("r0", "w", "we", "e", "n"))
    lines = []
    if record["by_fide"]:
        lines.append(f"R0 = Elo {r0:.0f} (aus der Turnierdatei)")
    lines.append(_e_line(record, params))
    lines.append(
        f"Rn = {r0:.0f} + 800 × ({number(w, 1).removesuffix(',0')} − {number(we, 3)}) / "
        f"({e:.0f} + {n:.0f}) = {record['new_dwz']:.0f}"
    )
    return lines


def _first(record: dict[str, Any], params: Dwz) -> list[str]:
    """The Erst-DWZ in the DSB's terms: stage, the results it rests on, the iteration."""
    rests = f", davon {record['rests_used']:.0f} Restpartien" if record["rests_used"] else ""
    lines = [
        f"Erst-DWZ (Stufe {record['stage']:.0f}): {record['n']:.0f} Ergebnisse{rests}, "
        f"Gegner im Schnitt Rc = {number(record['rc'], 2)}; Start Rp = "
        f"{number(record['start'], 2)}, nach {record['steps']:.0f} Schritten Rp = "
        f"{number(record['rp'], 2)}"
    ]
    if record["floored"]:
        lines.append(
            f"Rp {record['ri']:.0f} unter {params.first_floor_below:g}: "
            f"{params.first_floor_base:g} + {record['ri']:.0f}/{params.first_floor_divisor:g} "
            f"= {record['new_dwz']:.0f}"
        )
    lines.append(f"Erst-DWZ {dwz(record['new_dwz'], record['new_index'])}")
    return lines


#: calculations.csv's names of an event's values (``DwzSystem._calculations``) → the run's.
_FROM_CALCULATIONS = {"new_rating": "new_dwz", "restpartien_used": "rests_used",
                      "restpartien_stored": "rests_stored"}  # fmt: skip
_NUMBERS = ("r0", "index", "j", "e0", "fb", "sbr", "e", "n", "w", "we", "rc", "new_index",
            "stage", "start", "steps", "rp", "ri")  # fmt: skip


def _number_of(value: object) -> float:
    if value is None or value is pd.NA or (isinstance(value, str) and not value.strip()):
        return math.nan
    try:
        return float(value)  # type: ignore[arg-type]  # numbers, or their CSV text
    except (TypeError, ValueError):
        return math.nan


def _truth(value: object) -> bool:
    return str(value).strip().lower() in ("true", "1", "1.0")


def worked_lines(values: Mapping[str, object], params: Dwz) -> list[str]:
    """A player's worked lines for one event from its values under calculations.csv's names
    (``r0``, ``r0_source``, ``j``, ``e0`` … ``new_rating``, ``stage``, ``floored``), as the
    ``player`` report reads them back: the same lines as the Turnierauswertung's."""
    record: dict[str, Any] = {
        key: _number_of(values.get(name))
        for name, key in {**{k: k for k in _NUMBERS}, **_FROM_CALCULATIONS}.items()
    }
    record["by_fide"] = str(values.get("r0_source", "")) == "FIDE"
    record["floored"] = _truth(values.get("floored"))
    return [*_uplift_of(values, record, params), *_lines(record, params)]


def _uplift_of(values: Mapping[str, object], record: dict[str, Any], params: Dwz) -> list[str]:
    """The uplift's line (§10.8) where this event is the one it acted before: the list gave
    the player's DWZ (``list_rating``, ``list_index``) not yet uplifted, and the event rated
    him at that DWZ mapped, one index on (a later event of the period has an index further
    on). The ``list_…`` values are players.csv's, which the callers add."""
    before, index = _number_of(values.get("list_rating")), _number_of(values.get("list_index"))
    if (
        not params.uplift
        or _truth(values.get("list_uplifted"))
        or math.isnan(before)
        or record["by_fide"]
        or record["index"] != index + 1
    ):
        return []
    if record["r0"] != float(uplifted_values(np.array([before]), params)[0]):
        return []
    return [uplift_line(before, index, params)]


def _lines(record: dict[str, Any], params: Dwz) -> list[str]:
    """An event's lines of a player (the run's names): evaluated, a first DWZ, or stored."""
    if not math.isnan(record["r0"]) and record["n"] > 0 and not math.isnan(record["e"]):
        return _established(record, params)
    if record["stage"] > 0:
        return _first(record, params)
    if record["rests_stored"] > 0:
        return [
            f"keine Erst-DWZ: {record['rests_stored']:.0f} Ergebnisse als Restpartien gespeichert"
        ]
    return []


def evaluation_tables(
    run: DwzRun,
    games: PlayedGames,
    names: pd.Series,
    events: list[str],
    ends: list[str],
    params: Dwz,
) -> tuple[ReportTable, ...]:
    """Per event (rating order) its Turnierauswertung: every player with a counted result,
    best score first (then R0), with his worked lines. Punkte and Partien are his results
    that counted (for a first DWZ: in the iteration; for a candidate: stored). ``names`` in
    ``pidx`` order; ``ends``: each event's dates as shown."""
    records = run.records
    if not records:
        return ()
    frame = pd.DataFrame({k: np.asarray(v, dtype=np.float64) for k, v in records.items()})
    frame["player"] = records["player"]
    frame["event"] = records["event"]
    frame["by_fide"] = records["by_fide"]
    frame["floored"] = records["floored"]
    counted = ~np.isnan(run.rating_used)
    results = (
        pd.DataFrame({"player": games.pidx[counted], "event": games.event[counted],
                      "points": games.score[counted]})
        .groupby(["player", "event"], as_index=False)
        .agg(points=("points", "sum"), games=("points", "size"))
    )  # fmt: skip
    frame = frame.merge(results, on=["player", "event"], how="left", validate="1:1")
    from_dwz, from_index = run.uplifted_from
    uplifted = set(np.flatnonzero(~np.isnan(from_dwz)).tolist()) if len(from_dwz) else set()
    shown_uplift: set[int] = set()
    tables = []
    for number_, key in enumerate(events):
        mine = frame[(frame["event"] == number_) & (frame["games"] > 0)]
        if mine.empty:
            continue
        mine = mine.sort_values(
            ["points", "r0"], ascending=False, na_position="last", kind="stable"
        )
        rows, worked = [], []
        for place, found in enumerate(mine.to_dict("records"), start=1):
            record = {str(k): v for k, v in found.items()}
            player = int(record["player"])
            name = str(names.iloc[player])
            has_r0 = not math.isnan(record["r0"])
            evaluated = bool(record["evaluated"])
            new = (
                dwz(record["new_dwz"], record["new_index"])
                if not math.isnan(record["new_dwz"])
                else ""
            )
            rows.append(
                (
                    str(place),
                    name,
                    dwz(record["r0"], record["index"]) if has_r0 and not record["by_fide"]
                    else (f"Elo {record['r0']:.0f}" if has_r0 else ""),
                    points(record["points"]),
                    f"{record['games']:.0f}",
                    number(record["we"], 3) if evaluated else "",
                    f"{record['e']:.0f}" if evaluated else "",
                    f"{record['performance']:.0f}" if not math.isnan(record["performance"])
                    else "",
                    new,
                )
            )  # fmt: skip
            lines: list[str] = []
            # The uplift where it acts: the first event rated on the 2026 scale (§10.8).
            if (
                player in uplifted
                and player not in shown_uplift
                and record["index"] == from_index[player] + 1
                and not record["by_fide"]
            ):
                shown_uplift.add(player)
                lines.append(uplift_line(from_dwz[player], from_index[player], params))
            lines += _lines(record if evaluated else {**record, "e": math.nan}, params)
            if lines:
                worked.append((name, tuple(lines)))
        tables.append(
            ReportTable(
                title=f"Turnierauswertung {key}" + (f" ({ends[number_]})" if ends[number_] else ""),
                heads=HEADS,
                rows=tuple(rows),
                text_columns=frozenset({1, 2, 8}),
                worked=tuple(worked),
                language="de",
            )
        )
    return tuple(tables)
