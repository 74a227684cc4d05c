"""The DWZ in the DSB's own form (docs/systems.md §10.9): per event a Turnierauswertung
(Nr., Name, DWZ alt, Punkte, Partien, We, E, Leistung, DWZ neu) with German labels and
decimal commas, and under it each player's worked lines in the DSB's notation: E from E0,
fB and SBr, "Rn = 1912 + 800 × (3 − 3,538) / (28 + 5) = 1899", the Erst-DWZ, and the 2026
uplift (Umstufung) where it acts. Texts only: every number comes from the run."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from rating_batch.systems.base import ReportTable
from rating_batch.systems.dwz.constants import Dwz
from rating_batch.systems.dwz.engine import DwzRun, half_up
from rating_batch.systems.games import PlayedGames

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
    """``E0 = (1912/1000)^4 + 15 = 28,36 → E = 28``, with fB, SBr and a bound where they act."""
    r0, e0, fb, sbr, e = (record[k] for k in ("r0", "e0", "fb", "sbr", "e"))
    line = f"E0 = ({r0:.0f}/1000)^4 + {record['j']:.0f} = {number(e0, 2)}"
    raw = e0
    if fb != 1.0:
        raw = e0 * fb
        line += f"; E0 × fB = {number(e0, 2)} × {number(fb, 4)} = {number(raw, 2)}"
    if sbr > 0:
        line += f"; + SBr {number(sbr, 4)} = {number(raw + sbr, 2)}"
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
            first = record["stage"] > 0
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
            if evaluated:
                lines += _established(record, params)
            elif first:
                lines += _first(record, params)
            elif record["rests_stored"]:
                lines.append(
                    f"keine Erst-DWZ: {record['rests_stored']:.0f} Ergebnisse als "
                    "Restpartien gespeichert"
                )
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
