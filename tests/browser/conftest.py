"""Headless Chromium for the browser tests (Debian's chromium + chromium-driver, Selenium)."""
import importlib.util
import os
import shutil
import time

import pytest
from selenium.common.exceptions import WebDriverException
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# The server under test: required (CI starts one on a port of its own and names it here), so the
# tests never reach whatever else happens to listen on a well-known port.
BASE = os.environ.get("FIELDWORK_URL", "").rstrip("/")
SHOTS = os.environ.get("FIELDWORK_SCREENSHOTS")
# How long a page may take to settle, a dialog to close or a URL to change: what a loaded two-core
# machine with Chromium and the server on it may need. Only a page that never gets there waits it out.
WAIT = 15.0

# Impacts that fail an accessibility check; "minor" and "moderate" are reported by axe but pass.
AXE_FAILING_IMPACTS = ("serious", "critical")
_axe_source = None


def pytest_configure(config):
    if not BASE:
        raise pytest.UsageError(
            "FIELDWORK_URL is not set: start a server (fieldwork serve, with FIELDWORK_ADMIN_PASSWORD) "
            "and give its address, e.g. FIELDWORK_URL=http://127.0.0.1:PORT python3 -m pytest tests/browser")


def axe_source() -> str:
    """axe-core's axe.min.js as shipped inside the PyPI package axe-playwright-python (installed
    with --no-deps: only the file is used, not Playwright). Found without importing the package."""
    global _axe_source
    if _axe_source is None:
        spec = importlib.util.find_spec("axe_playwright_python")
        if spec is None or not spec.submodule_search_locations:
            raise RuntimeError("axe-core is missing: python3 -m pip install --no-deps axe-playwright-python")
        path = os.path.join(list(spec.submodule_search_locations)[0], "axe.min.js")
        with open(path, encoding="utf-8") as f:
            _axe_source = f.read()
    return _axe_source


def failing_violations(violations, impacts=AXE_FAILING_IMPACTS):
    return [v for v in violations if v.get("impact") in impacts]


def describe_violations(violations) -> str:
    """Each violation's rule, impact and help, then every failing node's target and HTML."""
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v.get('impact')}): {v['help']}  [{v.get('helpUrl', '')}]")
        for node in v.get("nodes", []):
            lines.append(f"    at {' '.join(map(str, node.get('target', [])))}")
            lines.append(f"       {node.get('html', '').strip()[:300]}")
            summary = (node.get("failureSummary") or "").strip().replace("\n", "\n         ")
            if summary:
                lines.append(f"       {summary}")
    return "\n".join(lines)


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
        # Whether the pages' own scripts run (JavaScript on, and they are not blocked): only then
        # does a page get enhanced.
        self.page_scripts = js
        self.driver = _driver(js)

    def viewport(self, width: int, height: int):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
        return self

    def open(self, path: str):
        self.leave()
        self.driver.get(BASE + path)
        self.settle()
        return self

    def block_page_scripts(self):
        """Blocks the pages' own scripts, while JavaScript stays on for WebDriver's (axe-core's):
        the pages are then as without JavaScript, never enhanced."""
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/js/*.js"]})
        self.page_scripts = False
        return self

    def leave(self):
        """Lets the current page go without the unsaved-changes question (beforeunload), so a
        test that typed into a form can open the next page."""
        try:
            self.driver.execute_script(
                "document.querySelectorAll('form[data-unsaved]').forEach(f => { if (f.fwUnsaved) f.fwUnsaved.leaving = true })")
        except Exception:  # noqa: BLE001 - no page yet
            pass

    def settle(self, timeout: float = WAIT):
        """Waits until the page's scripts have enhanced it and the sheet's entrance animation has
        finished, so elements and rectangles are final; raises when that takes over `timeout` s
        (the page is broken: a test must not go on with a page half done)."""
        deadline = time.monotonic() + timeout
        # With its scripts, the modules load asynchronously: wait until the page says it is enhanced.
        while self.page_scripts and not self.driver.execute_script(
                "return document.documentElement.hasAttribute('data-enhanced')"
                " || !document.querySelector('script[type=module]')"):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.driver.current_url}: the page's scripts did not enhance it "
                                   f"(no data-enhanced) within {timeout:g} s")
            time.sleep(0.02)
        while True:
            running = self.driver.execute_script(
                "return document.getAnimations ? document.getAnimations()"
                ".filter(a => a.playState === 'running').length : 0")
            if not running:
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.driver.current_url}: {running} animations still running after {timeout:g} s")
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

    def axe(self, context=None, options=None):
        """Runs axe-core on the current page and returns its violations, of every impact (see
        failing_violations and describe_violations)."""
        return self.axe_results(context, options)["violations"]

    def axe_results(self, context=None, options=None):
        """Runs axe-core on the current page: {"violations": [...], "incomplete": [...]}, the
        second being what axe could not decide and leaves to a person ("needs review").
        axe.min.js is injected through WebDriver, which the page's CSP (script-src 'self') does
        not govern. `context` is axe.run's first argument (default: the whole document),
        `options` its options (default: only violations and incomplete results in full).
        axe.run needs the page's timers, so JavaScript must be on."""
        assert self.js, "axe-core cannot run in a browser with JavaScript off: use Browser(js=True)"
        d = self.driver
        if not d.execute_script("return !!(window.axe && window.axe.run)"):
            d.execute_script(axe_source())
            assert d.execute_script("return !!(window.axe && window.axe.run)"), \
                "axe-core did not load into the page"
        d.set_script_timeout(60)
        result = d.execute_async_script(
            "const [context, options, done] = arguments;"
            "axe.run(context || document, options || {resultTypes: ['violations', 'incomplete']})"
            ".then(r => done({violations: r.violations, incomplete: r.incomplete}),"
            " e => done({error: String(e && e.stack || e)}));",
            context, options)
        assert "error" not in result, f"axe.run failed: {result['error']}"
        return result

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


_admin_session = []


def signed_in(js: bool) -> Browser:
    """A new browser at 1280x800 signed in as the admin (FIELDWORK_ADMIN_PASSWORD). The admin's
    session is shared: a browser after the first takes its cookie (and signs in through the form
    only when that session has ended), since sign-ins from one address are throttled past a few
    dozen an hour and the whole suite comes from 127.0.0.1."""
    b = Browser(js=js).viewport(1280, 800)
    if _admin_session:
        b.open("/login")
        for cookie in _admin_session:
            b.driver.add_cookie({"name": cookie["name"], "value": cookie["value"], "path": "/"})
        b.open("/admin")
        if "/login" not in b.driver.current_url:
            return b
        _admin_session.clear()
    b.open("/login")
    b.driver.find_element(By.ID, "field-name").send_keys("admin")
    b.driver.find_element(By.ID, "field-password").send_keys(
        os.environ.get("FIELDWORK_ADMIN_PASSWORD", "ci-admin-password"))
    old = b.driver.find_element(By.TAG_NAME, "html")
    b.driver.find_element(By.CSS_SELECTOR, ".fw-login__submit").click()
    WebDriverWait(b.driver, 30).until(lambda d: d.find_element(By.TAG_NAME, "html") != old)
    _admin_session[:] = [c for c in b.driver.get_cookies() if c["name"] == "fieldwork_session"]
    return b


def choose(b, name: str, label: str):
    """Chooses an option of a value list as a person would: on the drill-down's list screen
    with JavaScript, in the native select or checkboxes without it."""
    from selenium.webdriver.support.ui import Select
    d = b.driver
    b.settle()
    control = d.find_element(By.ID, f"field-{name}")
    if control.tag_name == "select":
        Select(control).select_by_visible_text(label)
        return
    if control.tag_name == "input":  # the first checkbox of several, without JavaScript
        box = d.find_element(By.XPATH, f"//label[normalize-space()='{label}']/preceding-sibling::input")
        if not box.is_selected():
            d.execute_script("arguments[0].click()", box)
        return
    control.click()
    b.settle()
    option = d.find_element(By.XPATH, f"//dialog[contains(@class,'fw-drilldown')]//label[normalize-space()='{label}']")
    # One value (a radio) returns at once; several (checkboxes) stay on the list screen until Back.
    several = d.execute_script("return document.getElementById(arguments[0].htmlFor)?.type === 'checkbox'", option)
    option.click()
    if several:
        d.find_element(By.CSS_SELECTOR, "dialog.fw-drilldown .fw-drilldown__back").click()
    assert wait_gone(b, "dialog.fw-drilldown"), f"the list screen of {name} stayed open after choosing {label}"


def wait_url(b, ending: str, timeout: float = WAIT) -> bool:
    """Waits until the page's URL ends with `ending` (a script's navigation starts after the
    event that asked for it, so a check right after a click can still see the old page)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if b.driver.current_url.endswith(ending):
            return True
        time.sleep(0.05)
    return False


def wait_gone(b, selector: str, timeout: float = WAIT) -> bool:
    """Waits until nothing matches `selector` (a dialog closes on the next task); True if so."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not b.driver.find_elements("css selector", selector):
            return True
        time.sleep(0.05)
    return False


def gone(element):
    """True once `element`'s page has been replaced (Chrome may answer a node of a page being
    torn down with a generic error rather than a stale reference: that means gone too)."""
    def check(_):
        try:
            element.is_enabled()
            return False
        except WebDriverException:
            return True
    return check


def import_form(b, path: str) -> dict:
    """Imports the spec at `path` through POST /api/forms in `b`'s session (an admin's, with
    JavaScript); returns the answer (its "id" is the form's)."""
    with open(path, encoding="utf-8") as f:
        spec = f.read()
    status, answer = b.driver.execute_async_script(
        "const done = arguments[1]; fetch('/api/forms', {method: 'POST',"
        " headers: {'Content-Type': 'application/xml'}, body: arguments[0]})"
        ".then(r => r.json().then(j => done([r.status, j])), e => done([0, String(e)]));", spec)
    assert status == 201, answer
    return answer


def value(b, name: str) -> str:
    """The value of the (first) input named `name`."""
    return b.driver.find_element("name", name).get_attribute("value")


def type_into(b, name: str, text: str):
    """Replaces what the input named `name` holds with `text`, typed."""
    field = b.driver.find_element("name", name)
    field.clear()
    field.send_keys(text)


def form_browsers(path):
    """The fixtures of a module that tries the form spec at `path` in two browsers signed in as
    an admin, kept for the module (sign-ins from one address are throttled past a few dozen an
    hour): `admin_js`, `admin_nojs`, `form_id` (the form, imported through POST /api/forms) and
    `admin`, each test once with JavaScript and once without. A module takes them as
    `admin_js, admin_nojs, form_id, admin = form_browsers(FIXTURE)`."""

    @pytest.fixture(scope="module")
    def admin_js():
        b = signed_in(js=True)
        yield b
        b.quit()

    @pytest.fixture(scope="module")
    def admin_nojs():
        b = signed_in(js=False)
        yield b
        b.quit()

    @pytest.fixture(scope="module")
    def form_id(admin_js):
        return import_form(admin_js, path)["id"]

    @pytest.fixture(params=["admin_js", "admin_nojs"], ids=["js", "nojs"])
    def admin(request, form_id):
        return request.getfixturevalue(request.param)

    return admin_js, admin_nojs, form_id, admin


def press(b, selector):
    """Clicks a button that sends the form and waits for the page it brings; with JavaScript,
    an item list's Add and Remove change the page in place (items.js) and nothing is sent."""
    old = b.driver.find_element(By.TAG_NAME, "html")
    button = b.driver.find_element(By.CSS_SELECTOR, selector)
    in_place = b.js and button.get_attribute("name") in ("_add", "_remove")
    button.click()
    if not in_place:
        WebDriverWait(b.driver, 20).until(gone(old))
    b.settle()
