"""The desk as an officer uses it, in headless Chromium driven by Selenium: send a file with
an error and read the located error, send the fixed file, add it, preview, publish, download
a list, find a player by keyboard, unpublish (rating_batch/web/, spec/desk.md §1).

Runs where Debian's ``chromium`` and ``chromium-driver`` are installed (.ci/run installs
them); left out of ``make test-fast``."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from db_helpers import query
from desk_helpers import ADDED, BAD_RESULT, broken, january, serving

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
needs_browser = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="chromium and chromium-driver are not installed (.ci/run installs them)",
)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path, Path, Path]]:
    """A desk served by uvicorn on a free port, in a thread: its address, the database, the
    event file (not added) and the output folder."""
    db, event = january(tmp_path)
    out = tmp_path / "out"
    with serving(db, out) as address:
        yield address, db, event, out


@pytest.fixture
def browser(tmp_path: Path):  # the driver's type comes from selenium, imported here
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--window-size=1280,900",
        f"--user-data-dir={tmp_path / 'profile'}",
    ):
        options.add_argument(argument)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    options.add_experimental_option(
        "prefs",
        {"download.default_directory": str(downloads), "download.prompt_for_download": False},
    )
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))
    driver.implicitly_wait(10)
    try:
        yield driver, downloads
    finally:
        driver.quit()


def _follow(driver, target) -> str:
    """Click ``target`` (an element, or a link's text) and wait for the next page: its text."""
    from selenium.webdriver.common.by import By

    page = driver.find_element(By.TAG_NAME, "html")
    if isinstance(target, str):
        target = driver.find_element(By.LINK_TEXT, target)
    target.click()
    _gone(driver, page)
    return str(driver.find_element(By.TAG_NAME, "body").text)


def _gone(driver, page) -> None:
    """Wait until ``page`` (its html element) is replaced by the next page."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.expected_conditions import staleness_of
    from selenium.webdriver.support.wait import WebDriverWait

    # While the page is replaced, Chromium may answer that a node is in no document.
    WebDriverWait(driver, 60, ignored_exceptions=(WebDriverException,)).until(staleness_of(page))


def _button(driver, text: str):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.XPATH, f"//button[normalize-space()='{text}']")


def _send(driver, event: Path, button: str) -> str:
    """Choose ``event`` in the upload form and press ``button``: the answer's text."""
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(str(event))
    return _follow(driver, _button(driver, button))


@needs_browser
def test_an_officer_checks_adds_publishes_downloads_and_undoes(served, browser) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    address, db, event, out = served
    driver, downloads = browser
    damaged = event.parent / "broken"
    damaged.mkdir()
    shutil.copy(event, damaged / "jan.trf")
    broken(damaged / "jan.trf")

    driver.get(f"{address}/events")
    text = _send(driver, damaged / "jan.trf", "Check only")
    assert BAD_RESULT in text and "nothing was stored" in text
    assert query(db, "SELECT COUNT(*) FROM events") == [(0,)]

    text = _send(driver, event, "Check only")
    assert f"would add {ADDED}" in text
    text = _send(driver, event, "Check and add")
    assert f"added {ADDED}" in text
    assert query(db, "SELECT key, period FROM events") == [("jan", "2026-02")]

    _follow(driver, "Database")
    assert "would publish 2026-02" in _follow(driver, "preview and publish")
    assert not out.exists()
    assert "published 2026-02" in _follow(driver, _button(driver, "Publish 2026-02"))

    driver.find_element(By.LINK_TEXT, "standard/list.csv").click()  # a download: no new page
    saved = downloads / "2026-02-standard-list.csv"
    published = (out / "2026-02" / "standard" / "list.csv").read_bytes()
    # Chromium may name the file before its bytes are in it: wait for the whole download.
    deadline = time.monotonic() + 30
    while not (saved.exists() and saved.read_bytes() == published):
        if time.monotonic() > deadline:
            got = saved.read_bytes() if saved.exists() else None
            raise AssertionError(f"{sorted(downloads.iterdir())}: {got!r} != {published!r}")
        time.sleep(0.1)

    # By keyboard: the player search, typed and sent with Enter.
    _follow(driver, "Players")
    field = driver.switch_to.active_element  # the name field has the focus
    page = driver.find_element(By.TAG_NAME, "html")
    field.send_keys("A", Keys.ENTER)
    _gone(driver, page)
    # Only A (11, 1600) is named like 'A': his calculation. He beat B (1500): D 100, so
    # p 0.64 (FIDE's table), change 20 × 0.36 = +7.20.
    found = driver.find_element(By.TAG_NAME, "body").text
    assert "Rn = Ro 1600 + change +7.20 = 1607.20 → 1607" in found

    driver.get(address)
    assert "unpublished 2026-02 (standard)" in _follow(driver, _button(driver, "Unpublish 2026-02"))
    assert query(db, "SELECT COUNT(*) FROM lists WHERE origin = 'publish'") == [(0,)]
