"""The site's writers (writers/site.py): top lists, changes and scores as shown, page names,
the stylesheet's contrast; and that the site checks (tests/site_checks.py) catch what they
look for."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from site_checks import (
    accessibility_problems,
    broken_links,
    contrast,
    html5_errors,
    stylesheet_colours,
)

from rating_batch.monthly.site_settings import SiteSettings
from rating_batch.periods import Period
from rating_batch.writers.site import (
    SiteList,
    player_stems,
    points,
    signed_text,
    system_columns,
    top_lists,
)

CSS = Path(__file__).parents[2] / "rating_batch" / "templates" / "site.css"


def listing() -> pd.DataFrame:
    """A list of 2026 (in list order): born 2007 is 19 (a junior under 20), 2006 is 20 (not),
    1961 is 65 (a senior), 1962 is 64 (not)."""
    return pd.DataFrame(
        {
            "id": ["1", "2", "3", "4", "5", "6"],
            "name": ["A", "B", "C", "D", "E", "F"],
            "sex": ["M", "F", "M", "F", "M", "F"],
            "birth_year": ["1990", "2007", "2006", "1961", "1962", ""],
        }
    )


def test_top_lists_take_juniors_under_20_and_seniors_of_65_in_the_lists_year() -> None:
    tops = top_lists(listing(), 2026, SiteSettings())
    names = {group: frame["name"].tolist() for group, frame in tops.items()}
    assert names == {
        "open": ["A", "B", "C", "D", "E", "F"],
        "women": ["B", "D", "F"],
        "juniors": ["B"],
        "seniors": ["D"],
    }


def test_top_lists_are_cut_at_the_settings_size_and_ages() -> None:
    tops = top_lists(listing(), 2026, SiteSettings(top=2, junior_age=21, senior_age=64))
    names = {group: frame["name"].tolist() for group, frame in tops.items()}
    assert names == {
        "open": ["A", "B"],
        "women": ["B", "D"],
        "juniors": ["B", "C"],
        "seniors": ["D", "E"],
    }


def test_changes_are_signed_with_a_true_minus_and_blank_when_unknown() -> None:
    shown = signed_text(pd.Series([13.0, -13.0, 0.0, float("nan")]))
    assert shown.tolist() == ["+13", "−13", "0", ""]


def test_scores_are_written_as_a_crosstable_writes_them() -> None:
    assert points(pd.Series([3.0, 3.5, 0.5, 0.0])).tolist() == ["3", "3½", "½", "0"]


def test_a_systems_own_columns_follow_the_shared_ones_flags_left_out() -> None:
    frame = pd.DataFrame(
        columns=[
            "id",
            "name",
            "federation",
            "sex",
            "title",
            "birth_year",
            "rating",
            "rd",
            "volatility",
            "games",
            "inactive",
        ]
    )
    frame.loc[0] = ["1", "A", "", "", "", "", "1500", "200", "0.06", "0", "false"]
    assert system_columns(frame) == ["rd", "volatility"]


def test_a_player_without_fide_id_gets_a_page_name_of_letters_digits_and_dashes() -> None:
    lists = [
        SiteList(
            Period.parse("2026-02"),
            "standard",
            pd.DataFrame({"id": ["900000020", "open-2026#12", "900000020"]}),
            None,
            None,
            None,
            pd.DataFrame(),
            {},
        )
    ]
    assert player_stems(lists).to_dict() == {
        "900000020": "900000020",
        "open-2026#12": "open-2026-12",
    }


def test_every_colour_of_the_stylesheet_has_a_contrast_of_4_5_on_every_background() -> None:
    text, backgrounds = stylesheet_colours(CSS.read_text())
    assert "#111111" in text and "#0645ad" in text and "#eeeeee" in backgrounds
    worst = min((contrast(t, b), t, b) for t in text for b in backgrounds)
    assert worst[0] >= 4.5, worst


def test_the_contrast_formula_gives_wcags_figures() -> None:
    # WCAG 2: black on white is 21:1; #767676 on white is the lightest grey passing 4.5:1.
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)
    assert contrast("#777777", "#ffffff") < 4.5


def test_the_checks_find_a_broken_link_a_missing_id_and_a_link_outside(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text(
        '<a href="b.html">b</a><a href="b.html#x">x</a><a href="b.html#y">y</a>'
        '<a href="c.html">c</a><a href="https://example.org/">out</a>'
        '<a href="../outside.html">up</a>'
    )
    (tmp_path / "b.html").write_text('<p id="x">x</p>')
    assert broken_links(tmp_path) == [
        "a.html: b.html#y (no such id)",
        "a.html: c.html",
        "a.html: https://example.org/ (outside the site)",
        "a.html: ../outside.html",
    ]


def test_the_checks_find_bad_html_and_missing_labels_scopes_and_lang(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_text(
        "<html><body><table><tr><th>a</th></tr></table><input id=q><img src=x.png></body></html>"
    )
    assert html5_errors(page)  # no doctype
    assert accessibility_problems(page) == [
        "p.html: no lang on <html>",
        "p.html: 1 <th> without scope",
        "p.html: controls without a label: ['q']",
        "p.html: 1 <img> without alt",
    ]


def test_the_pages_speak_the_settings_language_and_carry_title_and_date(tmp_path: Path) -> None:
    from rating_batch.staging import staged_outputs
    from rating_batch.writers.site import ranked_lists, write_site_pages

    frame = listing().assign(
        federation="POR",
        title="",
        games="0",
        rating=["2000", "1900", "1800", "1700", "1600", "1500"],
    )
    frame = frame.assign(rating_value=frame["rating"].astype(float), change_value=float("nan"))
    lists = ranked_lists(
        [SiteList(Period.parse("2026-03"), "rapid", frame, None, None, None,
                  pd.DataFrame(columns=["key", "name", "start", "end"]), {})],
        lower_is_better=False,
    )  # fmt: skip
    settings = SiteSettings(title="Federação Exemplo", language="pt")
    with staged_outputs(tmp_path) as outputs:
        outputs.own(tmp_path / "site", ".*")
        write_site_pages(lists, settings, player_stems(lists), tmp_path / "site", outputs)
    page = (tmp_path / "site" / "2026-03" / "rapid" / "list.html").read_text(encoding="utf-8")
    assert '<html lang="pt">' in page
    assert "<h1>Lista de rating: rápido 2026-03</h1>" in page
    assert "<span>Federação Exemplo</span>" in page and "2026-03-01" in page
    assert '<option value="juniors">Juniores (menos de 20 anos)</option>' in page


def test_a_systems_numbers_are_shown_to_one_number_of_decimals() -> None:
    # Glicko-2's σ (docs/site.md §1): list.csv drops trailing zeros (0.06 beside 0.059984);
    # the list page shows the column to the decimals it has (6), a player's calculation to
    # the system's (its notation: σ 6, US Chess's Ri (Step 4) and N' 2 as player prints
    # them: 1700.50 and 10.00, not 1700.5 and 10.0); a text that is no number as it is.
    from rating_batch.writers.site import same_decimals
    from rating_batch.writers.site_players import _rounded_texts

    sigma = pd.Series(["0.06", "0.059984", "", "0.1"])
    assert same_decimals(sigma).tolist() == ["0.060000", "0.059984", "", "0.100000"]
    assert same_decimals(pd.Series(["51", "48"])).tolist() == ["51", "48"]
    assert _rounded_texts(pd.Series(["0.06", "0.0599841"]), 6, exact=True) == {
        "0.06": "0.060000", "0.0599841": "0.059984"}  # fmt: skip
    assert _rounded_texts(pd.Series(["1700.5", "10.0", "30", "mixed"]), 2, exact=True) == {
        "1700.5": "1700.50", "10.0": "10.00", "30": "30.00"}  # fmt: skip
    assert _rounded_texts(pd.Series(["1750.5", "0.89"]), 2) == {}


def test_the_rating_before_an_event_is_rounded_to_the_lists_decimals() -> None:
    # ECF grade's calculation keeps 2 decimals (150.55), its list.csv whole (157): the event
    # page shows 151, half away from zero as the list rounds (docs/site.md §1); a player
    # without a calculation row keeps players.csv's rating, rounded the same (1500.5 → 1501).
    from rating_batch.writers.site import _before

    listing = pd.DataFrame({"id": ["1", "2"], "rating": ["157", "1501"]})
    calculations = pd.DataFrame({"id": ["1", "1"], "event": ["e", "e"],
                                 "rating": ["150.55", "150.55"]})  # fmt: skip
    each = SiteList(Period.parse("2026-07"), "standard", listing, None, None, calculations,
                    pd.DataFrame(columns=["key", "name", "start", "end"]), {})  # fmt: skip
    results = pd.DataFrame({"id": ["1", "2"], "event": ["e", "e"]})
    known = pd.DataFrame({"rating": ["150", "1500.5"]}, index=["1", "2"])
    assert _before(each, results, known).tolist() == ["151", "1501"]
