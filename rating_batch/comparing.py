"""``compare-rules``: the same events rated under two rule sets (docs/rules.md §8) or two
rating systems (docs/systems.md), and what differs. Two FIDE Elo rule sets are compared player
by player and in aggregate (``compare.compare_results``); any other pair by the lists each would
publish (``compare.compare_lists``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from rating_batch.compare import Comparison, ListComparison, compare_lists, compare_results
from rating_batch.errors import Issue
from rating_batch.inputs import expand_inputs, keep_out_apart, load_events
from rating_batch.rate import EloRater, find_rater
from rating_batch.rated import RateResult
from rating_batch.staging import staged_outputs
from rating_batch.writers import Sheet, write_csv, write_workbook


@dataclass
class RulesComparison:
    """Two ratings of the same events, and how they differ."""

    a: RateResult
    b: RateResult
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
    return str(value) if isinstance(value, int) else f"{float(value):.2f}"  # type: ignore[arg-type]


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
    raters = [find_rater(name) for name in rules_names]
    if not all(isinstance(rater, EloRater) for rater in raters):
        return compare_systems(inputs, rules_names, list_path=list_path, kind=kind, out=out,
                               allow_overlap=allow_overlap, encoding=encoding)  # fmt: skip
    events, issues = load_events(expand_inputs(inputs, beside=list_path), encoding=encoding)
    a, b = (
        rater.rate(events, issues, list_path, kind, allow_overlap, encoding=encoding)
        for rater in raters
    )
    assert isinstance(a, RateResult) and isinstance(b, RateResult)
    labels = (a.rules.edition, b.rules.edition)
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
        rater = find_rater(name)
        own_list = list_path if rater.takes_elo_list else None
        rated = rater.rate(events, issues, own_list, kind, allow_overlap, encoding=encoding)
        frames.append(rater.listing(rated))
        labels.append(rater.label(rated))
        lower.append(rater.lower_is_better)
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
