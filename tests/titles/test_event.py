"""Event-level facts told from the crosstable (docs/norms.md §2.1, §2.6): the double
round-robin, 1.4.3d and 1.5.6 computed from every round, the edition's unrated figure, a
rating list's ratings, and the files of an event without a norm."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from click.testing import CliRunner
from conftest import read_csv
from trf_text import P, trf

from rating_batch.cli import cli
from rating_batch.inputs import load_events
from rating_batch.titles.event import _present, _strong, event_facts
from rating_batch.titles.rules import EDITIONS
from titles.test_search import ROUND_ROBIN, norms_of, round_robin, row

SAMPLE = Path(__file__).parents[2] / "sample_data" / "norms" / "roundrobin.trf"


def circle(ranks: list[int], rounds: int) -> list[tuple[int, int]]:
    """(round, white, black) pairings of the circle method, ``rounds`` rounds: no pairing
    repeats within len(ranks) − 1 rounds."""
    pairs = []
    order = list(ranks)
    count = len(order)
    for number in range(1, rounds + 1):
        for index in range(count // 2):
            pairs.append((number, order[index], order[count - 1 - index]))
        order = [order[0], order[-1], *order[1:-1]]
    return pairs


def test_a_double_round_robin_of_six_needs_three_different_gms(tmp_path: Path) -> None:
    # 6 players, 10 rounds: each pair meets twice. Two GMs among Sam's 5 opponents: 4 GM
    # games, 2 different GMs < 3 (decision 5).
    players = [P(1, "Seeker, Sam", 2450, 1001, federation="ENG")]
    players += [
        P(n, f"Opponent {n}", 2550, 1000 + n, title="GM" if n < 4 else "IM", federation=fed)
        for n, fed in zip(range(2, 7), ["GER", "FRA", "NED", "USA", "ESP"], strict=True)
    ]
    games = [
        (r, w, b, "1-0" if w == 1 else "0-1" if b == 1 else "=-=")
        for r, w, b in circle(list(range(1, 7)), 5)
    ]
    games += [(r + 5, b, w, res) for r, w, b, res in games]  # the second cycle, colours reversed
    games = [(r, w, b, "1-0" if w == 1 else "0-1" if b == 1 else "=-=") for r, w, b, _ in games]
    found = norms_of(tmp_path, trf(players, games, end="2026/01/20"), wanted=[1])
    assert found.facts.format == "double round-robin"
    gm = row(found, 1, "GM")
    assert gm["games"] == 10 and gm["target_titled"] == 2
    assert "1.4.5b GM different 2 < 3" in gm["failing"]


def swiss_field(
    players: int, rating: int, titled: int, host: str = "ENG", higher: dict[int, int] | None = None
) -> str:
    """A Swiss of ``players`` (9 rounds, nobody missing one), all foreign to ``host`` but
    the first, of 4 federations, ``titled`` of them GMs, every game drawn."""
    feds = ["GER", "FRA", "NED", "USA"]
    field = [P(1, "Seeker, Sam", rating, 1001, federation=host)]
    field += [
        P(n, f"Player {n}", (higher or {}).get(n, rating), 1000 + n,
          title="GM" if n <= titled + 1 else "", federation=feds[n % 4])
        for n in range(2, players + 1)
    ]  # fmt: skip
    games = [(r, w, b, "=-=") for r, w, b in circle(list(range(1, players + 1)), 9)]
    return trf(field, games, end="2026/01/20", extra=(f"032 {host}",))


def test_the_swiss_exemption_holds_with_20_rated_foreigners_10_titled_in_every_round(
    tmp_path: Path,
) -> None:
    found = norms_of(tmp_path, swiss_field(24, 2300, 12), wanted=[1])
    assert found.facts.format == "swiss" and found.facts.swiss_exemption
    assert row(found, 1, "IM")["exemption"] == "swiss-1.4.3d"
    # 9 titled foreigners are one too few.
    fewer = norms_of(tmp_path, swiss_field(24, 2300, 9), wanted=[1])
    assert not fewer.facts.swiss_exemption and row(fewer, 1, "IM")["exemption"] == ""


def test_a_strong_swiss_has_40_players_averaging_2000_in_every_round(tmp_path: Path) -> None:
    assert norms_of(tmp_path, swiss_field(40, 2000, 0), wanted=[1]).facts.strong
    assert not norms_of(tmp_path, swiss_field(40, 1999, 0), wanted=[1]).facts.strong
    assert not norms_of(tmp_path, swiss_field(38, 2100, 0), wanted=[1]).facts.strong


def test_an_unrated_opponent_counts_1000_in_2017_and_1400_in_2026(tmp_path: Path) -> None:
    # Plain, Nine unrated (he draws his other games, so he counts): IM, 1000 or 1400 raised
    # to the floor 2050 either way; GM floor 2200: (21210 − 2150 + 2200) / 9 = 2362 both.
    players = [*ROUND_ROBIN[:9], P(10, "Plain, Nine", None, 1010, federation="WLS")]
    games = round_robin(players, dict.fromkeys(range(5, 11), "1-0"))
    for start, edition in (("2020/03/01", "2017"), ("2026/03/01", "2024")):
        found = norms_of(tmp_path, trf(players, games, start=start, end=start), wanted=[1])
        im = row(found, 1, "IM")
        assert im["edition"] == edition
        assert im["raised_to"] == 2050 and im["raised_from"] == (
            1000 if edition == "2017" else 1400
        )


def test_a_rating_list_gives_the_ratings(tmp_path: Path) -> None:
    # Plain, Nine 2150 in the file, 2250 on the list: GM Ra (21210 − 2150 + 2250) / 9 = 2367.8
    # → 2368, nobody under the floor 2200 any more.
    listed = tmp_path / "list.csv"
    listed.write_text('id,name,federation,rating\n1010,"Plain, Nine",WLS,2250\n', encoding="utf-8")
    result = CliRunner().invoke(
        cli,
        [
            "norms",
            str(SAMPLE),
            "--list",
            str(listed),
            "--player",
            "1001",
            "--out",
            str(tmp_path / "o"),
        ],
    )
    assert result.exit_code == 0
    gm = read_csv(tmp_path / "o" / "norms.csv")[0]
    assert (gm["Ra"], gm["raised_opponent"], gm["failing"]) == ("2368", "", "1.4.8 Ra 2368 < 2380")


def test_an_event_of_more_than_30_days_is_noted(tmp_path: Path) -> None:
    text = trf(ROUND_ROBIN, round_robin(ROUND_ROBIN, {}), start="2026/01/01", end="2026/02/15")
    assert norms_of(tmp_path, text, wanted=[1]).facts.notes[0].startswith("1.1.4: an event of more")


def test_a_round_robin_leaves_out_a_win_when_the_mix_holds_over_the_whole_event(
    tmp_path: Path,
) -> None:
    # 12 players: Sam meets 10 at 2240 and one at 1700 (raised to the IM floor 2050).
    # All 11: 9/11 = 82 % (dp 262) but Ra (10 × 2240 + 2050) / 11 = 2222.7 → 2223 < 2230.
    # Without the win against the 1700: 8/10 = 80 % (dp 240), Ra 2240, Rp 2480: a norm.
    # Without any other win the 1700 stays: (9 × 2240 + 2050) / 10 = 2221 < 2230.
    titles = ["GM", "GM", "GM", "GM", "IM", "IM", "", "", "", "", ""]
    feds = ["GER", "FRA", "NED", "USA", "ESP", "ITA", "SUI", "AUT", "BEL", "DEN", "SWE"]
    players = [P(1, "Seeker, Sam", 2300, 1001, federation="ENG")]
    players += [
        P(n, f"Opponent {n}", 1700 if n == 12 else 2240, 1000 + n, title=titles[n - 2],
          federation=feds[n - 2])
        for n in range(2, 13)
    ]  # fmt: skip
    results = {n: "1-0" for n in range(4, 13)} | {2: "0-1", 3: "0-1"}
    found = norms_of(tmp_path, trf(players, round_robin(players, results)), wanted=[1])
    assert found.facts.format == "round-robin"
    im = row(found, 1, "IM")
    assert (im["norm"], im["games"], im["points"], im["Ra"], im["Rp"]) == (
        True,
        10,
        8.0,
        2240,
        2480,
    )
    weak_round = next(
        r for r, w, b, _ in round_robin(players, results) if 12 in (w, b) and 1 in (w, b)
    )
    assert im["games_dropped"] == f"r{weak_round} a win dropped (1.4.1f)"


def test_a_rating_list_fills_titles_and_federations_only_where_the_file_has_none(
    tmp_path: Path,
) -> None:
    # Plain, Eight has no title in the file, IM on the list: IM-norm titled 6 → 7, targets
    # 5 → 6. Gm, One is GER in the file and ESP on the list: the file's stays (7 federations).
    listed = tmp_path / "list.csv"
    listed.write_text(
        'id,name,federation,title,rating\n1009,"Plain, Eight",SCO,IM,2200\n'
        '1002,"Gm, One",ESP,GM,2550\n',
        encoding="utf-8",
    )
    out = tmp_path / "o"
    args = ["norms", str(SAMPLE), "--list", str(listed), "--player", "1001", "--out", str(out)]
    assert CliRunner().invoke(cli, args).exit_code == 0
    im = read_csv(out / "norms.csv")[1]
    assert (im["norm_title"], im["titled"], im["target_titled"], im["federations"]) == (
        "IM", "7", "6", "7",
    )  # fmt: skip


def test_the_strong_swiss_average_of_everyone_or_of_the_top_40(tmp_path: Path) -> None:
    # 44 players, 2 at 2200 and 42 at 1990. Everyone: (2 × 2200 + 42 × 1990) / 44 =
    # 87980 / 44 = 1999.5 < 2000; the top 40: (2 × 2200 + 38 × 1990) / 40 = 80020 / 40 =
    # 2000.5 (decision 7 and Sharly's reading).
    path = tmp_path / "event.trf"
    path.write_text(swiss_field(44, 1990, 0, higher={2: 2200, 3: 2200}), encoding="utf-8")
    event = load_events([path])[0][0]
    assert not event_facts(event).strong
    top_40 = dataclasses.replace(EDITIONS["2024"], strong_average_of_all=False)
    present = _present(event.games, 9)
    assert not _strong(event, present, EDITIONS["2024"])
    assert _strong(event, present, top_40)
