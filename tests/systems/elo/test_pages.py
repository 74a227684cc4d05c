"""What the HTML pages show (pages.py): the crosstable in the file's final ranking (else by
points), Rp and the calculation's totals per event, footnote marks for games that do not
count, first ratings with their derivation, and the index."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import RateTexts
from trf_text import P, trf

from rating_batch.cli import cli
from rating_batch.pipelines.rated import RateResult
from rating_batch.schema import combined
from rating_batch.systems.elo.calculations import individual_calculations
from rating_batch.systems.elo.pages import (
    REASON_MARKS,
    EventPages,
    entrants_of,
    event_pages,
    index_page,
)

ADULT = 1980


def prepared(rated: RateResult) -> EventPages:
    calculations = individual_calculations(rated.result, rated.rules)
    return event_pages(
        rated.result,
        [event.info for event in rated.events],
        rated.event_rules,
        entrants_of(combined(rated.events, "players")),
        calculations,
    )


def pages_of(rated: RateResult) -> list:
    return prepared(rated).pages


def rows_of(frame, name: str) -> dict:
    """The one row of ``frame`` whose name is ``name``, missing values as None."""
    (row,) = frame[frame["name"].eq(name)].astype(object).to_dict("records")
    return {k: (None if v is None or v != v else v) for k, v in row.items()}


FOUR = [
    # Start ranks 1-4; the file's final ranking puts 3 first (it beat 1 and 2).
    P(1, "One", 2000, 11, ADULT, final=2),
    P(2, "Two", 1900, 12, ADULT, final=3),
    P(3, "Three", 1800, 13, ADULT, final=1),
    P(4, "Four", None, 14, ADULT, final=4),
]
GAMES = [
    (1, 3, 1, "1-0"),
    (1, 2, 4, "1-0"),
    (2, 3, 2, "1-0"),
    (2, 1, 4, "+--"),  # a forfeit: does not count
    (3, 4, 3, "=-="),
    (3, 1, 2, "=-="),
]


def test_the_crosstable_follows_the_files_final_ranking(rate_texts: RateTexts) -> None:
    (page,) = pages_of(rate_texts(trf(FOUR, GAMES)))
    assert [row["name"] for row in page.crosstable] == ["Three", "One", "Two", "Four"]
    assert [row["rank"] for row in page.crosstable] == [1, 2, 3, 4]
    assert page.ranked_by == "the file's final ranking"


def test_without_a_final_ranking_the_crosstable_is_ordered_by_points(
    rate_texts: RateTexts,
) -> None:
    players = [P(p.rank, p.name, p.rating, p.fide_id, p.birth, final=None) for p in FOUR]
    (page,) = pages_of(rate_texts(trf(players, GAMES)))
    # Points: Three 2.5, One 1.5 (the forfeit win counts for the standings), Two 1.5,
    # Four 0.5: One and Two share rank 2, in start order.
    assert [(r["name"], r["rank"], r["points"]) for r in page.crosstable] == [
        ("Three", 1, 2.5), ("One", 2, 1.5), ("Two", 2, 1.5), ("Four", 4, 0.5),
    ]  # fmt: skip
    assert page.ranked_by == "points"


def test_a_game_that_does_not_count_carries_its_mark(rate_texts: RateTexts) -> None:
    pages = prepared(rate_texts(trf(FOUR, GAMES)))
    (page,) = pages.pages
    one = rows_of(pages.crosstable, "One")
    # Round 2: One won by forfeit against Four (start rank 4, One had white).
    assert (one["cell_2"], one["mark_2"]) == ("4w+", REASON_MARKS["forfeit"][0])
    # Round 1 counts: no mark.
    assert one["cell_1"] == "3b0" and one["mark_1"] is None
    # Two beat the unrated Four in round 1: not counted for Two, marked r.
    two = rows_of(pages.crosstable, "Two")
    assert two["mark_1"] == REASON_MARKS["unrated_opponent"][0]
    assert page.marks == [REASON_MARKS["forfeit"], REASON_MARKS["unrated_opponent"]]


def test_the_events_totals_and_rp_are_those_of_its_counted_games(rate_texts: RateTexts) -> None:
    pages = prepared(rate_texts(trf(FOUR, GAMES)))
    (page,) = pages.pages
    one = next(r for r in page.crosstable if r["name"] == "One")
    # One (2000) counted: lost to Three (1800), drew Two (1900); the forfeit win is out.
    # W 0.5 of n 2; Rc = (1800 + 1900) / 2 = 1850; D 200 → PD 0.76, D 100 → PD 0.64:
    # We 1.40; Rp = 1850 + dp(0.25) = 1850 − 193 = 1657.
    assert (one["w"], one["n_scoring"], one["rc"], one["expected"]) == (0.5, 2, 1850, 1.4)
    assert one["performance"] == 1657
    assert one["points"] == 1.5  # the standings count the forfeit
    # K 20 (30+ games assumed without a list): 20 × (0.5 − 1.40) = −18.00.
    assert one["change"] == -18.0
    assert one["k"] == 20
    games = pages.games[pages.games["id"].astype(str).eq("11")]
    columns = [games[c] for c in ("round", "raw_diff", "diff", "expected")]
    assert list(zip(*columns, strict=True)) == [
        (1, 200, 200, 0.76),
        (3, 100, 100, 0.64),
    ]


def test_an_unrated_players_section_shows_the_first_rating_pool(rate_texts: RateTexts) -> None:
    (page,) = pages_of(rate_texts(trf(FOUR, GAMES)))
    pool = page.firsts["14"]
    # Four played Two (1900, lost) and Three (1800, drew); the forfeit is not a game.
    played = [r for r in pool if r["calculation"] == "first_rating" and r["round"]]
    assert [(r["round"], r["opponent_rating"], r["score"]) for r in played] == [
        (1, 1900, 0.0),
        (3, 1800, 0.5),
    ]
    (result,) = [r for r in pool if r["calculation"] == "first_rating_result"]
    # fide-2025: two hypothetical 1800 opponents, drawn: Ra = (3700 + 3600) / 4 = 1825,
    # p = 1.5 / 4 = 0.375 → 0.38 → dp −87; Ru = 1738 (pending: 2 of the 5 games).
    assert (result["ra_rated"], result["ra"], result["dp"], result["first_rating"]) == (
        1850.0, 1825.0, -87, 1738,
    )  # fmt: skip
    assert result["formula"] == (
        "Ra = (3700 + 2 × 1800) / 4 = 1825.00; p = 1.5 / 4 = 0.38, dp -87; "
        "Ru = Ra + dp = 1738.00 → 1738"
    )
    assert result["outcome"] == "pending: 2 of the 5 games against rated opponents needed"


def test_the_index_lists_events_and_players_by_name(rate_texts: RateTexts) -> None:
    rated = rate_texts(trf(FOUR, GAMES))
    pages = pages_of(rated)
    index = index_page("t", [], pages, rated.players, [e.info for e in rated.events])
    assert [e["players"] for e in index.events] == [4]
    assert [p["name"] for p in index.players] == ["Four", "One", "Three", "Two"]
    assert {p["event"] for p in index.players} == {pages[0].key}


def test_pages_written_on_two_cores_are_those_written_on_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From PARALLEL_PAGES events on, a child lays out and writes the later half of the pages:
    every page, and the index, byte for byte as written all by the command."""
    from rating_batch.pipelines.outputs import PARALLEL_PAGES

    events = tmp_path / "events"
    events.mkdir()
    for number in range(PARALLEL_PAGES + 3):
        players = [
            P(1, f"Alpha{number}, A", 1900 + number, 100 + 4 * number, ADULT),
            P(2, f"Beta{number}, B", 1800, 101 + 4 * number, ADULT),
            P(3, f"Gamma{number}, C", None, 102 + 4 * number, ADULT),
            P(4, f"Delta & <{number}>", 1700, 103 + 4 * number, ADULT),
        ]
        (events / f"e{number:03d}.trf").write_text(
            trf(players, GAMES, name=f"Open {number}"), encoding="utf-8"
        )
    written = {}
    for serial in ("1", "0"):
        monkeypatch.setenv("RATING_BATCH_SERIAL", serial)
        out = tmp_path / f"out-{serial}"
        # --pages: 53 events are above rate's default bound (issue 42: pages on request).
        command = ["-q", "rate", str(events), "--out", str(out), "--pages"]
        result = CliRunner().invoke(cli, command)
        assert result.exit_code == 0, result.output
        written[serial] = {
            path.relative_to(out).as_posix(): path.read_bytes()
            for path in sorted(out.rglob("*.html"))
        }
    assert len(written["1"]) == PARALLEL_PAGES + 3 + 1  # every event's page and the index
    assert written["0"] == written["1"]


def test_an_event_page_links_the_players_other_events_and_gives_the_period_total(
    tmp_path: Path,
) -> None:
    # A (1600) beats B (1500) in the first event: D 100 → PD 0.64, +0.36 × 20 = +7.20; and
    # draws C (1700) in the second: D -100 → PD 0.36, +0.14 × 20 = +2.80. The period:
    # +10.00 → 1610 (K 20: 30+ games assumed without a list).
    from db_helpers import run
    from html_text import read_page

    players = [P(1, "Alpha, A", 1600, 11, ADULT), P(2, "Beta, B", 1500, 12, ADULT)]
    first = tmp_path / "first.trf"
    first.write_text(
        trf(players, [(1, 1, 2, "1-0")], name="First Open", extra=("022 Łódź", "032 POL")),
        encoding="utf-8",
    )
    second = tmp_path / "second.trf"
    players = [P(1, "Alpha, A", 1600, 11, ADULT), P(2, "Gamma, C", 1700, 13, ADULT)]
    second.write_text(
        trf(players, [(1, 1, 2, "=-=")], name="Second Open", start="2026/01/17",
            end="2026/01/18"),
        encoding="utf-8",
    )  # fmt: skip
    out = tmp_path / "out"
    status, _, stderr = run("-q", "rate", first, second, "--out", out)
    assert status == 0, stderr
    page = read_page((out / "events" / "first.html").read_text(encoding="utf-8"))
    assert "dates: 2026-01-10 – 2026-01-12 · place: Łódź, POL" in page.paragraphs[0]
    assert "Second Open (2026-01-17 – 2026-01-18): K·ΣΔR +2.80" in page.paragraphs
    assert "Period (all its events): K·ΣΔR +10.00 → Rn 1610" in page.paragraphs
    assert "second.html#p-11" in page.links
    target = (out / "events" / "second.html").read_text(encoding="utf-8")
    assert 'id="p-11"' in target and "First Open (2026-01-10 – 2026-01-12): K·ΣΔR +7.20" in (
        read_page(target).paragraphs
    )
    # B played one event: no list of other events.
    assert 'href="second.html#p-12"' not in (out / "events" / "first.html").read_text("utf-8")
    index = read_page((out / "index.html").read_text(encoding="utf-8"))
    assert ["First Open", "2026-01-10 – 2026-01-12", "Łódź, POL", "2", "1"] in index.rows


@pytest.mark.parametrize(
    ("title", "hidden"),
    [("", "event no-title no-federation"), ("GM", "event no-federation")],
    ids=["no-titles", "a-title"],
)
def test_a_column_no_player_of_the_page_fills_is_left_out(
    tmp_path: Path, title: str, hidden: str
) -> None:
    # The players of FOUR have FIDE IDs but no federation; one of them a title or none.
    from db_helpers import run

    players = [P(p.rank, p.name, p.rating, p.fide_id, p.birth, title=title if p.rank == 1 else "")
               for p in FOUR]  # fmt: skip
    event = tmp_path / "four.trf"
    event.write_text(trf(players, GAMES), encoding="utf-8")
    assert run("-q", "rate", event, "--out", tmp_path / "out")[0] == 0
    page = (tmp_path / "out" / "events" / "four.html").read_text(encoding="utf-8")
    assert f'<body class="{hidden}">' in page
