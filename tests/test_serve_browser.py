"""The score page in a real browser (the system's headless Chromium and its driver, through selenium), on a
360-pixel phone: a deal entered through the form changes the standing and the answer is on the screen without
scrolling, a refused field shows beside the field on the screen, the table of deals fits the screen, a deal added
by `record add` in a terminal shows up without a reload, and the page is photographed (the README's picture:
``docs/img/serve-phone.png``, written there when ``PINOCHLE_SCREENSHOT_DIR`` names a folder; always written in the
test's own folder).

Skipped, saying why, where selenium, Chromium or ChromeDriver is missing; CI installs them (``.ci/run``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from servehelp import new_record, start_server, stop_server

from pinochle_cli.records import read_record

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the test extra has it)")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
MISSING = "no Chromium and ChromeDriver (Debian: apt-get install chromium chromium-driver)"
# CI installs the browser and sets this: there a missing browser fails rather than skips
REQUIRED = os.environ.get("PINOCHLE_REQUIRE_BROWSER") == "1"
pytestmark = pytest.mark.skipif((CHROMIUM is None or DRIVER is None) and not REQUIRED, reason=MISSING)
# a small phone's screen, in CSS pixels
PHONE = (360, 740)
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    assert CHROMIUM is not None and DRIVER is not None, MISSING
    profile = tempfile.mkdtemp(prefix="pinochle-chromium-")
    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in [*FLAGS, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    # a phone's screen: its width and height in CSS pixels, two device pixels to one
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": PHONE[0], "height": PHONE[1],
                                                                           "pixelRatio": 2.0}})
    driver = webdriver.Chrome(service=Service(executable_path=str(DRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _until(check: Callable[[], bool], seconds: float = 20) -> None:
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            raise AssertionError("the page did not change in time")
        time.sleep(0.1)


def _deals(path: Path) -> None:
    """Three deals already played, entered in a terminal."""
    env = {**os.environ, "PINOCHLE_RULESET": ""}
    for args in (["--dealer", "Ann", "--bidder", "Bob", "--bid", "260", "-t", "S", "--meld", "Us=40",
                  "--meld", "Them=150", "--counters", "Us=90"],
                 ["--bidder", "Cy", "--bid", "300", "-t", "H", "--meld", "Us=190", "--meld", "Them=20",
                  "--counters", "Us=160"],
                 ["--bidder", "Di", "--bid", "250", "-t", "C", "--meld", "Us=60", "--meld", "Them=100",
                  "--counters", "Us=130"]):
        subprocess.run([sys.executable, "-m", "pinochle_cli", "record", "add", str(path), "--no-prompt", *args],
                       env=env, check=True, capture_output=True, timeout=120)


def _on_screen(driver: object, selector: str) -> bool:
    """The element ``selector`` names is wholly inside the screen as it is scrolled now."""
    return bool(driver.execute_script(  # type: ignore[attr-defined]
        "var r=document.querySelector(arguments[0]).getBoundingClientRect();"
        "return r.top>=0&&r.left>=0&&r.bottom<=window.innerHeight&&r.right<=window.innerWidth&&r.height>0;",
        selector))


def _file_totals(path: Path) -> list[str]:
    return [str(t) for t in read_record(str(path)).standing.totals]


def _totals(driver: object) -> list[str]:
    """The totals the page shows (read in one script: the live part may be replaced meanwhile)."""
    found = driver.execute_script(  # type: ignore[attr-defined]
        "return Array.from(document.querySelectorAll('.side .total')).map(function(e){return e.textContent;})")
    return [str(t) for t in found]


def test_a_deal_entered_on_a_phone(browser: object, tmp_path: Path) -> None:  # long: one visit, step by step
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver: object = browser
    path = new_record(tmp_path)
    _deals(path)
    proc, url = start_server(path)
    try:
        driver.get(url)  # type: ignore[attr-defined]
        before = _file_totals(path)
        assert _totals(driver) == before
        # the next dealer is preselected
        dealer = Select(driver.find_element(By.NAME, "dealer"))  # type: ignore[attr-defined]
        assert dealer.first_selected_option.text == "Di"
        Select(driver.find_element(By.NAME, "bidder")).select_by_visible_text("Ann")  # type: ignore[attr-defined]
        Select(driver.find_element(By.NAME, "trump")).select_by_visible_text("H")  # type: ignore[attr-defined]
        for name, value in (("bid", "270"), ("meld:Us", "120"), ("meld:Them", "30"), ("counters:Us", "170")):
            driver.find_element(By.NAME, name).send_keys(value)  # type: ignore[attr-defined]
        # the other side's counters, inferred as they are typed
        assert driver.find_element(By.ID, "inferred").text == "80"  # type: ignore[attr-defined]
        driver.find_element(By.CSS_SELECTOR, "#deal button").click()  # type: ignore[attr-defined]
        _until(lambda: _totals(driver) != before)
        assert len(read_record(str(path)).deals) == 4
        assert _totals(driver) == _file_totals(path)
        # the answer, with the deal and the new standing, is on the screen without scrolling
        assert "Deal 4 added" in driver.page_source  # type: ignore[attr-defined]
        assert _on_screen(driver, "#said .message")
        said = driver.find_element(By.CSS_SELECTOR, "#said .message").text  # type: ignore[attr-defined]
        assert f"Now: Us {_file_totals(path)[0]}, Them {_file_totals(path)[1]}" in said
        # a deal added in a terminal shows up within a second or two, without a reload
        driver.execute_script("window.notReloaded = true")  # type: ignore[attr-defined]
        subprocess.run([sys.executable, "-m", "pinochle_cli", "record", "add", str(path), "--no-prompt",
                        "--bidder", "Bob", "--bid", "250", "-t", "D", "--meld", "Us=20", "--meld", "Them=80",
                        "--counters", "Us=100"], env={**os.environ, "PINOCHLE_RULESET": ""}, check=True,
                       capture_output=True, timeout=120)
        _until(lambda: _totals(driver) == _file_totals(path), seconds=10)
        assert driver.execute_script("return window.notReloaded") is True  # type: ignore[attr-defined]
        shot = tmp_path / "serve-phone.png"
        driver.execute_script("window.scrollTo(0, 0)")  # type: ignore[attr-defined]
        driver.save_screenshot(str(shot))  # type: ignore[attr-defined]
        assert shot.stat().st_size > 5000
        folder = os.environ.get("PINOCHLE_SCREENSHOT_DIR")
        if folder:
            shutil.copy(shot, Path(folder) / shot.name)
        # the page fits the phone's width (the table of deals scrolls inside its own box)
        assert driver.execute_script("return window.innerWidth") == PHONE[0]  # type: ignore[attr-defined]
        width = driver.execute_script("return document.documentElement.scrollWidth")  # type: ignore[attr-defined]
        assert width <= PHONE[0]
    finally:
        code, _err, _took = stop_server(proc)
    assert code == 130


def test_a_refused_field_and_the_table_on_a_small_phone(browser: object, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver: object = browser
    path = new_record(tmp_path)
    _deals(path)
    proc, url = start_server(path)
    try:
        driver.get(url)  # type: ignore[attr-defined]
        # the table of deals fits the 360-pixel screen: no column is cut off or scrolled
        assert driver.execute_script("return window.innerWidth") == PHONE[0]  # type: ignore[attr-defined]
        table = driver.execute_script(  # type: ignore[attr-defined]
            "var r=document.querySelector('.deals table').getBoundingClientRect();return [r.left,r.right,r.width];")
        assert table[0] >= 0 and table[1] <= PHONE[0], table
        box = driver.execute_script(  # type: ignore[attr-defined]
            "var d=document.querySelector('.deals');return [d.scrollWidth,d.clientWidth];")
        assert box[0] <= box[1], box
        # a deal whose counters are refused: the message beside the field is on the screen, the field focused
        Select(driver.find_element(By.NAME, "bidder")).select_by_visible_text("Ann")  # type: ignore[attr-defined]
        Select(driver.find_element(By.NAME, "trump")).select_by_visible_text("H")  # type: ignore[attr-defined]
        for name, value in (("bid", "270"), ("meld:Us", "120"), ("meld:Them", "30"), ("counters:Us", "300")):
            driver.find_element(By.NAME, name).send_keys(value)  # type: ignore[attr-defined]
        driver.find_element(By.CSS_SELECTOR, "#deal button").click()  # type: ignore[attr-defined]
        _until(lambda: "Not added" in driver.page_source)  # type: ignore[attr-defined]
        _until(lambda: _on_screen(driver, '#deal span.error[id="e-counters:Us"]'), seconds=5)
        assert _on_screen(driver, '[name="counters:Us"]')
        assert driver.execute_script("return document.activeElement.name") == "counters:Us"  # type: ignore[attr-defined]
        assert len(read_record(str(path)).deals) == 3
    finally:
        code, _err, _took = stop_server(proc)
    assert code == 130


def test_a_three_handed_night_fits_the_small_phone(browser: object, tmp_path: Path) -> None:
    """Three players' totals (a column each) and a long night of deals: the table still fits the 360-pixel screen."""
    path = tmp_path / "saturday.yaml"
    path.write_bytes((Path(__file__).resolve().parent.parent / "examples" / "three-handed-night.yaml").read_bytes())
    proc, url = start_server(path)
    try:
        browser.get(url)  # type: ignore[attr-defined]
        found = browser.execute_script(  # type: ignore[attr-defined]
            "var r=document.querySelector('.deals table').getBoundingClientRect(),d=document.querySelector('.deals');"
            "return [r.left,r.right,d.scrollWidth,d.clientWidth,document.documentElement.scrollWidth];")
        left, right, inner, box, page = found
        assert left >= 0 and right <= PHONE[0] and inner <= box and page <= PHONE[0], found
    finally:
        code, _err, _took = stop_server(proc)
    assert code == 130
