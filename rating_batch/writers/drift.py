"""``drift``'s files: drift-KIND.csv (a row per list, the columns of ``drift.MEASURES``) and
drift-KIND.html (the charts, drawn here as SVG, and the tables, each measure defined). The
page is self-contained: no script, no external file."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.drift import AGE_BAND, LEDGER, MEASURES, NEW_PLAYER_MONTHS, Drift
from rating_batch.writers.csvfile import write_csv

#: The chart's size in SVG units (it scales to the page's width) and its margins.
WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 720, 240, 90, 16, 12, 30
#: Line colours, distinguishable in print and for the common colour blindnesses (Okabe-Ito).
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000")

#: The page's tables: title and columns, with each column's decimals.
TABLES: Sequence[tuple[str, Sequence[tuple[str, int]]]] = (
    ("The list", (("players", 0), ("mean", 1), ("median", 1), ("total", 0))),
    (
        "The mean's change, split",
        (("mean_change", 2), ("from_rating_changes", 2), ("from_joining", 2),
         ("from_leaving", 2), ("joined", 0), ("left", 0)),
    ),
    ("The points ledger", (("total_change", 2), *((line, 2) for line in LEDGER))),
    (
        f"New players (first rating at most {NEW_PLAYER_MONTHS} months old) and ratings at "
        f"ages {AGE_BAND[0]}–{AGE_BAND[1]}",
        (("new_players", 0), ("new_games", 0), ("new_score", 1), ("new_expected", 2),
         ("new_surplus", 2), ("new_gain", 2), ("age_players", 0), ("age_mean", 1)),
    ),
)  # fmt: skip


def write_drift_csv(drift: Drift, path: Path) -> None:
    """A row per list, the columns of ``MEASURES``, in full."""
    write_csv(drift.lists, path, machine_read=True)


def _ticks(low: float, high: float) -> list[float]:
    """Three to six round values spanning ``low``..``high``."""
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    raw = (high - low) / 4
    step = 10 ** math.floor(math.log10(raw))
    step *= next(m for m in (1, 2, 2.5, 5, 10) if raw <= step * m)
    first = math.floor(low / step) * step
    return [first + step * i for i in range(math.ceil((high - first) / step) + 1)]


def _tick_text(tick: float, decimals: int) -> str:
    """A tick's label, short enough for a phone's chart: 30k, 2.5M."""
    for size, suffix in ((1e6, "M"), (1e4, "k")):
        if abs(tick) >= size:
            scale = size if suffix == "M" else 1e3
            return f"{tick / scale:g}{suffix}"
    return f"{tick:,.{decimals}f}"


def line_chart(title: str, periods: Sequence[str], series: Sequence[tuple[str, np.ndarray]]) -> str:
    """An SVG line chart of ``series`` (label, a value per period; a NaN is left out, the
    line joining its neighbours) with its legend, as markup (every text escaped)."""
    values = np.concatenate([np.asarray(v, np.float64) for _, v in series])
    known = values[np.isfinite(values)]
    low, high = (float(known.min()), float(known.max())) if len(known) else (0.0, 1.0)
    ticks = _ticks(low, high)
    low, high = ticks[0], ticks[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    count = len(periods)

    def x(i: int) -> float:
        return LEFT + (plot_w * i / (count - 1) if count > 1 else plot_w / 2)

    def y(v: float) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    decimals = max(0, -math.floor(math.log10(ticks[1] - ticks[0])) if len(ticks) > 1 else 0)
    parts = [
        f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{html.escape(title)}">',
        f"<title>{html.escape(title)}</title>",
    ]
    for tick in ticks:
        zero = ' class="zero"' if abs(tick) < 1e-9 and low < 0 < high else ""
        level = f"{y(tick):.1f}"
        parts.append(
            f'<line{zero} x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{level}" y2="{level}"/>'
            f'<text x="{LEFT - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">'
            f"{_tick_text(tick, decimals)}</text>"
        )
    shown = sorted({0, count // 2, count - 1}) if count > 2 else list(range(count))
    for i in shown:
        anchor = (
            "start" if i == 0 and count > 1 else "end" if i == count - 1 and count > 1 else "middle"
        )
        parts.append(
            f'<text x="{x(i):.1f}" y="{HEIGHT - 8}" text-anchor="{anchor}">'
            f"{html.escape(periods[i])}</text>"
        )
    for number, (label, each) in enumerate(series):
        colour = COLOURS[number % len(COLOURS)]
        points = [
            (x(i), y(float(v)))
            for i, v in enumerate(np.asarray(each, np.float64))
            if np.isfinite(v)
        ]
        if len(points) == 1:
            parts.append(
                f'<circle cx="{points[0][0]:.1f}" cy="{points[0][1]:.1f}" r="3" fill="{colour}"/>'
            )
        elif points:
            drawn = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
            parts.append(
                f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{drawn}">'
                f"<title>{html.escape(label)}</title></polyline>"
            )
    parts.append("</svg>")
    legend = "".join(
        f'<li><span class="swatch" style="background:{COLOURS[n % len(COLOURS)]}"></span>'
        f"{html.escape(label)}</li>"
        for n, (label, _) in enumerate(series)
    )
    return (
        f"<figure><figcaption>{html.escape(title)}</figcaption>{''.join(parts)}"
        f'<ul class="legend">{legend}</ul></figure>'
    )


def _charts(drift: Drift) -> list[str]:
    table, since = drift.lists, drift.since_first()
    periods = table["period"].astype(str).tolist()

    def column(frame: pd.DataFrame, name: str) -> np.ndarray:
        return frame[name].to_numpy(np.float64, na_value=np.nan)

    return [
        line_chart(
            "The list's mean and median",
            periods,
            [("mean", column(table, "mean")), ("median", column(table, "median")),
             (f"mean at ages {AGE_BAND[0]}–{AGE_BAND[1]}", column(table, "age_mean"))],
        ),
        line_chart(
            "The mean's change since the first list, and its parts (summed list by list)",
            periods,
            [("change of the mean", column(since, "mean_change")),
             ("from rating changes", column(since, "from_rating_changes")),
             ("from players joining", column(since, "from_joining")),
             ("from players leaving", column(since, "from_leaving"))],
        ),
        line_chart(
            "Points in and out of the pool since the first list: players joining and "
            "leaving (below zero), list adjustments",
            periods,
            [("change of the total", column(since, "total_change")),
             *((line.replace("_", " "), column(since, line))
               for line in (*LEDGER[:3], "adjustment"))],
        ),
        line_chart(
            "Points made by the games since the first list (K asymmetry), rounding and other",
            periods,
            [(line, column(since, line)) for line in ("games", "rounding", "other")],
        ),
        line_chart(
            f"New players: score − expected score, list by list (first rating at most "
            f"{NEW_PLAYER_MONTHS} months old)",
            periods,
            [("score − expected", column(table, "new_surplus"))],
        ),
    ]  # fmt: skip


def _cell(value: object, decimals: int) -> str:
    if pd.isna(value):  # type: ignore[call-overload]  # a scalar here
        return ""
    # Rounded first, and + 0.0: −0.004 is shown "0.00", not "-0.00".
    shown = round(float(value), decimals) + 0.0  # type: ignore[arg-type]  # a number
    return f"{shown:,.{decimals}f}".replace(",", " ")


def write_drift_html(drift: Drift, path: Path) -> None:
    """The page: the charts, then the tables, each column defined under its table."""
    from markupsafe import Markup

    from rating_batch.writers.html import render

    tables = []
    for number, (title, columns) in enumerate(TABLES):
        rows = [
            [str(period), *(_cell(row[name], decimals) for name, decimals in columns)]
            for period, row in zip(
                drift.lists["period"], drift.lists.to_dict("records"), strict=True
            )
        ]
        tables.append(
            {
                "title": title,
                "heads": ["period", *(name for name, _ in columns)],
                "rows": rows,
                "defined": [
                    (name, MEASURES[name])
                    for name in [*(["period"] if number == 0 else []), *(n for n, _ in columns)]
                ],
            }
        )
    table = drift.lists
    text = render(
        "drift.html",
        title=f"The {drift.kind} pool over time",
        facts=[
            ("lists", f"{table['period'].iloc[0]} to {table['period'].iloc[-1]} ({len(table)})"),
            ("players on the last list", f"{int(table['players'].iloc[-1]):,}"),
        ],
        index_link=None,
        charts=[Markup(chart) for chart in _charts(drift)],
        tables=tables,
    )
    path.write_text(text, encoding="utf-8", newline="\n")
