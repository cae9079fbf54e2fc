"""Headless Chromium for the browser tests (Debian's chromium + chromium-driver, Selenium)."""
import os
import shutil
import time

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

BASE = os.environ.get("FIELDWORK_URL", "http://127.0.0.1:8080").rstrip("/")
SHOTS = os.environ.get("FIELDWORK_SCREENSHOTS")


def _driver(js: bool):
    options = Options()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,800", "--hide-scrollbars"):
        options.add_argument(arg)
    if not js:
        options.add_experimental_option(
            "prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    return webdriver.Chrome(service=service, options=options)


class Browser:
    """A Chromium whose viewport is set exactly, so widths are CSS pixels."""

    def __init__(self, js: bool):
        self.js = js
        self.driver = _driver(js)

    def viewport(self, width: int, height: int):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
        return self

    def open(self, path: str):
        self.driver.get(BASE + path)
        self.settle()
        return self

    def settle(self, timeout: float = 3.0):
        """Waits until the sheet's entrance animation has finished, so rectangles are final."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            running = self.driver.execute_script(
                "return document.getAnimations ? document.getAnimations()"
                ".filter(a => a.playState === 'running').length : 0")
            if not running:
                return
            time.sleep(0.05)

    def js_eval(self, script: str, *args):
        return self.driver.execute_script(script, *args)

    def rect(self, selector: str):
        return self.driver.execute_script(
            "const e = document.querySelector(arguments[0]); if (!e) return null;"
            "const r = e.getBoundingClientRect();"
            "return {x: r.x, y: r.y, width: r.width, height: r.height,"
            " display: getComputedStyle(e).display, visibility: getComputedStyle(e).visibility,"
            " background: getComputedStyle(e).backgroundColor};", selector)

    def screenshot(self, name: str):
        if SHOTS:
            os.makedirs(SHOTS, exist_ok=True)
            path = os.path.join(SHOTS, name + ".png")
            # A full-page capture, so the whole form can be looked at.
            metrics = self.driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
            height = int(metrics["cssContentSize"]["height"])
            width = self.driver.execute_script("return window.innerWidth")
            viewport_h = self.driver.execute_script("return window.innerHeight")
            if name.endswith("-full"):
                self.viewport(width, max(height, viewport_h))
            self.driver.save_screenshot(path)
            if name.endswith("-full"):
                self.viewport(width, viewport_h)

    def console_errors(self):
        try:
            return [e for e in self.driver.get_log("browser") if e.get("level") == "SEVERE"]
        except Exception:  # noqa: BLE001 - some drivers do not keep logs
            return []

    def quit(self):
        self.driver.quit()


@pytest.fixture(scope="session")
def browser():
    b = Browser(js=True)
    yield b
    b.quit()


@pytest.fixture(scope="session")
def browser_nojs():
    b = Browser(js=False)
    yield b
    b.quit()
