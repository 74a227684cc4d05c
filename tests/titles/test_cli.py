"""``rating-batch norms`` as an officer runs it: the files, the messages and exit codes."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner, Result
from conftest import read_csv
from trf_text import trf

from rating_batch.cli import cli
from rating_batch.titles.search import NORMS_COLUMNS
from titles.test_search import ROUND_ROBIN, round_robin

SAMPLE = Path(__file__).parents[2] / "sample_data" / "norms" / "roundrobin.trf"


def run(*args: object) -> Result:
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_norms_of_the_sample_round_robin_writes_the_csv_the_table_and_the_certificates(
    tmp_path: Path,
) -> None:
    result = run("norms", SAMPLE, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        "roundrobin: Seeker, Ann (1001) IM norm, 7.5/9, Rp 2630, rounds 1-9"
    )
    assert result.output.splitlines()[-1] == "1 event(s), 10 player(s) checked: 3 norm(s)"
    out = tmp_path / "out"
    rows = read_csv(out / "norms.csv")
    assert list(rows[0]) == list(NORMS_COLUMNS)
    # Ten players: Ann seeks 4 norm titles, the nine men 2 each.
    assert len(rows) == 4 + 9 * 2
    im = next(r for r in rows if r["id"] == "1001" and r["norm_title"] == "IM")
    assert (im["norm"], im["Ra"], im["Rp"], im["p"], im["dp"], im["credit_games"]) == (
        "true", "2357", "2630", "83", "273", "10",
    )  # fmt: skip
    gm = next(r for r in rows if r["id"] == "1001" and r["norm_title"] == "GM")
    assert (gm["norm"], gm["failing"], gm["raised_opponent"]) == (
        "false", "1.4.8 Ra 2362 < 2380", "Plain, Nine",
    )  # fmt: skip
    assert sorted(p.name for p in (out / "norms").iterdir()) == [
        "1001-IM.html", "1001-WGM.html", "1001-WIM.html",
    ]  # fmt: skip
    table = (out / "norms.html").read_text(encoding="utf-8")
    assert 'href="norms/1001-IM.html"' in table
    page = (out / "norms" / "1001-IM.html").read_text(encoding="utf-8")
    for shown in ("IM NORM", "2357", "2630", "Chief arbiter", "not in the file", "1.4.5a"):
        assert shown in page


def test_one_player_by_fide_id_or_start_rank(tmp_path: Path) -> None:
    by_id = run("norms", SAMPLE, "--player", "1002", "--out", tmp_path / "a")
    by_rank = run("norms", SAMPLE, "--player", "2", "--out", tmp_path / "b")
    assert by_id.exit_code == by_rank.exit_code == 0
    assert by_id.output.splitlines()[-1] == "1 event(s), 1 player(s) checked: 0 norm(s)"
    assert read_csv(tmp_path / "a" / "norms.csv") == read_csv(tmp_path / "b" / "norms.csv")


def test_a_player_in_no_event_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    result = run("norms", SAMPLE, "--player", "999", "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert result.stderr == "Error: --player: '999' is no FIDE ID or start rank of the events\n"
    assert not (tmp_path / "out").exists()


def test_an_unreadable_event_names_the_file_and_line_and_exits_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.trf"
    text = SAMPLE.read_text(encoding="utf-8").splitlines()
    text[6] = text[6].replace("  10 w 1", "  99 w 1")
    bad.write_text("\n".join(text) + "\n", encoding="utf-8")
    result = run("norms", bad, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: {bad}:7: round 1: opponent 99 is not a player")
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_an_edition_named_is_used(tmp_path: Path) -> None:
    result = run("norms", SAMPLE, "--edition", "2017", "--out", tmp_path / "out")
    assert result.exit_code == 0
    gm = read_csv(tmp_path / "out" / "norms.csv")[0]
    assert (gm["edition"], gm["failing"]) == ("2017", "1.48a Ra 2362 < 2380")


def test_an_unknown_edition_is_a_usage_error() -> None:
    result = run("norms", SAMPLE, "--edition", "2019")
    assert result.exit_code == 2 and "'2019' is not one of" in result.stderr


def test_several_events_each_write_their_own_folder(tmp_path: Path) -> None:
    other = tmp_path / "in" / "again.trf"
    other.parent.mkdir()
    # Another round-robin of the same players, Ann drawing every game: 4.5/9, Rp = Ra 2357
    # + dp(0.50) 0 = 2357: a WIM norm (2250), not an IM one (2450).
    games = round_robin(ROUND_ROBIN, {rank: "=-=" for rank in range(2, 11)})
    other.write_text(trf(ROUND_ROBIN, games, start="2026/04/07", end="2026/04/15"), "utf-8")
    result = run("norms", SAMPLE, other, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "roundrobin" / "norms" / "1001-IM.html").exists()
    assert (tmp_path / "out" / "again" / "norms.csv").exists()
    assert (tmp_path / "out" / "again" / "norms" / "1001-WIM.html").exists()
    assert not (tmp_path / "out" / "again" / "norms" / "1001-IM.html").exists()


def test_the_same_event_twice_is_refused_not_two_norms(tmp_path: Path) -> None:
    """One file sent twice (renamed) would make one norm two, and an application of 27
    games from one 9-game event (the red team's finding): refused as rate refuses it."""
    copy = tmp_path / "again.trf"
    shutil.copy(SAMPLE, copy)
    result = run("norms", SAMPLE, copy, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "Traceback" not in result.output and "again.trf" in result.output
    assert not (tmp_path / "out").exists()


def test_the_application_tables_of_a_players_norms(tmp_path: Path) -> None:
    result = run("norms", SAMPLE, "--player", "1001", "--application", "--out", tmp_path / "o")
    assert result.exit_code == 0
    assert result.output.startswith(
        "# Seeker, Ann (1001), IM norm\n[[norms]]\n"
        'event = "Norm Round Robin (synthetic)"\nend = 2026-03-15\ngames = 9\ntitle = "IM"\n'
        "points = 7.5\npoints_needed = 6\n"
    )
    assert not (tmp_path / "o").exists()
