"""Events written as TRF: what counts (docs/norms.md §2.2, §2.4), the federation mix and the
exemptions, and the largest game set that makes a norm (1.4.1c, e, f)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from trf_text import P, trf

from rating_batch.inputs import load_events
from rating_batch.titles.event import event_facts, event_format, round_ranges
from rating_batch.titles.search import EventNorms, event_norms

FEDERATIONS = ["GER", "FRA", "NED", "USA", "ESP", "ITA", "SUI", "AUT", "BEL", "DEN", "SWE"]


def norms_of(
    tmp_path: Path, text: str, *, exemption: str | None = None, wanted: list[int] | None = None
) -> EventNorms:
    path = tmp_path / "event.trf"
    path.write_text(text, encoding="utf-8")
    events, _ = load_events([path])
    return event_norms(events[0], event_facts(events[0]), exemption=exemption, wanted=wanted)


def row(found: EventNorms, player: int, title: str) -> pd.Series:
    rows = found.rows[(found.rows["player"] == player) & (found.rows["norm_title"] == title)]
    assert len(rows) == 1
    return rows.iloc[0]


def round_robin(players: list[P], result_of: dict[int, str]) -> list[tuple[int, int, int, str]]:
    """A round-robin by the circle method: player 1's result against each rank as given
    (white's view when 1 is white), every other game drawn."""
    ranks = [p.rank for p in players]
    count = len(ranks)
    games = []
    for rnd in range(1, count):
        for index in range(count // 2):
            white, black = ranks[index], ranks[count - 1 - index]
            if 1 in (white, black):
                other = black if white == 1 else white
                games.append((rnd, 1, other, result_of.get(other, "=-=")))
            else:
                games.append((rnd, white, black, "=-="))
        ranks = [ranks[0], ranks[-1], *ranks[1:-1]]
    return games


#: A 10-player round-robin (synthetic): Ann (ENG 2290, a woman) against 3 GMs, 2 IMs, an FM
#: and 3 untitled players of 7 federations (3 English).
ROUND_ROBIN = [
    P(1, "Seeker, Ann", 2290, 1001, sex="w", title="WIM", federation="ENG"),
    P(2, "Gm, One", 2550, 1002, title="GM", federation="GER"),
    P(3, "Gm, Two", 2500, 1003, title="GM", federation="FRA"),
    P(4, "Gm, Three", 2480, 1004, title="GM", federation="NED"),
    P(5, "Im, Four", 2400, 1005, title="IM", federation="ENG"),
    P(6, "Im, Five", 2380, 1006, title="IM", federation="USA"),
    P(7, "Fm, Six", 2300, 1007, title="FM", federation="ENG"),
    P(8, "Plain, Seven", 2250, 1008, federation="ENG"),
    P(9, "Plain, Eight", 2200, 1009, federation="SCO"),
    P(10, "Plain, Nine", 2150, 1010, federation="WLS"),
]


def test_a_round_robin_of_ten_with_an_im_norm(tmp_path: Path) -> None:
    # Draws with the 3 GMs, wins against the other 6: 7.5/9 = 83.3 % → 83, dp 273.
    # IM: ratings 2550 + 2500 + 2480 + 2400 + 2380 + 2300 + 2250 + 2200 + 2150 = 21210,
    # none under 2050: Ra 21210 / 9 = 2356.7 → 2357, Rp 2630 ≥ 2450; IM/GM targets 5 ≥ 3.
    # GM: 2150 raised to 2200: 21260 / 9 = 2362.2 → 2362 < 2380: no GM norm.
    text = trf(ROUND_ROBIN, round_robin(ROUND_ROBIN, dict.fromkeys(range(5, 11), "1-0")))
    found = norms_of(tmp_path, text)
    assert found.facts.format == "round-robin"
    im = row(found, 1, "IM")
    assert (im["norm"], im["games"], im["points"], im["Ra"], im["Rp"]) == (True, 9, 7.5, 2357, 2630)
    assert (im["titled"], im["target_titled"], im["own_federation"]) == (6, 5, 3)
    assert im["rounds_counted"] == "1-9" and im["games_dropped"] == ""
    # 1 full point over the 6 needed (6/9 = 67 %, dp 125: 2482): 9 + 1 = 10 games.
    assert (im["points_needed"], im["credit_games"]) == (6.0, 10)
    gm = row(found, 1, "GM")
    assert not gm["norm"] and gm["failing"] == "1.4.8 Ra 2362 < 2380"
    assert (gm["raised_opponent"], gm["raised_from"], gm["raised_to"]) == (
        "Plain, Nine",
        2150,
        2200,
    )
    # Women seek WGM and WIM too, men only GM and IM.
    assert list(found.rows[found.rows["player"] == 1]["norm_title"]) == ["GM", "IM", "WGM", "WIM"]
    assert list(found.rows[found.rows["player"] == 2]["norm_title"]) == ["GM", "IM"]


def test_a_round_robin_never_leaves_out_the_rounds_after_the_norm(
    tmp_path: Path,
) -> None:
    # The same event with Ann's two English wins (5 and 7) … the mix holds; but a round-robin
    # never leaves out the rounds after the norm: rounds_counted is the whole event.
    text = trf(ROUND_ROBIN, round_robin(ROUND_ROBIN, {5: "1-0", 6: "1-0", 7: "1-0", 8: "0-1"}))
    found = norms_of(tmp_path, text, wanted=[1])
    assert all(found.rows["rounds_counted"] == "1-9")
    assert not any(found.rows["games_dropped"].str.contains("1.4.1e"))


@pytest.mark.parametrize(
    ("players", "rounds", "expected"),
    [
        (10, 9, "round-robin"),
        (9, 9, "round-robin"),
        (6, 10, "double round-robin"),
        (14, 11, "swiss"),
        (137, 7, "swiss"),
    ],
    ids=str,
)
def test_the_format_is_told_from_players_and_rounds(
    players: int, rounds: int, expected: str
) -> None:
    assert event_format(players, rounds) == expected


@pytest.mark.parametrize(
    ("rounds", "text"), [((1, 2, 3), "1-3"), ((1, 2, 3, 4, 5, 6, 7, 8, 10), "1-8,10"), ((), "")]
)
def test_rounds_are_written_as_runs(rounds: tuple[int, ...], text: str) -> None:
    assert round_ranges(rounds) == text


def swiss(results: list[str], *, ratings: list[int] | None = None, **seeker: object) -> str:
    """A Swiss of 14 players (so not a round-robin) in which player 1 meets 2, 3, … in rounds
    1, 2, …: 4 GMs, 2 IMs and 5 untitled of 11 federations, 2450 each unless ``ratings``."""
    titles = ["GM", "GM", "GM", "GM", "IM", "IM", "", "", "", "", ""]
    ratings = ratings or [2450] * 11
    players = [P(1, "Seeker, Sam", 2350, 1001, title="FM", federation="ENG", **seeker)]  # type: ignore[arg-type]
    players += [
        P(
            n + 2,
            f"Opponent {n + 2}",
            ratings[n],
            2000 + n,
            title=titles[n],
            federation=FEDERATIONS[n],
        )
        for n in range(11)
    ]
    players += [P(13, "Filler, A", 1500, 3001, federation="ENG"), P(14, "Filler, B", 1500, 3002)]
    games = []
    for number, result in enumerate(results, start=1):
        if result in ("U", "F", "H", "Z"):
            games.append((number, 1, None, result))
        else:
            games.append((number, 1, number + 1, result))
    return trf(players, games, start="2026/01/10", end="2026/01/20")


def test_a_swiss_norm_leaves_out_the_rounds_after_the_norm_and_keeps_the_most_games(
    tmp_path: Path,
) -> None:
    # All opponents 2450. 7/9 (78 %, dp 220: 2670); 7.5/10 (75 %, dp 193: 2643);
    # 7.5/11 (68 %, dp 133: 2583 < 2600). The 10-game set is the norm: round 11 left out
    # (Bhat, Balaguer 2006: the longest set that qualifies, not the 9-round one).
    text = swiss(["1-0"] * 6 + ["=-=", "=-=", "0-1", "=-=", "0-1"])
    gm = row(norms_of(tmp_path, text, wanted=[1]), 1, "GM")
    assert (gm["norm"], gm["games"], gm["points"], gm["Rp"]) == (True, 10, 7.5, 2643)
    assert gm["rounds_counted"] == "1-10"
    assert gm["games_dropped"] == "r11 after the norm (1.4.1e)"
    # 11 opponents: ⌈11/2⌉ = 6 titled, max(3, ⌈11/3⌉) = 4 GMs; over 10: 5 and 4. Both met.
    assert (gm["titled"], gm["target_titled"]) == (6, 4)


def test_a_swiss_norm_leaves_out_a_win_against_a_weak_opponent(tmp_path: Path) -> None:
    # IM: 9 opponents 2240 and, in round 5, one 1700 (raised to 2050): 8/10 = 80 % (dp 240),
    # Ra (9 × 2240 + 2050) / 10 = 2221 < 2230. Without the round-5 win: 7/9 = 77.8 % → 78
    # (dp 220), Ra 2240, Rp 2460: a norm. Leaving out any other win keeps the 1700 (Ra
    # (8 × 2240 + 2050) / 9 = 2219), and so does leaving out round 10 (r1-9: the same).
    ratings = [2240, 2240, 2240, 2240, 1700, 2240, 2240, 2240, 2240, 2240, 2240]
    results = ["1-0", "1-0", "1-0", "1-0", "1-0", "1-0", "1-0", "0-1", "=-=", "=-="]
    im = row(norms_of(tmp_path, swiss(results, ratings=ratings), wanted=[1]), 1, "IM")
    assert (im["norm"], im["games"], im["points"], im["Ra"], im["Rp"]) == (True, 9, 7.0, 2240, 2460)
    assert im["games_dropped"] == "r5 a win dropped (1.4.1f)"
    assert im["rounds_counted"] == "1-4,6-10"


def test_a_full_set_that_fails_is_reported_with_every_article(tmp_path: Path) -> None:
    text = swiss(["0-1"] * 9)
    gm = row(norms_of(tmp_path, text, wanted=[1]), 1, "GM")
    # 0/9: 0 %, dp −800: Rp 2450 − 800 = 1650.
    assert gm["failing"] == "1.4.8b points 0 < 3.5 (35 %); 1.4.8a Rp 1650 < 2600"
    assert pd.isna(gm["credit_games"])


def test_eight_games_and_a_forfeit_win_in_a_nine_round_event_count_nine(tmp_path: Path) -> None:
    # 1.4.1c: round 9 won by forfeit. 8 games at 2450: 6/8 = 75 % (dp 193): Rp 2643.
    # On 8 games: ⌈8/2⌉ = 4 titled (6 met), max(3, ⌈8/3⌉) = 3 GMs (4 met).
    text = swiss(["1-0"] * 5 + ["=-=", "=-=", "0-1", "+--"])
    found = norms_of(tmp_path, text, wanted=[1])
    assert found.facts.rounds == 9
    gm = row(found, 1, "GM")
    assert (gm["norm"], gm["games"], gm["points"], gm["Rp"]) == (True, 8, 6.0, 2643)
    assert gm["games_dropped"] == "r9 forfeit"
    # Needed at Ra 2450: dp ≥ 150 is p ≥ 71 % (dp .71 = 158), 6/8 = 75: 6 points; credit 9.
    assert (gm["credit_141c"], gm["credit_games"]) == (True, 9)


def test_eight_games_and_a_half_point_bye_are_too_few(tmp_path: Path) -> None:
    text = swiss(["1-0"] * 5 + ["=-=", "=-=", "0-1", "H"])
    gm = row(norms_of(tmp_path, text, wanted=[1]), 1, "GM")
    assert not gm["norm"] and gm["failing"].startswith("1.4.1a games 8 < 9")
    assert gm["games_dropped"] == "r9 bye"


def test_a_non_opponents_game_does_not_count(tmp_path: Path) -> None:
    text = swiss(["1-0"] * 9).replace(" NED ", " NON ")
    gm = row(norms_of(tmp_path, text, wanted=[1]), 1, "GM")
    assert gm["games"] == 8 and "r3 NON opponent" in gm["games_dropped"]


def test_a_rapid_event_makes_no_norm(tmp_path: Path) -> None:
    text = swiss(["1-0"] * 9).replace(
        "052 2026/01/20\n", "052 2026/01/20\n122 15 minutes + 10 seconds\n"
    )
    found = norms_of(tmp_path, text, wanted=[1])
    gm = row(found, 1, "GM")
    assert not gm["norm"]
    assert gm["failing"].startswith("0.5 rapid event, not standard")


def test_a_national_championship_exempts_only_the_host_federations_players(
    tmp_path: Path,
) -> None:
    # All of Sam's opponents English: 1.4.3 and 1.4.4 fail, unless the English championship
    # exempts him (a player of the host federation, 032 ENG).
    text = swiss(["1-0"] * 6 + ["=-=", "=-=", "0-1"])
    for code in FEDERATIONS:
        text = text.replace(f" {code} ", " ENG ")
    text = text.replace("052 2026/01/20\n", "052 2026/01/20\n032 ENG\n")
    plain = row(norms_of(tmp_path, text, wanted=[1]), 1, "GM")
    assert "1.4.3 foreign federations 0 < 2" in plain["failing"]
    exempt = row(norms_of(tmp_path, text, exemption="national-championship", wanted=[1]), 1, "GM")
    assert exempt["norm"] and exempt["exemption"] == "national-championship"
    foreign = "\n".join(
        line.replace(" ENG ", " SCO ") if line.startswith("001    1 ") else line
        for line in text.split("\n")
    )
    other = row(norms_of(tmp_path, foreign, exemption="national-championship", wanted=[1]), 1, "GM")
    assert other["exemption"] == "" and not other["norm"]


def test_a_round_robin_leaves_out_an_unrated_opponent_without_a_point(tmp_path: Path) -> None:
    # Plain, Nine unrated and losing every game against rated players: not counted (1.4.2).
    players = [*ROUND_ROBIN[:9], P(10, "Plain, Nine", None, 1010, federation="WLS")]
    games = round_robin(players, dict.fromkeys(range(5, 11), "1-0"))
    games = [(r, w, b, "1-0" if b == 10 else "0-1" if w == 10 else res) for r, w, b, res in games]
    found = norms_of(tmp_path, trf(players, games), wanted=[1])
    im = row(found, 1, "IM")
    assert im["games"] == 8
    assert "unrated opponent without a point" in im["games_dropped"]


def test_players_with_no_round_nor_win_to_leave_out_are_reported_not_a_crash(
    tmp_path: Path,
) -> None:
    """A 12-player round-robin: Ann beats everyone, every other game is drawn. Those who
    could still make a norm have no round after it to leave out (a round-robin) and no win
    to drop: their full set is their result (it raised ValueError: nothing to concatenate)."""
    players = [
        *ROUND_ROBIN,
        P(11, "Plain, Ten", 2100, 1011, federation="IRL"),
        P(12, "Plain, Eleven", 2050, 1012, federation="WLS"),
    ]
    games = round_robin(players, {other: "1-0" for other in range(2, 13)})
    found = norms_of(tmp_path, trf(players, games, start="2026/03/07", end="2026/03/15"))
    # Ann: 11/11 against Ra = (2550 + 2500 + 2480 + 2400 + 2380 + 2300 + 2250 + 2200 + 2150
    # + 2100 + 2050) / 11 = 25360 / 11 = 2305.45 → 2305: below the GM minimum of 2380.
    assert bool(row(found, 1, "IM")["norm"]) and not bool(row(found, 1, "GM")["norm"])
    # Every player of the field has a row of each title he may seek, none a norm but Ann.
    assert set(found.rows[found.rows["norm"].astype(bool)]["player"]) == {1}
    assert set(found.rows["player"]) == set(range(1, 13))
