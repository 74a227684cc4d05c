"""drift's chart (writers/drift.py): hand-made SVG, its scale and its texts."""

from __future__ import annotations

import re

import numpy as np

from rating_batch.writers.drift import HEIGHT, LEFT, RIGHT, TOP, WIDTH, _ticks, line_chart


def test_ticks_are_round_and_span_the_values() -> None:
    # (1726 − 1698) / 4 = 7 → a step of 10: 1690 … 1730.
    assert _ticks(1698.1, 1728.3) == [1690, 1700, 1710, 1720, 1730]
    # One value only: a step of 0.5 around it.
    assert _ticks(5.0, 5.0) == [4.0, 4.5, 5.0, 5.5, 6.0]


def test_a_line_per_series_inside_the_plot_and_every_text_escaped() -> None:
    chart = line_chart("a < b", ["2026-01", "2026-02", "2026-03"],
                       [("x & y", np.array([1700.0, 1710.0, 1720.0])),
                        ("gap", np.array([1705.0, np.nan, 1715.0]))])  # fmt: skip
    assert "a &lt; b" in chart and "x &amp; y" in chart and "a < b" not in chart
    lines = re.findall(r'points="([^"]+)"', chart)
    assert len(lines) == 2
    # The first series from the left edge to the right one, 1700 → 1720 upwards; the
    # second leaves out its missing middle value.
    first = [tuple(map(float, p.split(","))) for p in lines[0].split()]
    assert [x for x, _ in first] == [LEFT, LEFT + (WIDTH - LEFT - RIGHT) / 2, WIDTH - RIGHT]
    assert first[0][1] > first[1][1] > first[2][1]
    assert all(TOP <= y <= HEIGHT for _, y in first)
    assert len(lines[1].split()) == 2


def test_cells_group_thousands_and_show_no_negative_zero() -> None:
    from rating_batch.writers.drift import _cell

    assert [_cell(1256791.0, 2), _cell(-0.004, 2), _cell(-0.03, 2), _cell(float("nan"), 1)] == [
        "1 256 791.00", "0.00", "-0.03", "",
    ]  # fmt: skip


def test_large_ticks_are_short() -> None:
    from rating_batch.writers.drift import _tick_text

    texts = [_tick_text(t, 0) for t in (3_000_000, 2_500_000, 30_000, -10_000, 5_000, 1_730)]
    assert texts == ["3M", "2.5M", "30k", "-10k", "5,000", "1,730"]
