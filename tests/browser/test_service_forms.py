"""A form connected to its real OData service, in headless Chromium: the value lists come from the
service (the list screen with JavaScript, the Search button without; fixed-value lists as selects
of the service's rows), choosing a row fills the fields it gives, a create lands in the service, the service's own refusal appears under its field, and a service that does not answer
gives the page that says nothing was created. Runs when FIELDWORK_ODATA_PYTHON names the Python of
the test services' virtual environment (scripts/odata-services/setup-venv), as .ci/run sets it."""
import json
import os
import re
import subprocess
import tempfile
import time
import urllib.request
import uuid

import pytest
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import describe_violations, failing_violations, signed_in, wait_gone

PYTHON = os.environ.get("FIELDWORK_ODATA_PYTHON")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.environ.get("FIELDWORK_CORPUS", os.path.join(ROOT, "..", "shared", "corpus"))
SERVICES = os.path.join(ROOT, "scripts", "odata-services")
V2_FILE = os.path.join(CORPUS, "odata-v2", "fts__myfioriapp.SEPMRA_PROD_MAN.metadata.xml")
V4_FILE = os.path.join(CORPUS, "odata-v4", "fts__incident-management.cap.metadata.xml")
PRODUCT = "sepmra-prod-man-sepmra-c-pd-product"
INCIDENT = "incidentservice-incidents"

pytestmark = pytest.mark.skipif(not PYTHON, reason="FIELDWORK_ODATA_PYTHON is not set: no real OData service")


def start_service(script, metadata, seed, extra=()):
    """Starts a test service on a free port (`extra`: more of its arguments); its log goes to a
    file (a pipe nobody reads would fill up and stop the service mid-test)."""
    log = tempfile.NamedTemporaryFile(prefix="odata-service-", suffix=".log", delete=False)
    process = subprocess.Popen(
        [PYTHON, os.path.join(SERVICES, script), "--port", "0", "--metadata", metadata, "--seed",
         os.path.join(SERVICES, "seeds", seed), *extra], stdout=subprocess.DEVNULL, stderr=log)
    # Importing pyslet and reading the metadata take a while on a busy machine.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        with open(log.name, encoding="utf-8", errors="replace") as f:
            match = re.search(r"listening on (\S+)", f.read())
        if match:
            return process, match.group(1)
        time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"{script} did not start")


def api(b, method, path, body, content_type):
    return b.driver.execute_async_script(
        "const done = arguments[4]; fetch(arguments[1], {method: arguments[0], headers: {'Content-Type': arguments[3]},"
        " body: arguments[2]}).then(async r => done([r.status, await r.text()]), e => done([0, String(e)]));",
        method, path, body, content_type)


def import_and_connect(b, metadata, form_id, url):
    with open(metadata, encoding="utf-8") as f:
        status, text = api(b, "POST", "/api/forms", f.read(), "application/xml")
    assert status == 201, text
    status, text = api(b, "PUT", f"/api/forms/{form_id}/connection",
                       json.dumps({"url": url, "auth": {"kind": "none"}, "mode": "service"}), "application/json")
    assert status == 200, text
    assert json.loads(text)["connection"]["url"] == url


@pytest.fixture(scope="module")
def product_service():
    process, url = start_service("v2_service.py", V2_FILE, "sepmra_prod_man.json")
    yield url
    process.kill()


@pytest.fixture(scope="module")
def admin(product_service):
    b = signed_in(js=True)
    import_and_connect(b, V2_FILE, PRODUCT, product_service)
    yield b
    b.quit()


@pytest.fixture(scope="module")
def admin_nojs(admin):
    b = signed_in(js=False)
    yield b
    b.quit()


# Installed in a page (by WebDriver, which its CSP does not govern): once the list screen has shown
# the server's options for a search, `window.fwShownQuery` is that search. Only the latest search's
# answer is read and shown (drill-down.js drops the others before reading them), and it is shown as
# soon as it is read: the next task finds it on screen.
SHOWN_QUERY_HOOK = """
window.fwShownQuery = null;
if (!window.fwShownQueryHook) {
  window.fwShownQueryHook = true;
  const original = window.fetch;
  window.fetch = async (...args) => {
    const answer = await original(...args);
    const query = new URL(String(args[0]), location.href).searchParams.get("q");
    if (query !== null) {
      const read = answer.json.bind(answer);
      answer.json = async () => {
        const found = await read();
        setTimeout(() => { window.fwShownQuery = query; }, 0);
        return found;
      };
    }
    return answer;
  };
}
"""


def reload_waiting(b, action, again=None):
    """Does `action` and waits for the page it brings. With `again` (for a request that changes
    nothing, so sending it twice is harmless), a page that has not come within 15 s is asked for
    once more that way: a native click that landed mid-scroll on no button sends nothing, and
    nothing would tell."""
    old = b.driver.find_element(By.TAG_NAME, "html")
    action()
    # A create asks the service for each value-help value, its CSRF token, the draft and its
    # activation: on a busy machine the Python test services take a while.
    changed = lambda d: d.find_element(By.TAG_NAME, "html") != old  # noqa: E731
    if again is not None:
        try:
            WebDriverWait(b.driver, 15).until(changed)
            return
        except TimeoutException:
            try:
                again()
            except WebDriverException:  # the page came meanwhile: its button is gone
                pass
    WebDriverWait(b.driver, 45).until(changed)


def click(b, element, target=None):
    """Clicks `element`; when the page is still settling under the sticky bar and something else
    would take the click, clicks `target` (else the element) directly."""
    try:
        element.click()
    except Exception:  # noqa: BLE001 - ElementClickInterceptedException mid-scroll
        b.driver.execute_script("arguments[0].click()", target or element)


def pick_without_script(b, field, query, label=None):
    """Types into a long list's search box, sends it with Enter (the page comes back with the
    service's matches) and chooses the first match, or the one labelled `label`."""
    box = b.driver.find_element(By.ID, f"field-{field}")
    b.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    reload_waiting(b, lambda: box.send_keys(query + Keys.ENTER))
    options = b.driver.find_elements(By.CSS_SELECTOR, f".fw-longlist[data-name='{field}'] .fw-longlist__options label")
    assert options, f"no match for {query} in {field}"
    chosen = next((o for o in options if label is None or o.get_attribute("textContent").strip() == label), None)
    assert chosen is not None, [o.text for o in options]
    # In the regular layout's sheet, the option may sit below the sheet's fold.
    b.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", chosen)
    choice = b.driver.find_element(By.ID, chosen.get_attribute("for"))
    click(b, chosen, choice)
    try:
        WebDriverWait(b.driver, 2).until(lambda d: choice.is_selected())
    except Exception:  # noqa: BLE001 - a click that landed during a layout shift: choose again
        b.driver.execute_script("arguments[0].click()", choice)
    assert choice.is_selected(), f"{field}: {label or query} is not chosen"


# The fixed-value lists the service answers for whole: selects of its rows, by value.
FIXED = [("MainProductCategory", "Computer Systems"), ("ProductBaseUnit", "EA"), ("DimensionUnit", "CM"),
         ("WeightUnit", "KG")]


def fill_product_without_script(b, product_id):
    b.driver.find_element(By.ID, "field-ProductForEdit").send_keys(product_id)
    b.driver.find_element(By.ID, "field-Price").send_keys("19.90")
    pick_without_script(b, "Supplier", "asia", "ASIA HIGH TECH")
    for field, query in [("ProductCategory", "Notebooks"), ("Currency", "EUR")]:
        pick_without_script(b, field, query)
    for field, value in FIXED:
        Select(b.driver.find_element(By.ID, f"field-{field}")).select_by_value(value)


def service_has(url, product_id):
    return service_count(url, f"Product eq '{product_id}' and IsActiveEntity eq true")


def service_drafts(url, product_id):
    return service_count(url, f"ProductForEdit eq '{product_id}' and IsActiveEntity eq false")


def service_count(url, condition):
    query = urllib.request.quote(condition)
    request = urllib.request.Request(url + f"SEPMRA_C_PD_Product?$filter={query}",
                                     headers={"Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return len(json.load(answer)["d"]["results"])


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["compact", "regular"])
def test_without_javascript_the_search_asks_the_service_and_the_create_lands_there(size, admin_nojs, product_service):
    b = admin_nojs.viewport(*size).open(f"/forms/{PRODUCT}/new")
    product_id = "FW-" + uuid.uuid4().hex[:6].upper()
    fill_product_without_script(b, product_id)
    assert b.driver.find_element(By.ID, "field-ProductForEdit").get_attribute("value") == product_id, "kept"
    b.screenshot(f"service-nojs-filled-{size[0]}-full")
    reload_waiting(b, lambda: b.driver.find_element(By.CSS_SELECTOR, ".fw-navbar button[type=submit]").click())
    problems = b.driver.find_elements(By.CSS_SELECTOR, ".fw-error-summary")
    assert not problems, problems[0].get_attribute("textContent")
    body = b.driver.find_element(By.TAG_NAME, "body").get_attribute("textContent")
    assert product_id in body and "19.9" in body, body
    assert "ASIA HIGH TECH" in body, "the supplier by its name in the service, not its number"
    assert service_has(product_service, product_id) == 1, "the product is in the service, once"


def options_requests(b, field):
    """The addresses of the options requests the page made for a field's list (resource timing)."""
    return b.js_eval("return performance.getEntriesByType('resource').map(e => e.name)"
                     ".filter(n => n.includes(`/fields/${arguments[0]}/options`))", field)


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["compact", "regular"])
def test_the_list_screen_shows_the_services_options(size, admin):
    b = admin.viewport(*size).open(f"/forms/{PRODUCT}/new")
    # An answer that filters no list is sent with no list's search.
    b.driver.find_element(By.ID, "field-ProductForEdit").send_keys("NOT-SENT")
    b.driver.find_element(By.ID, "field-Supplier").click()
    b.settle()
    screen = b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-drilldown")
    rows = "return document.querySelectorAll('dialog.fw-drilldown .fw-drilldown__row').length"
    WebDriverWait(b.driver, 20).until(lambda d: b.js_eval(rows) == 50)
    asked = options_requests(b, "Supplier")
    assert asked and not any("NOT-SENT" in url for url in asked), asked
    screen.find_element(By.CSS_SELECTOR, "input[type=search]").send_keys("asia")
    labels = "return Array.from(document.querySelectorAll('dialog.fw-drilldown .fw-drilldown__label')).map(e => e.textContent)"
    WebDriverWait(b.driver, 20).until(lambda d: b.js_eval(labels) == ["ASIA HIGH TECH"])
    b.screenshot(f"service-list-screen-{size[0]}")
    screen.find_element(By.CSS_SELECTOR, ".fw-drilldown__label").click()
    assert wait_gone(b, "dialog.fw-drilldown")
    assert b.driver.find_element(By.ID, "field-Supplier").text == "ASIA HIGH TECH"


def choose_on_list_screen(b, field, value):
    """Opens a select's list screen (its rows are in the page) and chooses the row of `value`."""
    label = b.js_eval("return Array.from(document.querySelector(`select[name=${arguments[0]}]`).options)"
                      ".find(o => o.value === arguments[1]).textContent", field, value)
    b.driver.find_element(By.ID, f"field-{field}").click()
    b.settle()
    rows = b.driver.find_elements(By.CSS_SELECTOR, "dialog.fw-drilldown .fw-drilldown__label")
    row = next((r for r in rows if r.get_attribute("textContent") == label), None)
    assert row is not None, f"{field}: no row {label} in {[r.get_attribute('textContent') for r in rows]}"
    b.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
    row.click()
    assert wait_gone(b, "dialog.fw-drilldown")


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["compact", "regular"])
@pytest.mark.parametrize("js", [False, True], ids=["nojs", "js"])
def test_choosing_a_product_category_fills_its_main_category(js, size, admin, admin_nojs):
    b = (admin if js else admin_nojs).viewport(*size).open(f"/forms/{PRODUCT}/new")
    main = "return document.querySelector('select[name=MainProductCategory]').value"
    # A fixed-value list is a select of the service's nine main categories.
    options = b.js_eval("return Array.from(document.querySelectorAll('select[name=MainProductCategory] option'))"
                        ".map(o => o.value).filter(v => v)")
    assert len(options) == 9 and "Computer Systems" in options, options
    assert b.js_eval(main) == ""
    if js:
        b.driver.find_element(By.ID, "field-ProductForEdit").send_keys("NOT-SENT")
        b.driver.find_element(By.ID, "field-ProductCategory").click()
        b.settle()
        screen = b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-drilldown")
        screen.find_element(By.CSS_SELECTOR, "input[type=search]").send_keys("Notebooks")
        labels = "return Array.from(document.querySelectorAll('dialog.fw-drilldown .fw-drilldown__label')).map(e => e.textContent)"
        WebDriverWait(b.driver, 20).until(lambda d: b.js_eval(labels) == ["Notebooks"])
        screen.find_element(By.CSS_SELECTOR, ".fw-drilldown__label").click()
        assert wait_gone(b, "dialog.fw-drilldown")
        WebDriverWait(b.driver, 15).until(lambda d: b.js_eval(main) == "Computer Systems")
        # The list screen's cell of the filled field shows its new choice.
        assert b.driver.find_element(By.ID, "field-MainProductCategory").text == "Computer Systems"
        assert b.driver.find_element(By.ID, "field-ProductCategory").text == "Notebooks"
        assert not any("NOT-SENT" in url for url in options_requests(b, "ProductCategory"))
        # The main category now chosen (an In parameter) narrows the sub-categories, and is the
        # only answer their search sends.
        b.driver.find_element(By.ID, "field-ProductCategory").click()
        b.settle()
        screen = b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-drilldown")
        screen.find_element(By.CSS_SELECTOR, "input[type=search]").send_keys("s")
        WebDriverWait(b.driver, 20).until(lambda d: "Servers" in b.js_eval(labels))
        assert "Scanners" not in " ".join(b.js_eval(labels)), b.js_eval(labels)
        last = options_requests(b, "ProductCategory")[-1]
        assert "MainProductCategory=Computer+Systems" in last and "NOT-SENT" not in last, last
        screen.find_element(By.CSS_SELECTOR, ".fw-drilldown__back").click()
        assert wait_gone(b, "dialog.fw-drilldown")
    else:
        pick_without_script(b, "ProductCategory", "Notebooks")
        button = b.driver.find_element(By.CSS_SELECTOR, "button[name=_pick][value=ProductCategory]")
        assert "Category" in b.driver.find_element(By.CSS_SELECTOR, ".fw-longlist__note").text
        b.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        # Choosing changes nothing stored: a second send, should the click have landed on no button, is harmless.
        reload_waiting(b, lambda: click(b, button), again=lambda: b.driver.execute_script("arguments[0].click()", button))
        assert b.js_eval(main) == "Computer Systems"
        chosen = b.driver.find_element(By.CSS_SELECTOR, ".fw-longlist[data-name='ProductCategory'] input:checked")
        assert chosen.get_attribute("value") == "Notebooks"
    b.screenshot(f"service-fills-{'js' if js else 'nojs'}-{size[0]}")


@pytest.mark.parametrize("js", [False, True], ids=["nojs", "js"])
def test_the_services_refusal_is_shown_under_its_field(js, admin, admin_nojs, product_service):
    b = (admin if js else admin_nojs).viewport(1280, 800).open(f"/forms/{PRODUCT}/new")
    if js:
        # Chosen through the list screens, as a person with scripts would.
        b.driver.find_element(By.ID, "field-ProductForEdit").send_keys("HT-1000")
        b.driver.find_element(By.ID, "field-Price").send_keys("5")
        for field, query in [("Supplier", "asia"), ("ProductCategory", "Notebooks"), ("Currency", "EUR")]:
            b.driver.find_element(By.ID, f"field-{field}").click()
            b.settle()
            screen = b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-drilldown")
            rows = "return Array.from(document.querySelectorAll('dialog.fw-drilldown .fw-drilldown__label')).map(e => e.textContent)"
            WebDriverWait(b.driver, 20).until(lambda d: len(b.js_eval(rows)) > 0)
            b.js_eval(SHOWN_QUERY_HOOK)
            screen.find_element(By.CSS_SELECTOR, "input[type=search]").send_keys(query)
            # The service's matches replace the first page (a label need not contain the value
            # searched): wait until the answer to the whole query is shown, not an earlier one's.
            WebDriverWait(b.driver, 20).until(lambda d: b.js_eval("return window.fwShownQuery") == query,
                                              f"the list screen of {field} did not show the matches of {query}")
            found = screen.find_elements(By.CSS_SELECTOR, ".fw-drilldown__label")
            assert found, f"the list screen of {field} found nothing for {query}: {screen.text}"
            found[0].click()
            assert wait_gone(b, "dialog.fw-drilldown")
        # Notebooks gave its main category already.
        assert b.js_eval("return document.querySelector('select[name=MainProductCategory]').value") == "Computer Systems"
        for field, value in FIXED[1:]:
            choose_on_list_screen(b, field, value)
    else:
        fill_product_without_script(b, "HT-1000")
    reload_waiting(b, lambda: b.driver.find_element(By.CSS_SELECTOR, ".fw-navbar button[type=submit]").click())
    # textContent: while the sheet fades in, Selenium's visible text is empty.
    summary = b.driver.find_element(By.CSS_SELECTOR, ".fw-error-summary").get_attribute("textContent")
    assert "Product HT-1000 already exists" in summary, summary
    error = b.driver.find_element(By.ID, "field-ProductForEdit-error").get_attribute("textContent")
    assert "Product HT-1000 already exists" in error, error
    described = b.driver.find_element(By.ID, "field-ProductForEdit").get_attribute("aria-describedby")
    assert "field-ProductForEdit-error" in described
    assert b.driver.find_element(By.ID, "field-ProductForEdit").get_attribute("value") == "HT-1000", "kept"
    if not js:
        chosen = b.driver.find_element(By.CSS_SELECTOR, ".fw-longlist[data-name='Supplier'] .fw-longlist__options label")
        assert chosen.get_attribute("textContent").strip() == "ASIA HIGH TECH", "the kept choice by its name"
    b.screenshot(f"service-refusal-{'js' if js else 'nojs'}-full")
    if js:
        b.settle()  # axe judges colours once the sheet has faded in
        violations = failing_violations(b.axe())
        assert not violations, describe_violations(violations)
    # The refused activation keeps its draft in the service for the corrected create, as Fiori
    # elements does; Cancel discards it and goes back to the list.
    assert service_drafts(product_service, "HT-1000") == 1
    cancel = b.driver.find_element(By.CSS_SELECTOR, ".fw-navbar__cancel")
    assert cancel.tag_name == "button" and cancel.get_attribute("formaction").endswith(f"/forms/{PRODUCT}/draft/discard")
    # With JavaScript too the page is replaced only once the discard has answered (the sheet's
    # URL may already be the list's, so the URL alone does not say the discard is done).
    reload_waiting(b, cancel.click)
    WebDriverWait(b.driver, 30).until(lambda d: d.current_url.rstrip("/").endswith(f"/forms/{PRODUCT}"))
    assert service_drafts(product_service, "HT-1000") == 0, "Cancel discards the kept draft"


@pytest.mark.parametrize("js", [False, True], ids=["nojs", "js"])
def test_a_service_that_does_not_answer_gives_the_nothing_was_created_page(js, admin, admin_nojs):
    process, url = start_service("v4_service.py", V4_FILE, "incident_management.json")
    try:
        # Imported again (a new version) and connected to this run's own service, then stopped.
        import_and_connect(admin, V4_FILE, INCIDENT, url)
        b = (admin if js else admin_nojs).viewport(390, 844).open(f"/forms/{INCIDENT}/new")
    finally:
        process.kill()
        process.wait()
    identifier = "INC-" + uuid.uuid4().hex[:6].upper()
    b.driver.find_element(By.ID, "field-identifier").send_keys(identifier)
    reload_waiting(b, lambda: b.driver.find_element(By.CSS_SELECTOR, ".fw-navbar button[type=submit]").click())
    summary = b.driver.find_element(By.CSS_SELECTOR, ".fw-error-summary").get_attribute("textContent")
    assert "nothing was created" in summary and "send the form again" in summary, summary
    assert b.driver.find_element(By.ID, "field-identifier").get_attribute("value") == identifier, "kept"
    b.screenshot(f"service-away-{'js' if js else 'nojs'}")
    if js:
        b.settle()  # axe judges colours once the sheet has faded in
        violations = failing_violations(b.axe())
        assert not violations, describe_violations(violations)
