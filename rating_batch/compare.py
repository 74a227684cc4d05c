"""``compare-rules``: the same events rated under two rule sets (docs/rules.md §8) or two
rating systems (docs/systems.md), and what differs. Two FIDE Elo rule sets are compared player
by player and in aggregate (``compare_results``, pure); any other pair by the lists each would
publish (``compare_lists``); ``compare_rules`` rates the events both ways and writes the files.

What a federation needs before changing its policy: player by player, how each rule set
rates them (largest differences first); in aggregate, counts, the mean change, and the list
average before and after, its change split into what the ratings of the players on both lists
did and what players joining or leaving the list did to the average (a composition effect, not
a change of anybody's rating).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.drift import mean_change_parts
from rating_batch.errors import Issue
from rating_batch.inputs import expand_inputs, keep_out_apart, load_events
from rating_batch.pipelines import find_system
from rating_batch.pipelines.seam import Rated, RateRequest
from rating_batch.staging import staged_outputs
from rating_batch.systems.base import LISTED
from rating_batch.values import as_float
from rating_batch.writers import Sheet, write_csv, write_workbook

#: The summary's metrics that are counts of players (whole numbers), the rest being points.
COUNTS = (
    "players", "rated before", "listed after", "first ratings published",
    "fell below the floor", "sum of changes of rated players",
)  # fmt: skip


@dataclass(frozen=True)
class Comparison:
    """Per-player differences and the aggregate figures (metric, A, B, B − A)."""

    players: pd.DataFrame
    summary: pd.DataFrame


def _mean(values: pd.Series) -> float:
    return float(values.mean()) if len(values) else 0.0


def _aggregate(players: pd.DataFrame) -> dict[str, float]:
    was_rated = players["rating"].notna().to_numpy()
    listed = players["status"].isin(LISTED).to_numpy()
    both = was_rated & listed
    rating = players["rating"].astype("Float64")
    new = players["new_rating"].astype("Float64")
    moved = (new - rating)[was_rated].dropna()
    before, after = rating[was_rated], new[listed]
    # The change of the list average, split exactly in three (drift.mean_change_parts).
    parts = mean_change_parts(before, after, rating[both], new[both])
    return {
        "players": len(players),
        "rated before": int(was_rated.sum()),
        "listed after": int(listed.sum()),
        "first ratings published": int((players["status"] == "new").sum()),
        "fell below the floor": int((players["status"] == "below_floor").sum()),
        "mean change of rated players": _mean(moved),
        "sum of changes of rated players": int(moved.sum()) if len(moved) else 0,
        "list average before": _mean(before),
        "list average after": _mean(after),
        "change of the list average": parts["change"],
        "  from rating changes of players on both lists": parts["stayed"],
        "  from players joining the list": parts["joined"],
        "  from players leaving the list": parts["left"],
    }


def compare_results(a: pd.DataFrame, b: pd.DataFrame, names: tuple[str, str]) -> Comparison:
    """Join two players.csv frames (same period, two rule sets) on ``id``.

    Expects the players.csv columns ``id``, ``name``, ``rating``, ``status``, ``k``,
    ``change``, ``new_rating``. Returns per-player columns with ``_a``/``_b`` suffixes,
    ``difference`` (new rating B − A) and ``published_differently``: the players one rule set
    lists and the other does not first, then by the size of the difference; and the summary
    rows, counts as whole numbers, points to 2 decimals.
    """
    keep = ["id", "status", "k", "change", "new_rating"]
    joined = a[["id", "name", "rating", *keep[1:]]].merge(
        b[keep], on="id", how="outer", suffixes=("_a", "_b")
    )
    joined["difference"] = joined["new_rating_b"].astype("Int64") - joined["new_rating_a"].astype(
        "Int64"
    )
    joined["published_differently"] = joined["status_a"].isin(LISTED) != joined["status_b"].isin(
        LISTED
    )
    size = joined["difference"].abs().fillna(0).to_numpy(np.int64)
    order = np.lexsort((joined["id"].astype(str).to_numpy(), -size,
                        ~joined["published_differently"].to_numpy(bool)))  # fmt: skip
    joined = joined.iloc[order].reset_index(drop=True)
    first, second = _aggregate(a), _aggregate(b)
    rows = []
    for metric in first:
        whole = metric in COUNTS
        value_a, value_b = first[metric], second[metric]
        rows.append(
            {
                "metric": metric.strip(),
                names[0]: int(value_a) if whole else round(value_a, 2),
                names[1]: int(value_b) if whole else round(value_b, 2),
                # Of the figures as shown, so that the columns add up for the reader.
                "difference": int(value_b - value_a)
                if whole
                else round(round(value_b, 2) - round(value_a, 2), 2),
            }
        )
    # Column by column as Python objects: counts stay whole numbers beside the decimals.
    summary = pd.DataFrame(
        {column: pd.Series([row[column] for row in rows], dtype=object) for column in rows[0]}
    )
    return Comparison(joined, summary)


@dataclass(frozen=True)
class ListComparison:
    """Two systems' lists of the same events (docs/systems.md): per player each list's value
    and rank; in aggregate how many each lists and how alike their orders are."""

    players: pd.DataFrame
    listed: tuple[int, int]
    both: int
    rank_correlation: float
    """Spearman's, over the players both lists hold (NaN for fewer than two)."""


def compare_lists(
    a: pd.DataFrame, b: pd.DataFrame, names: tuple[str, str], lower_is_better: tuple[bool, bool]
) -> ListComparison:
    """``a`` and ``b``: ``id``, ``name``, ``value`` (the published rating) and ``listed``.
    Ranks are 1 for the best (the lowest value where lower is better), ties sharing the
    better rank; players held by one list only come first, then the largest rank changes."""
    frames = []
    for frame, name, lower in zip((a, b), names, lower_is_better, strict=True):
        listed = frame[frame["listed"].to_numpy(bool)]
        ranks = listed["value"].rank(method="min", ascending=lower).astype("Int64")
        frames.append(
            pd.DataFrame(
                {"id": listed["id"].astype(str).to_numpy(), "name": listed["name"].to_numpy(),
                 name: listed["value"].to_numpy(), f"rank {name}": ranks.to_numpy()}
            )
        )  # fmt: skip
    merged = frames[0].merge(frames[1], on="id", how="outer", suffixes=("", " "))
    merged["name"] = merged["name"].fillna(merged.pop("name "))
    rank_a, rank_b = merged[f"rank {names[0]}"], merged[f"rank {names[1]}"]
    merged["rank change"] = (rank_b - rank_a).astype("Int64")
    held = rank_a.notna() & rank_b.notna()
    merged["_one"] = ~held
    merged["_size"] = merged["rank change"].abs().fillna(0)
    merged = merged.sort_values(["_one", "_size", "id"], ascending=[False, False, True])
    both = merged[held.reindex(merged.index).to_numpy(bool)]
    correlation = _spearman(
        both[f"rank {names[0]}"].to_numpy(np.float64), both[f"rank {names[1]}"].to_numpy(np.float64)
    )
    return ListComparison(
        merged.drop(columns=["_one", "_size"]).reset_index(drop=True),
        (int(rank_a.notna().sum()), int(rank_b.notna().sum())),
        len(both),
        correlation,
    )


def _spearman(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman's rank correlation: Pearson's over the values' average ranks (NaN for fewer
    than two values, or when either side has one value only)."""
    if len(a) < 2:
        return float("nan")
    ranks_a = pd.Series(a).rank(method="average").to_numpy()
    ranks_b = pd.Series(b).rank(method="average").to_numpy()
    if ranks_a.std() == 0 or ranks_b.std() == 0:
        return float("nan")
    return float(np.corrcoef(ranks_a, ranks_b)[0, 1])


@dataclass
class RulesComparison:
    """Two ratings of the same events, and how they differ."""

    a: Rated
    b: Rated
    comparison: Comparison
    outputs: list[Path] = field(default_factory=list)

    @property
    def warnings(self) -> list[Issue]:
        """The files' warnings (read once, for both ratings)."""
        return self.a.warnings

    def summary(self) -> str:
        table = self.comparison.summary
        width = max(len(str(m)) for m in table["metric"]) + 2
        names = list(table.columns[1:3])
        lines = [f"{'':{width}}  {names[0]:>14}  {names[1]:>14}  {'B − A':>10}"]
        for row in table.itertuples(index=False):
            metric, *values = row
            # The parts of the list average's change are indented under it.
            label = f"  {metric}" if str(metric).startswith("from ") else str(metric)
            shown = [_figure(value) for value in values]
            lines.append(f"{label:{width}}  {shown[0]:>14}  {shown[1]:>14}  {shown[2]:>10}")
        differing = int((self.comparison.players["difference"].fillna(0) != 0).sum())
        lines.append(f"players whose new rating differs: {differing} (compare.csv: largest first)")
        lines.extend(f"wrote {path}" for path in self.outputs)
        return "\n".join(lines)


def _figure(value: object) -> str:
    """A count as a whole number, points with two decimals."""
    return str(value) if isinstance(value, int) else f"{as_float(value):.2f}"


def compare_rules(
    inputs: Sequence[Path],
    rules_names: tuple[str, str],
    *,
    list_path: Path | None = None,
    kind: str | None = None,
    out: Path | None = None,
    allow_overlap: bool = False,
    encoding: str | None = None,
) -> RulesComparison | SystemsComparison:
    """Rate the same events under two rule sets and compare them (``compare-rules``). Two
    rating systems (one of them maybe FIDE Elo) are compared by the lists they would publish
    (``compare_systems``)."""
    if out is not None:
        keep_out_apart(out, inputs, list_path)
    systems = [find_system(name) for name in rules_names]
    if not all(system.compares_in_detail for system in systems):
        return compare_systems(inputs, rules_names, list_path=list_path, kind=kind, out=out,
                               allow_overlap=allow_overlap, encoding=encoding)  # fmt: skip
    events, issues = load_events(expand_inputs(inputs, beside=list_path), encoding=encoding)
    a, b = (
        system.rate_events(RateRequest(events, issues, list_path, kind, allow_overlap, encoding))
        for system in systems
    )
    labels = (a.label, b.label)
    if labels[0] == labels[1]:
        labels = (f"A: {labels[0]}", f"B: {labels[1]}")
    compared = RulesComparison(a, b, compare_results(a.players, b.players, labels))
    if out is not None:
        paths = [out / "compare.csv", out / "compare.xlsx"]
        with staged_outputs(out) as outputs:
            write_csv(compared.comparison.players, outputs.path(paths[0]))
            write_workbook(
                [
                    Sheet("Summary", frame=compared.comparison.summary),
                    Sheet("Players", frame=compared.comparison.players),
                ],
                outputs.path(paths[1]),
            )
        compared.outputs = paths
    return compared


@dataclass
class SystemsComparison:
    """The same events under two rating systems: the lists each would publish."""

    labels: tuple[str, str]
    comparison: ListComparison
    notes: list[str] = field(default_factory=list)
    outputs: list[Path] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)

    def summary(self) -> str:
        c = self.comparison
        correlation = "n/a" if c.rank_correlation != c.rank_correlation else (
            f"{c.rank_correlation:.3f}"
        )  # fmt: skip
        lines = [
            f"A: {self.labels[0]} lists {c.listed[0]} player(s); B: {self.labels[1]} lists "
            f"{c.listed[1]}; both: {c.both}",
            f"rank correlation (Spearman) over the players both list: {correlation}",
            "compare.csv: players listed by one only first, then the largest rank changes",
            *self.notes,
        ]
        lines.extend(f"wrote {path}" for path in self.outputs)
        return "\n".join(lines)


def compare_systems(
    inputs: Sequence[Path],
    rules_names: tuple[str, str],
    *,
    list_path: Path | None = None,
    kind: str | None = None,
    out: Path | None = None,
    allow_overlap: bool = False,
    encoding: str | None = None,
) -> SystemsComparison:
    """The same events under two rating systems, compared by rank (``--list`` is FIDE Elo's
    previous list; another system starts from its defaults or the files' ratings)."""
    events, issues = load_events(expand_inputs(inputs, beside=list_path), encoding=encoding)
    frames, labels, lower, notes = [], [], [], []
    for name in rules_names:
        system = find_system(name)
        own_list = list_path if system.takes_elo_list else None
        rated = system.rate_events(
            RateRequest(events, issues, own_list, kind, allow_overlap, encoding)
        )
        frames.append(rated.listing())
        labels.append(rated.label)
        lower.append(system.lower_is_better)
        if list_path is not None and own_list is None:
            notes.append(
                f"{labels[-1]} does not use --list (FIDE Elo's previous list): "
                "it starts from its defaults or the ratings in the files"
            )
    if labels[0] == labels[1]:
        labels = [f"A: {labels[0]}", f"B: {labels[1]}"]
    pair = (labels[0], labels[1])
    compared = SystemsComparison(pair, compare_lists(frames[0], frames[1], pair,
                                                     (lower[0], lower[1])), notes,
                                  warnings=issues)  # fmt: skip
    if out is not None:
        paths = [out / "compare.csv", out / "compare.xlsx"]
        summary = pd.DataFrame(
            {"metric": ["players listed", "players both list", "rank correlation (Spearman)"],
             pair[0]: [compared.comparison.listed[0], compared.comparison.both,
                       compared.comparison.rank_correlation],
             pair[1]: [compared.comparison.listed[1], compared.comparison.both,
                       compared.comparison.rank_correlation]}
        ).astype({pair[0]: object, pair[1]: object})  # fmt: skip
        with staged_outputs(out) as outputs:
            write_csv(compared.comparison.players, outputs.path(paths[0]))
            write_workbook(
                [Sheet("Summary", frame=summary),
                 Sheet("Players", frame=compared.comparison.players)],
                outputs.path(paths[1]),
            )  # fmt: skip
        compared.outputs = paths
    return compared
