"""A player's rating changes on his site page (docs/site.md §1): a row for the first list of
a kind he is on, then a row only for a list where what the row shows changed (his rating or
title), and a row where he left the list or came back to it; the chart is a step line
through those points (a rating holds until the next change). Nothing here changes for a
player who did not play, so a month rewrites only the pages of those who did
(``monthly/site_pages.py``). Every step is a column operation over all players at once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import pandas as pd

from rating_batch.writers.html import joined_by

#: The chart's drawing area (SVG user units) inside its margins.
WIDTH, HEIGHT, LEFT, TOP = 540, 160, 64, 14

#: A list's columns a player's page reads (``history``).
HISTORY_COLUMNS = ("id", "name", "federation", "title", "birth_year", "rating", "rating_value",
                   "change_value", "games")  # fmt: skip


class Listed(Protocol):
    """A published list as the history reads it (``writers.site.SiteList``)."""

    @property
    def period(self) -> object: ...
    @property
    def kind(self) -> str: ...
    @property
    def listing(self) -> pd.DataFrame: ...
    @property
    def folder(self) -> str: ...


def history(lists: Sequence[Listed]) -> pd.DataFrame:
    """Every list row of every player (``HISTORY_COLUMNS``), with ``period``, ``kind``,
    ``at`` (the list's place among its kind's published lists: 0, 1, …) and ``last`` (the
    kind's last place), sorted by id, kind and period."""
    places: dict[str, int] = {}
    frames = []
    for each in lists:
        at = places[each.kind] = places.get(each.kind, -1) + 1
        frames.append(
            each.listing.reindex(columns=list(HISTORY_COLUMNS), fill_value="").assign(
                period=str(each.period), kind=each.kind, at=at, link=f"../{each.folder}/list.html"
            )
        )
    if not frames:
        return pd.DataFrame(columns=[*HISTORY_COLUMNS, "period", "kind", "at", "last", "link"])
    rows = pd.concat(frames, ignore_index=True)
    rows["last"] = rows["kind"].map(places)
    return rows.sort_values(["id", "kind", "period"], kind="stable").reset_index(drop=True)


def change_rows(rows: pd.DataFrame, lists: Sequence[Listed]) -> pd.DataFrame:
    """The rows a player's page shows of ``history(lists)``: his first list of a kind, each
    list where his rating or title differs from the list before it, each list he came back
    to after missing one, and (``left`` True, no rating) the list he was first missing from.
    ``change``: the list's own change (``change_value``: its changes.csv's, by person, so a
    FIDE ID given since keeps it; 0 for a title alone), which is against the row before."""
    same = rows["id"].eq(rows["id"].shift()) & rows["kind"].eq(rows["kind"].shift())
    after = same & rows["at"].eq(rows["at"].shift() + 1)  # on the list before it too
    changed = (
        ~after | rows["rating"].ne(rows["rating"].shift()) | rows["title"].ne(rows["title"].shift())
    )
    kept = rows[changed.to_numpy(bool)]
    kept = kept.assign(change=pd.to_numeric(kept["change_value"], errors="coerce"), left=False)
    # Left: the next list of the kind does not hold him (his next row is later, or none).
    follows = rows["id"].eq(rows["id"].shift(-1)) & rows["kind"].eq(rows["kind"].shift(-1))
    gone = np.where(follows, rows["at"].shift(-1) > rows["at"] + 1, rows["at"] < rows["last"])
    left = rows[gone.astype(bool)]
    if len(left):
        place = {(each.kind, n): each for n, each in _numbered(lists)}
        where = [place[(kind, at + 1)] for kind, at in zip(left["kind"], left["at"], strict=True)]
        left = left.assign(
            period=[str(each.period) for each in where],
            link=[f"../{each.folder}/list.html" for each in where],
            at=left["at"] + 1,
            rating="",
            rating_value=np.nan,
            games="",
            title="",
            change=np.nan,
            left=True,
        )
    shown = pd.concat([kept, left], ignore_index=True) if len(left) else kept
    return shown.sort_values(["id", "kind", "at"], kind="stable").reset_index(drop=True)


def _numbered(lists: Sequence[Listed]) -> list[tuple[int, Listed]]:
    """Each list with its place among its kind's lists."""
    places: dict[str, int] = {}
    found = []
    for each in lists:
        places[each.kind] = places.get(each.kind, -1) + 1
        found.append((places[each.kind], each))
    return found


def _month(periods: pd.Series) -> pd.Series:
    """A period's month as a number (2026-03: 2026 × 12 + 2), for the chart's time axis."""
    parts = periods.str.extract(r"^(\d{4})-(\d{2})", expand=True).astype(float)
    return parts[0] * 12 + parts[1] - 1


def charts(changes: pd.DataFrame, labels: dict[str, str]) -> dict[str, str]:
    """Each player's chart of ``change_rows``: a step line per list kind (and per stay on
    the list) over his own first to last change, between his lowest and highest rating (an
    SVG drawn here, no script; it shows nothing a month he did not play changes)."""
    points = changes[changes["rating_value"].notna() | changes["left"]]
    if points.empty:
        return {}
    month = _month(points["period"])
    first = month.groupby(points["id"]).transform("min")
    last = month.groupby(points["id"]).transform("max")
    length = (last - first).where(last > first, 1.0)
    x = LEFT + WIDTH * (month - first) / length
    x = x.where(last > first, LEFT + WIDTH / 2).round(1)
    rated = points["rating_value"]
    low = rated.groupby(points["id"]).transform("min")
    high = rated.groupby(points["id"]).transform("max")
    span = (high - low).where(high > low, 1.0)
    y = (TOP + HEIGHT * (1 - (rated - low) / span)).where(high > low, TOP + HEIGHT / 2)
    # A stay: the rows of a kind up to and with the one he left at (a step line each).
    group = [points["id"], points["kind"]]
    stay = points["left"].astype(int).groupby(group).cumsum() - points["left"].astype(int)
    key = points["kind"] + "\x01" + stay.astype(str)
    start = ~(points["id"].eq(points["id"].shift()) & key.eq(key.shift()))
    held = y.groupby([points["id"], key]).shift().round(1)  # the rating held until now
    y = y.round(1)
    xt, yt, ht = x.astype(str), y.astype(str), held.astype(str)
    step = np.where(start, "", xt + "," + ht + " ")
    vertex = np.where(points["left"], step, step + xt + "," + yt + " ")
    joined = joined_by(
        np.asarray(vertex, dtype=object),
        points["id"].to_numpy(object),
        key.to_numpy(object),
    )
    ids = np.array([k[0] for k in joined], dtype=object)
    kinds = pd.Series([str(k[1]).split("\x01")[0] for k in joined], dtype=object)
    line = '<polyline class="line k-' + kinds + '" points="' + [t.rstrip() for t in joined.values()]
    dots = points[~points["left"].to_numpy(bool)]
    dot = '<circle class="k-' + dots["kind"] + '" cx="' + xt[dots.index] + '" cy="'
    dot = dot + yt[dots.index] + '" r="3"/>'
    marks = pd.DataFrame({"id": np.concatenate([ids, dots["id"].to_numpy(object)]),
                          "m": np.concatenate([(line + '"/>').to_numpy(object),
                                               dot.to_numpy(object)])})  # fmt: skip
    drawn = _texts(joined_by(marks["m"].to_numpy(object), marks["id"].to_numpy(object)))
    ends = pd.DataFrame(
        {"id": points["id"], "low": low, "high": high, "month": month, "period": points["period"]}
    ).sort_values("month", kind="stable")
    head = ends.drop_duplicates("id").set_index("id").reindex(drawn.index)
    tail = ends.drop_duplicates("id", keep="last").set_index("id").reindex(drawn.index)
    legend = points.drop_duplicates(["id", "kind"])
    tspans = '<tspan class="k-' + legend["kind"] + '">■ ' + legend["kind"].map(labels)
    legend_text = _texts(
        joined_by((tspans + "</tspan> ").to_numpy(object), legend["id"].to_numpy(object))
    ).reindex(drawn.index)
    bottom, right = TOP + HEIGHT, LEFT + WIDTH
    same = (head["high"] == head["low"]) | head["high"].isna()  # one rating: one label, beside it
    end = f'<text x="{right}" y="{bottom + 22}" text-anchor="end">' + tail["period"] + "</text>"
    svg = (
        f'<svg class="chart" viewBox="0 0 {right + 12} {bottom + 54}" role="img" '
        f'aria-label="{labels["chart"]}"><title>{labels["chart"]}</title>'
        f'<line class="axis" x1="{LEFT}" y1="{bottom}" x2="{right}" y2="{bottom}"/>'
        f'<text x="{LEFT}" y="{bottom + 22}">'
        + head["period"]
        + "</text>"
        + end.where(tail["period"] != head["period"], "")
        + f'<text x="{LEFT - 6}" y="'
        + same.map({True: str(TOP + HEIGHT // 2 + 4), False: str(TOP + 4)})
        + '" text-anchor="end">'
        + _whole(head["high"])
        + f'</text><text x="{LEFT - 6}" y="{bottom}" text-anchor="end">'
        + _whole(head["low"]).where(~same, "")
        + "</text>"
        + drawn
        + f'<text x="{LEFT}" y="{bottom + 46}">'
        + legend_text.str.rstrip()
        + "</text></svg>"
    )
    return {str(key): str(value) for key, value in svg.items()}


def _texts(joined: dict[tuple[object, ...], str]) -> pd.Series:
    """``joined_by``'s texts by their (single) key."""
    return pd.Series(list(joined.values()), index=[key[0] for key in joined], dtype=object)


def _whole(values: pd.Series) -> pd.Series:
    """Ratings as whole numbers ("" for none)."""
    return values.round(0).astype("Int64").astype("string").fillna("").astype(object)
