"""The desk as an officer uses it, in headless Chromium driven by Selenium: send a file with
an error and read the located error, send the fixed file, add it, preview, publish, download
a list, find a player by keyboard, unpublish (rating_batch/web/, spec/desk.md §1); and the
whole of January to March from an empty folder, every page at 1280 and 390 px wide (§3).

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
    assert "would publish 2026-02" in _follow(driver, "preview and publish 2026-02")
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
    assert "would unpublish 2026-02 (standard)" in _follow(driver, "Unpublish 2026-02…")
    assert query(db, "SELECT COUNT(*) FROM lists WHERE origin = 'publish'") == [(1,)]
    assert "unpublished 2026-02 (standard)" in _follow(driver, _button(driver, "Unpublish 2026-02"))
    assert query(db, "SELECT COUNT(*) FROM lists WHERE origin = 'publish'") == [(0,)]


#: The sample federation's months (sample_data/SOURCES.md): the January list, each month's files.
MONTHLY = Path(__file__).parents[2] / "sample_data" / "monthly"
#: Where the whole-month test leaves its screenshots to look at (else the test's folder).
SHOTS = "RATING_BATCH_SCREENSHOTS"


def _shoot(driver, folder: Path, name: str) -> None:
    """The page at 1280 and at 390 px wide (a phone's width, emulated: a headless window is
    never narrower than 500 px), whole, as ``NAME-1280.png`` and ``NAME-390.png``; every page
    must fit its width without a page-wide sideways scroll (a wide table scrolls in its box)."""
    for width, mobile in ((1280, False), (390, True)):
        metrics = {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": mobile}
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        metrics["height"] = min(max(int(height), 600), 6000)
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        wide = driver.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        driver.save_screenshot(str(folder / f"{name}-{width}.png"))
        assert int(wide) <= 1, f"{name} at {width} px scrolls sideways by {wide} px"
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _choose(driver, name: str, paths: list[Path]) -> None:
    from selenium.webdriver.common.by import By

    field = driver.find_element(By.CSS_SELECTOR, f"input[type=file][name={name}]")
    field.send_keys("\n".join(str(path) for path in paths))


@needs_browser
def test_an_officer_does_january_to_march_in_the_desk_alone(tmp_path: Path, browser) -> None:
    """spec/desk.md §3: from an empty folder, with only the desk: make the database from the
    January list, check January's files (one broken, then fixed), Add these files, preview
    (names) and publish February, add February's, publish March, ask to unpublish and
    unpublish March (the web site without it), Undo this (the site with it again), back up."""
    import os

    from selenium.webdriver.common.by import By

    driver, _ = browser
    shots = Path(os.environ.get(SHOTS) or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    db, out = tmp_path / "federation.sqlite", tmp_path / "out"
    january_files = sorted((MONTHLY / "2026-01").glob("*.trf"))
    february_files = sorted((MONTHLY / "2026-02").glob("*.trf"))
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    for path in january_files:
        shutil.copy(path, damaged / path.name)
    bad = damaged / january_files[3].name
    text = bad.read_text(encoding="utf-8").splitlines()
    # Player 1's first result made 'Q', not a TRF result code.
    first = next(i for i, line in enumerate(text) if line.startswith("001 "))
    text[first] = text[first][:97] + "Q" + text[first][98:]
    bad.write_text("\n".join(text) + "\n", encoding="utf-8")

    with serving(db, out) as address:
        driver.get(address)
        assert "There is no rating database" in driver.find_element(By.TAG_NAME, "body").text
        _shoot(driver, shots, "01-first-page")
        _choose(driver, "list", [MONTHLY / "list-2026-01.csv"])
        month = driver.find_element(By.NAME, "period")  # a month picker: set as it would set it
        driver.execute_script("arguments[0].value = '2026-01'", month)
        made = _follow(driver, _button(driver, "Make the database"))
        assert "300 players" in made or "players" in made, made
        assert db.exists()
        _shoot(driver, shots, "02-database-made")
        _follow(driver, "Next: add the month's tournament files →")

        _choose(driver, "files", sorted(damaged.iterdir()))
        refused = _follow(driver, _button(driver, "Check only"))
        assert "nothing was stored" in refused and bad.name in refused
        assert query(db, "SELECT COUNT(*) FROM events") == [(0,)]
        _shoot(driver, shots, "03-check-refused")

        assert "6 file(s) had no error and are kept" in refused
        # Only the corrected file is sent again: the six good ones were kept by the desk.
        _choose(driver, "files", [MONTHLY / "2026-01" / bad.name])
        checked = _follow(driver, _button(driver, "Check only"))
        assert checked.count("would add synthetic-2026-01-") == 7
        _shoot(driver, shots, "04-check-good")
        added = _follow(driver, _button(driver, "Add these 7 files"))
        assert added.count("added synthetic-2026-01-") == 7
        assert query(db, "SELECT COUNT(*) FROM events") == [(7,)]
        _shoot(driver, shots, "05-added")

        _follow(driver, "Database")
        _shoot(driver, shots, "06-home-waiting")
        preview = _follow(driver, "preview and publish 2026-02")
        assert "would publish 2026-02" in preview and "Standard: largest rating changes" in preview
        assert not (out / "2026-02").exists()
        _shoot(driver, shots, "07-preview")
        published = _follow(driver, _button(driver, "Publish 2026-02"))
        assert "published 2026-02" in published and str(out / "site") in published
        assert (out / "site" / "index.html").exists()
        _shoot(driver, shots, "08-published")

        _follow(driver, "Events")
        _choose(driver, "files", february_files)
        _follow(driver, _button(driver, "Check only"))
        assert "added synthetic-2026-02-" in _follow(driver, _button(driver, "Add these 7 files"))
        _shoot(driver, shots, "09-events-february")
        _follow(driver, "Database")
        _follow(driver, "preview and publish 2026-03")
        assert "published 2026-03" in _follow(driver, _button(driver, "Publish 2026-03"))
        site = (out / "site" / "index.html").read_text(encoding="utf-8")
        assert "2026-03" in site

        _follow(driver, "Database")
        _shoot(driver, shots, "10-home-published")
        asked = _follow(driver, "Unpublish 2026-03…")
        assert "would unpublish 2026-03" in asked
        _shoot(driver, shots, "11-unpublish-asked")
        withdrawn = _follow(driver, _button(driver, "Unpublish 2026-03"))
        assert "unpublished 2026-03" in withdrawn
        assert "2026-03" not in (out / "site" / "index.html").read_text(encoding="utf-8")
        _shoot(driver, shots, "12-unpublished")
        undone = _follow(driver, _button(driver, "Undo this"))
        assert "2026-03" in (out / "site" / "index.html").read_text(encoding="utf-8")
        assert query(db, "SELECT period FROM lists WHERE origin = 'publish' ORDER BY period") == [
            ("2026-02",),
            ("2026-03",),
        ], undone
        _shoot(driver, shots, "13-undone")

        _follow(driver, "Backups")
        backed = _follow(driver, _button(driver, "Back up now"))
        assert "saved a whole copy of federation.sqlite" in backed
        _shoot(driver, shots, "14-backed-up")
        _follow(driver, "Backups")
        _shoot(driver, shots, "15-backups")
        _follow(driver, "Events")
        _shoot(driver, shots, "16-events")
        assert not driver.find_elements(By.LINK_TEXT, "Remove…")  # both periods published
