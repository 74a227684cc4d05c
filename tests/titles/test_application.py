"""A title application's arithmetic (docs/norms.md §7) and ``rating-batch title-check``."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import read_csv

from rating_batch.cli import cli
from rating_batch.errors import InputError
from rating_batch.titles.application import (
    Application,
    NormEntry,
    Verdict,
    check_application,
    norm_credit,
    parse_application,
)
from rating_batch.titles.rules import EDITIONS

B2024 = EDITIONS["2024"]


def norm(games: int = 9, title: str = "IM", **fields: object) -> NormEntry:
    values: dict[str, object] = {"event": "Open", "end": dt.date(2025, 5, 1), "strong_event": True}
    values.update(fields)
    return NormEntry(games=games, title=title, **values)  # type: ignore[arg-type]


def verdict(*norms: NormEntry, title: str = "IM", peak: int = 2410) -> Verdict:
    return check_application(Application("Seeker", title, peak, tuple(norms)))


def failing(*norms: NormEntry, title: str = "IM", peak: int = 2410) -> str:
    return verdict(*norms, title=title, peak=peak).failing


@pytest.mark.parametrize(
    ("entry", "credit"),
    [
        (norm(9), 9),
        (norm(11), 11),  # a 10- or 11-game norm counts 10 or 11
        (norm(15), 13),  # more than 13 rounds count 13 (1.7)
        (norm(8, credit_141c=True), 9),  # 8 + a forfeit win or PAB (1.4.1c)
        (norm(8, points=6.0, points_needed=5.0), 9),  # 8 games + 1 point over: 9 (1.4.1d)
        (norm(9, points=6.5, points_needed=6.0), 9),  # half a point over adds nothing
        (norm(9, points=7.5, points_needed=5.5), 11),  # 2 points over: 2 games
    ],
    ids=str,
)
def test_each_norm_counts_its_games_the_cap_the_141c_credit_and_the_overscore(
    entry: NormEntry, credit: int
) -> None:
    assert norm_credit(entry, B2024) == credit


def test_three_nine_game_norms_make_27_and_two_13s_do_not() -> None:
    assert verdict(norm(), norm(), norm()).eligible
    # 13 + 13 = 26 < 27; 13 + 13 + 9 = 35.
    assert failing(norm(13), norm(13)) == "1.5.1 norm games 26 (needed ≥ 27)"
    assert verdict(norm(13), norm(13), norm()).norm_games == 35


def test_the_rating_requirement_of_the_title() -> None:
    # 1.5.3: GM 2500, IM 2400, WGM 2300, WIM 2200.
    assert failing(norm(), norm(), norm(), peak=2399) == "1.5.3 peak rating 2399 (needed ≥ 2400)"
    assert verdict(norm(9, "WIM"), norm(9, "WIM"), norm(9, "WIM"), title="WIM", peak=2200).eligible


def test_one_norm_without_an_exemption_is_needed() -> None:
    exempt = [norm(exemption="zonal"), norm(exemption="swiss-1.4.3d"), norm(exemption="zonal")]
    assert failing(*exempt) == "1.4.3e norms without an exemption 0 (needed ≥ 1)"


def test_only_one_141c_norm() -> None:
    text = failing(norm(8, credit_141c=True), norm(8, credit_141c=True), norm(9))
    assert text == "1.4.1c norms with the 8 + 1 credit 2 (needed ≤ 1)"


def test_a_norm_from_july_2022_on_needs_a_strong_event_norm() -> None:
    weak = [norm(strong_event=False)] * 3
    assert "1.5.6 strong-event norms" in failing(*weak)
    older = [norm(strong_event=False, end=dt.date(2022, 6, 30))] * 3
    assert verdict(*older).eligible  # 2022 edition, every norm before 1 Jul 2022


def test_a_gm_application_needs_a_norm_from_one_round_a_day() -> None:
    gm = [norm(title="GM")] * 3
    assert failing(*gm, title="GM", peak=2500) == "1.1.3a norms from one round a day 0 (needed ≥ 1)"
    daily = [norm(title="GM", one_round_a_day=True), *gm[1:]]
    assert verdict(*daily, title="GM", peak=2500).eligible


def test_a_gm_norm_serves_an_im_application_and_an_im_norm_no_gm_one() -> None:
    assert verdict(norm(title="GM"), norm(title="GM"), norm()).norm_games == 27
    gm = verdict(norm(title="IM", one_round_a_day=True), norm(title="GM"), norm(title="GM"),
                 title="GM", peak=2500)  # fmt: skip
    assert gm.credits == (0, 9, 9)


GOOD = """name = "Seeker, Ann"
fide_id = 1001
sex = "F"
title = "IM"
peak_rating = 2412

[[norms]]
event = "Norm Round Robin (synthetic)"
end = 2026-03-15
games = 9
title = "IM"
points = 7.5
points_needed = 6

[[norms]]
event = "Open A"
end = 2025-08-02
games = 10
title = "IM"
strong_event = true

[[norms]]
event = "Open B"
end = 2025-01-12
games = 9
title = "GM"
"""


def test_an_application_file_is_read_with_its_defaults() -> None:
    application = parse_application(GOOD, "app.toml")
    assert (application.name, application.title, application.peak_rating) == (
        "Seeker, Ann",
        "IM",
        2412,
    )
    first = application.norms[0]
    assert (first.points, first.points_needed, first.exemption, first.credit_141c) == (
        7.5,
        6.0,
        "",
        False,
    )
    assert application.norms[1].line == 15


def test_every_problem_of_an_application_file_is_named_at_its_line() -> None:
    bad = (
        GOOD.replace('title = "IM"\npoints = 7.5', 'title = "IX"\npoints = 7.5')
        .replace("games = 10", 'games = "ten"')
        .replace('event = "Open B"\n', "")
        .replace("peak_rating = 2412", "peak_ratng = 2412")
    )
    with pytest.raises(InputError) as caught:
        parse_application(bad, "app.toml")
    assert [str(issue) for issue in caught.value.issues] == [
        "app.toml:5: unknown key 'peak_ratng' (did you mean 'peak_rating'?)",
        "app.toml:1: peak_rating is missing",
        "app.toml:11: title 'IX': use one of GM, IM, WGM, WIM",
        "app.toml:18: games = 'ten': expected a whole number",
        "app.toml:22: [[norms]] event is missing",
    ]


def test_a_file_that_is_not_toml_names_its_line() -> None:
    with pytest.raises(InputError, match=r"app.toml:2: not valid TOML"):
        parse_application('name = "A"\ntitle = \n', "app.toml")


def test_title_check_prints_the_verdict_and_writes_the_files(tmp_path: Path) -> None:
    path = tmp_path / "app.toml"
    path.write_text(GOOD, encoding="utf-8")
    result = CliRunner().invoke(cli, ["title-check", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0
    # 9 + 1 (1.5 points over 6) + 10 + 9 = 29.
    assert result.stdout.splitlines()[:4] == [
        "Seeker, Ann: IM eligible (B.01 2024)",
        "  IM norm, Norm Round Robin (synthetic) (2026-03-15): 9 games, counts 10",
        "  IM norm, Open A (2025-08-02): 10 games, counts 10",
        "  GM norm, Open B (2025-01-12): 9 games, counts 9",
    ]
    assert read_csv(tmp_path / "out" / "application.csv") == [
        {"title": "IM", "eligible": "true", "norm_games": "29", "rating_ok": "true", "failing": ""}
    ]
    assert "ELIGIBLE" in (tmp_path / "out" / "application.html").read_text(encoding="utf-8")


def test_title_check_of_an_ineligible_application_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "app.toml"
    path.write_text(GOOD.replace("peak_rating = 2412", "peak_rating = 2380"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["title-check", str(path)])
    assert result.exit_code == 0
    assert "1.5.3 peak rating: 2380 (≥ 2400) NOT MET" in result.stdout


def test_title_check_of_a_malformed_file_exits_1_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "app.toml"
    path.write_text(
        GOOD.replace('games = 9\ntitle = "GM"', 'games = 9\ntitle = "GX"'), encoding="utf-8"
    )
    result = CliRunner().invoke(cli, ["title-check", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert result.stderr == f"Error: {path}:26: title 'GX': use one of GM, IM, WGM, WIM\n"
    assert not (tmp_path / "out").exists()


IMPOSSIBLE = """\
name = "Seeker, Ann"
fide_id = -5
sex = "x"
title = "IM"
peak_rating = 99999
games_at_peak = -3

[[norms]]
event = "Open A"
end = 2026-03-15
games = 0
title = "IM"
points = 7.25
points_needed = -1

[[norms]]
event = "Open A"
end = 2026-03-15
games = 9
title = "WIM"

[[norms]]
event = "Open C"
end = 2099-01-01
games = 400
title = "IM"
points = 400
"""


def test_values_no_it2_can_hold_are_refused_each_at_its_line() -> None:
    """The red team's file was judged "GM eligible" from a 0-game norm scoring 12 and a
    400-game one; one norm pasted three times made 27 games of one event."""
    with pytest.raises(InputError) as caught:
        parse_application(IMPOSSIBLE, "app.toml")
    today = dt.date.today()
    assert [str(issue) for issue in caught.value.issues] == [
        'app.toml:3: sex = \'x\': use "m", or "w" or "f"',
        "app.toml:5: peak_rating = 99999: a rating from 1000 to 3000",
        "app.toml:2: fide_id = -5: a FIDE ID is a positive number",
        "app.toml:6: games_at_peak = -3: not below 0",
        "app.toml:11: games = 0: a norm is made over 7 to 30 games",
        "app.toml:13: points = 7.25: a score in half points, from 0 to the games",
        "app.toml:14: points_needed = -1: a score in half points, from 0 to the games",
        "app.toml:16: the norm of 'Open A' ended 2026-03-15 again (line 8): an event gives one "
        "norm, counted once, whatever titles it was a norm for",
        "app.toml:25: games = 400: a norm is made over 7 to 30 games",
        "app.toml:24: end = 2099-01-01: after today (" + str(today) + ")",
    ]


def test_a_womens_title_for_a_man_and_norms_older_than_every_edition_are_refused() -> None:
    man = GOOD.replace('title = "IM"\npeak_rating', 'title = "WIM"\npeak_rating').replace(
        'sex = "F"', 'sex = "m"'
    )
    with pytest.raises(InputError, match="a WIM application for a man"):
        parse_application(man, "app.toml")
    old = IMPOSSIBLE.split("\n\n[[norms]]")[0].replace("99999", "2410")
    old = old.replace('"x"', '"w"').replace("-5", "5").replace("-3", "3")
    old += '\n\n[[norms]]\nevent = "Old Open"\nend = 2010-05-01\ngames = 9\ntitle = "IM"\n'
    with pytest.raises(InputError, match="every norm ended before 2014-07-01"):
        parse_application(old, "app.toml")
