"""The web site in a real browser (docs/site.md §5): headless Chromium through Selenium and
chromedriver filters and sorts a rating list and opens a player's page, from the files on
disk (no server). Skipped, saying why, where Chromium or chromedriver is not installed."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from db_helpers import database, event_file, run
from trf_text import P

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver") or (
    "/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None or CHROMEDRIVER is None,
        reason="needs chromium and chromedriver (Debian: apt-get install chromium chromium-driver)",
    ),
]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A list of four: 11 A (ESP, 1980, 1600), 12 Bea (F, POR, 2010, 1500), 13 Cid (ESP,
    1950, 1400), 14 Dora (F, POR, 1990, 1450). A draws Bea and Cid draws Dora in January:
    D 100 and D 50 move the ratings by a few points (under 6), so February's list keeps the
    order A, Bea, Dora, Cid."""
    people = [
        P(1, "A", 1600, 11, 1980, federation="ESP"),
        P(2, "Bea", 1500, 12, 2010, sex="f", federation="POR"),
        P(3, "Cid", 1400, 13, 1950, federation="ESP"),
        P(4, "Dora", 1450, 14, 1990, sex="f", federation="POR"),
    ]
    return _site_of(tmp_path_factory.mktemp("browser"), people)


def _site_of(folder: Path, people: list[P]) -> Path:
    """The site of February's list: the four ``people`` on January's list at their ratings,
    1 drawing 2 and 3 drawing 4 in January."""
    db = database(folder, *(f"{p.fide_id},{p.rating}" for p in people))
    jan = event_file(folder, "jan", [(1, 1, 2, "=-="), (1, 3, 4, "=-=")], players=people)
    assert run("add", jan, "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", folder / "out")[0] == 0
    return folder / "out" / "site"


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def shown_names(driver: object) -> list[str]:
    from selenium.webdriver.common.by import By

    rows = driver.find_elements(By.CSS_SELECTOR, "table.list tbody tr")  # type: ignore[attr-defined]
    return [row.find_elements(By.TAG_NAME, "td")[1].text for row in rows if row.is_displayed()]


def test_the_list_filters_by_group_federation_and_name(site: Path, browser: object) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver = browser
    driver.get((site / "2026-02" / "standard" / "list.html").as_uri())  # type: ignore[attr-defined]
    assert shown_names(driver) == ["A", "Bea", "Dora", "Cid"]
    group = Select(driver.find_element(By.ID, "group"))  # type: ignore[attr-defined]
    group.select_by_value("women")
    assert shown_names(driver) == ["Bea", "Dora"]
    # Juniors are under 20 in 2026: Bea (2010) only; seniors 65 or older: Cid (1950).
    group.select_by_value("juniors")
    assert shown_names(driver) == ["Bea"]
    group.select_by_value("seniors")
    assert shown_names(driver) == ["Cid"]
    group.select_by_value("all")
    Select(driver.find_element(By.ID, "fed")).select_by_visible_text("ESP")  # type: ignore[attr-defined]
    assert shown_names(driver) == ["A", "Cid"]
    assert driver.find_element(By.ID, "shown").text == "2"  # type: ignore[attr-defined]
    Select(driver.find_element(By.ID, "fed")).select_by_value("")  # type: ignore[attr-defined]
    driver.find_element(By.ID, "q").send_keys("DOR")  # type: ignore[attr-defined]
    assert shown_names(driver) == ["Dora"]


def test_the_list_sorts_by_a_column_and_back(site: Path, browser: object) -> None:
    from selenium.webdriver.common.by import By

    driver = browser
    driver.get((site / "2026-02" / "standard" / "list.html").as_uri())  # type: ignore[attr-defined]
    name = driver.find_element(By.XPATH, "//th[button='Name']")  # type: ignore[attr-defined]
    name.find_element(By.TAG_NAME, "button").click()
    assert shown_names(driver) == ["A", "Bea", "Cid", "Dora"]
    assert name.get_attribute("aria-sort") == "ascending"
    name.find_element(By.TAG_NAME, "button").click()
    assert shown_names(driver) == ["Dora", "Cid", "Bea", "A"]
    born = driver.find_element(By.XPATH, "//th[button='Born']")  # type: ignore[attr-defined]
    born.find_element(By.TAG_NAME, "button").click()
    assert shown_names(driver) == ["Cid", "A", "Dora", "Bea"]


def test_a_name_on_the_list_opens_the_players_page(site: Path, browser: object) -> None:
    from selenium.webdriver.common.by import By

    driver = browser
    driver.get((site / "2026-02" / "standard" / "list.html").as_uri())  # type: ignore[attr-defined]
    driver.find_element(By.LINK_TEXT, "Dora").click()  # type: ignore[attr-defined]
    assert driver.current_url.endswith("/players/14.html")  # type: ignore[attr-defined]
    assert driver.find_element(By.TAG_NAME, "h1").text == "Dora"  # type: ignore[attr-defined]
    chart = driver.find_element(By.CSS_SELECTOR, "svg.chart")  # type: ignore[attr-defined]
    assert chart.is_displayed() and chart.size["width"] > 300


@pytest.fixture(scope="module")
def german_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A list of four German names: Groß, Weiß, Müller and Möller (officer review M14)."""
    people = [
        P(1, "Groß, Dörte", 1600, 21, 1980, sex="f", federation="GER"),
        P(2, "Weiß, Jan", 1500, 22, 1990, federation="GER"),
        P(3, "Müller, Jürgen", 1400, 23, 1970, federation="GER"),
        P(4, "Möller, Ute", 1450, 24, 1985, sex="f", federation="GER"),
    ]
    return _site_of(tmp_path_factory.mktemp("german"), people)


@pytest.mark.parametrize(
    ("typed", "found"),
    [("gross", ["Groß, Dörte"]), ("weiss", ["Weiß, Jan"]), ("mueller", ["Müller, Jürgen"]),
     ("muller", ["Müller, Jürgen"]), ("GROSS DOERTE", ["Groß, Dörte"]),
     ("oe", ["Groß, Dörte", "Möller, Ute"])],
)  # fmt: skip
def test_the_name_search_folds_names_as_the_database_does(
    german_site: Path, browser: object, typed: str, found: list[str]
) -> None:
    """M14: a German user types ß as ss and ü as ue, as ``player --name`` and the desk take it
    (names.py); "oe" is "o" there, so the two names with an o (Dörte, Möller) are found."""
    from selenium.webdriver.common.by import By

    driver = browser
    driver.get((german_site / "2026-02" / "standard" / "list.html").as_uri())  # type: ignore[attr-defined]
    field = driver.find_element(By.ID, "q")  # type: ignore[attr-defined]
    field.clear()
    field.send_keys(typed)
    assert shown_names(driver) == found
