"""An imported ODK XForm (tests/browser/fixtures/visit.xml, "Home visit") in headless Chromium:
the questions that do not apply are hidden and the server decides which apply. Without
JavaScript, "Update the questions" re-renders the form with what was typed and the questions that
now apply; with JavaScript, rules.js asks POST .../rules as answers change. A refused create
shows the XForm's own constraint message in the error summary and under its field; a create that
makes the details irrelevant stores none of them. Keyboard and axe-core checks too; at both
widths.

The form is imported once per module through POST /api/forms in an admin's session (the form's
access is "users", so its pages are opened in browsers signed in as the admin; the shared
visitor browsers are not used). The pages are opened at the id the import answers (the XForm's
id "home_visit" is made the slug "home-visit"). axe-core needs JavaScript to run, so the "JavaScript off" pages
are checked in a browser with JavaScript on whose page scripts are blocked (CDP
Network.setBlockedURLs): the DOM and CSS are those a browser without JavaScript gets."""
import os
import uuid

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import AXE_FAILING_IMPACTS, describe_violations, failing_violations, gone, import_form, signed_in, type_into, value

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "visit.xml")
SIZES = [(390, 844), (1280, 800)]
SIZE_IDS = ["compact", "regular"]
NOTE = "Thank you for taking part."


@pytest.fixture(scope="module")
def admin():
    """The admin's browser with JavaScript, after importing the fixture: (browser, form id)."""
    b = signed_in(js=True)
    try:
        answer = import_form(b, FIXTURE)
        assert answer["warnings"] == [], answer
        yield b, answer["id"]
    finally:
        b.quit()


@pytest.fixture(scope="module")
def form_id(admin):
    return admin[1]


@pytest.fixture(scope="module")
def admin_nojs(admin):
    b = signed_in(js=False)
    yield b
    b.quit()


@pytest.fixture(scope="module")
def admin_blocked(admin):
    """A browser with JavaScript whose page scripts are blocked: the pages as without
    JavaScript, yet axe-core (injected through WebDriver) can run."""
    b = signed_in(js=True).block_page_scripts()
    yield b
    b.quit()


# Helpers ------------------------------------------------------------------------------------



def press_and_wait(b, element):
    """Clicks a submit button and waits for the next page."""
    old = b.driver.find_element(By.TAG_NAME, "html")
    element.click()
    WebDriverWait(b.driver, 20).until(gone(old))
    b.settle()


def update(b):
    press_and_wait(b, b.driver.find_element(By.CSS_SELECTOR, "button[name=_update]"))


def create(b):
    press_and_wait(b, b.driver.find_element(By.CSS_SELECTOR, ".fw-navbar button[type=submit]"))


def status(b):
    """The HTTP status of the page's own response (Navigation Timing's responseStatus)."""
    return b.js_eval("return performance.getEntriesByType('navigation')[0].responseStatus")


def cell(b, name):
    return b.driver.find_element(By.CSS_SELECTOR, f".fw-cell[data-field='{name}']")


def displayed(b, name):
    return cell(b, name).is_displayed()


def group(b, label="About you"):
    """The XForm group's element, found by its heading."""
    return b.driver.find_element(
        By.XPATH, f"//div[contains(@class,'fw-group')][h2[normalize-space()='{label}']]")


def choose(b, name, value):
    """Clicks the segmented button's label (the radio itself is visually hidden)."""
    radio = b.driver.find_element(By.CSS_SELECTOR, f"input[name='{name}'][value='{value}']")
    b.driver.find_element(By.CSS_SELECTOR, f"label[for='{radio.get_attribute('id')}']").click()
    assert radio.is_selected()


def chosen(b, name):
    return [e.get_attribute("value") for e in b.driver.find_elements(By.NAME, name) if e.is_selected()]


def wait_for(b, condition, timeout=15, message=""):
    WebDriverWait(b.driver, timeout).until(lambda _: condition(), message)


def shot(b, name, size):
    b.screenshot(f"xforms-{name}-{size[0]}-full")


def assert_detail_page(b, form_id, marker):
    url = b.driver.current_url
    assert f"/forms/{form_id}/" in url and not url.endswith("/new"), (url, b.driver.title)
    assert status(b) == 200
    body = b.driver.find_element(By.TAG_NAME, "body").text
    assert marker in body, body
    assert "Age" not in body and "About you" not in body, f"an irrelevant question is shown:\n{body}"


def fresh_view_checks(b):
    """Name, the note, consent and Score are shown; the details are not."""
    d = b.driver
    assert status(b) == 200
    assert displayed(b, "name") and displayed(b, "consent") and displayed(b, "score")
    note = cell(b, "intro")
    assert note.is_displayed() and note.text == NOTE
    assert not note.find_elements(By.CSS_SELECTOR, "input, textarea, select"), "a note has no control"
    assert not d.find_elements(By.NAME, "intro")
    assert not displayed(b, "age") and not displayed(b, "smoker")
    assert not group(b).is_displayed(), "a group none of whose questions applies is hidden"
    assert value(b, "score") == "0"
    assert d.find_element(By.NAME, "score").get_attribute("readonly") is not None


# 1. Without JavaScript ------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_without_javascript_update_shows_the_questions_that_apply(size, form_id, admin_nojs):
    b = admin_nojs.viewport(*size).open(f"/forms/{form_id}/new")
    d = b.driver
    marker = f"Visit nojs {size[0]} {uuid.uuid4().hex[:6]}"
    fresh_view_checks(b)
    block = d.find_element(By.CSS_SELECTOR, "[data-rules-update]")
    assert block.is_displayed()
    shot(b, "nojs-fresh", size)

    # Consent Yes, Update: the same form again, Age shown, Name kept; nothing judged.
    type_into(b, "name", marker)
    choose(b, "consent", "yes")
    update(b)
    assert status(b) == 200
    # Back at the Update block, where the person was (formaction ...#fw-update).
    assert d.current_url.endswith("/forms/" + form_id + "#fw-update"), d.current_url
    assert not d.find_elements(By.CSS_SELECTOR, ".fw-error-summary"), "Update judges nothing"
    assert not d.title.startswith("Error"), d.title
    assert value(b, "name") == marker and chosen(b, "consent") == ["yes"]
    assert displayed(b, "age") and group(b).is_displayed()
    assert not displayed(b, "smoker")
    assert value(b, "score") == "10"
    assert d.find_element(By.NAME, "age").get_attribute("aria-invalid") is None, "an empty Age is not judged"
    shot(b, "nojs-update-yes", size)

    # Age 45, Update: "Do you smoke?" applies.
    type_into(b, "age", "45")
    update(b)
    assert status(b) == 200
    assert displayed(b, "smoker"), "age > 30: Do you smoke? applies"
    assert "Do you smoke?" in cell(b, "smoker").text
    assert value(b, "age") == "45" and value(b, "name") == marker

    # Age 12, Create: refused with the XForm's own constraint message.
    type_into(b, "age", "12")
    create(b)
    assert status(b) == 422
    assert d.title.startswith("Error: "), d.title
    summary = d.find_element(By.CSS_SELECTOR, ".fw-error-summary")
    assert "There is a problem" in summary.text
    link = summary.find_element(By.PARTIAL_LINK_TEXT, "Only adults may answer")
    age = d.find_element(By.NAME, "age")
    assert link.get_attribute("href").endswith("#" + age.get_attribute("id")), link.get_attribute("href")
    error = cell(b, "age").find_element(By.CSS_SELECTOR, ".fw-field__error")
    assert "Only adults may answer" in error.text and error.is_displayed()
    assert error.get_attribute("id") in (age.get_attribute("aria-describedby") or "").split()
    assert age.get_attribute("aria-invalid") == "true"
    assert value(b, "age") == "12" and value(b, "name") == marker and chosen(b, "consent") == ["yes"]
    assert displayed(b, "age") and not displayed(b, "smoker"), "12 is not > 30"
    shot(b, "nojs-refused", size)

    # Consent No, Create: stored without the details (Age still holds 12, hidden), 303 to the detail page.
    choose(b, "consent", "no")
    create(b)
    assert_detail_page(b, form_id, marker)
    shot(b, "nojs-detail", size)


# 2. With JavaScript -------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_with_javascript_questions_appear_as_answers_change(size, admin, form_id):
    b = admin[0].viewport(*size).open(f"/forms/{form_id}/new")
    d = b.driver
    marker = f"Visit js {size[0]} {uuid.uuid4().hex[:6]}"
    fresh_view_checks(b)
    assert not d.find_element(By.CSS_SELECTOR, "[data-rules-update]").is_displayed(), \
        "with JavaScript the Update block is hidden"
    shot(b, "js-fresh", size)
    b.console_errors()  # drains the log: only this page's errors count below
    # A mark on the window: it is lost if the page is loaded again.
    b.js_eval("window.fwSamePage = true")

    type_into(b, "name", marker)
    choose(b, "consent", "yes")
    wait_for(b, lambda: displayed(b, "age"), message="Age did not appear after consent Yes")
    assert group(b).is_displayed()
    assert d.find_element(By.NAME, "age").get_attribute("aria-required") == "true"
    wait_for(b, lambda: value(b, "score") == "10", message="Score did not become 10")
    assert not displayed(b, "smoker")

    type_into(b, "age", "45")
    wait_for(b, lambda: displayed(b, "smoker"), message="Do you smoke? did not appear for age 45")
    shot(b, "js-yes-45", size)

    choose(b, "consent", "no")
    wait_for(b, lambda: not group(b).is_displayed(), message="the details did not hide on consent No")
    assert not displayed(b, "age") and not displayed(b, "smoker")
    wait_for(b, lambda: value(b, "score") == "0", message="Score did not go back to 0")
    assert value(b, "age") == "45", "a hidden question keeps what was typed"
    assert value(b, "name") == marker
    assert b.js_eval("return window.fwSamePage === true"), "the page was loaded again"
    errors = [e for e in b.console_errors() if "favicon.ico" not in e.get("message", "")]
    assert not errors, errors
    shot(b, "js-no", size)

    create(b)
    assert_detail_page(b, form_id, marker)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_with_javascript_a_refused_rules_request_brings_back_the_update_button(size, admin, form_id):
    """When the server refuses the rules request (here: a stale CSRF token, 403), the page cannot
    follow the answers any more: the Update block comes back so the questions can still be updated."""
    b = admin[0].viewport(*size).open(f"/forms/{form_id}/new")
    block = b.driver.find_element(By.CSS_SELECTOR, "[data-rules-update]")
    assert not block.is_displayed()
    b.js_eval("document.querySelector('input[name=_csrf]').value = 'stale'")
    choose(b, "consent", "yes")
    wait_for(b, block.is_displayed, message="the Update block stayed hidden after a refused rules request")
    assert not displayed(b, "age")


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_edit_view_follows_the_answers_and_drops_what_no_longer_applies(size, js, request, form_id):
    """The edit view asks its own rules URL (/forms/{id}/{object}/rules) or is updated by its
    Update button; a save that makes the details irrelevant drops them from the object."""
    b = request.getfixturevalue("admin")[0] if js else request.getfixturevalue("admin_nojs")
    b.viewport(*size)
    d = b.driver
    marker = f"Edit {'js' if js else 'nojs'} {size[0]} {uuid.uuid4().hex[:6]}"
    fresh(b, form_id)
    type_into(b, "name", marker)
    answer_yes(b, "45")
    wait_for(b, lambda: displayed(b, "smoker"))
    choose(b, "smoker", "yes")
    create(b)
    assert status(b) == 200 and not d.current_url.endswith("/new"), d.title
    body = d.find_element(By.TAG_NAME, "body").text
    assert "Age\n45" in body and "Do you smoke?\nYes" in body, body
    detail = d.current_url

    press_and_wait(b, d.find_element(By.PARTIAL_LINK_TEXT, "Edit"))
    form = d.find_element(By.CSS_SELECTOR, "form[data-rules]")
    assert form.get_attribute("data-rules").endswith(detail.split("/forms/", 1)[1] + "/rules"), \
        form.get_attribute("data-rules")
    assert displayed(b, "age") and displayed(b, "smoker") and value(b, "age") == "45"
    assert d.find_element(By.CSS_SELECTOR, "[data-rules-update]").is_displayed() != js
    choose(b, "consent", "no")
    if js:
        wait_for(b, lambda: not group(b).is_displayed(), message="the details did not hide on consent No")
    else:
        update(b)
        assert status(b) == 200 and not d.find_elements(By.CSS_SELECTOR, ".fw-error-summary")
        assert not group(b).is_displayed()
    assert value(b, "age") == "45" and chosen(b, "smoker") == ["yes"], "hidden answers are kept in the page"
    shot(b, f"edit-no-{'js' if js else 'nojs'}", size)
    create(b)  # the edit view's Save
    assert d.current_url == detail, d.current_url
    body = d.find_element(By.TAG_NAME, "body").text
    assert marker in body and "Age" not in body and "Do you smoke?" not in body, body

    # Edited again: the details were not stored, so Yes shows an empty Age.
    press_and_wait(b, d.find_element(By.PARTIAL_LINK_TEXT, "Edit"))
    assert not displayed(b, "age")
    choose(b, "consent", "yes")
    if js:
        wait_for(b, lambda: displayed(b, "age"))
    else:
        update(b)
    assert displayed(b, "age") and value(b, "age") == "", "an irrelevant answer was stored"
    assert not displayed(b, "smoker") and chosen(b, "smoker") == []


# 3. Keyboard -------------------------------------------------------------------------------

def press(b, *keys):
    chain = ActionChains(b.driver)
    for key in keys:
        chain.send_keys(key)
    chain.perform()


def active_id(b):
    return b.js_eval("return document.activeElement && document.activeElement.id")


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_keyboard_chooses_consent_and_reaches_age(size, admin, form_id):
    b = admin[0].viewport(*size).open(f"/forms/{form_id}/new")
    consent_ids = b.js_eval("return Array.from(document.getElementsByName('consent'), e => e.id)")
    b.driver.find_element(By.NAME, "name").click()
    for _ in range(10):
        press(b, Keys.TAB)
        if active_id(b) in consent_ids:
            break
    else:
        raise AssertionError(f"Tab never reached the consent buttons (at #{active_id(b)})")
    yes = b.driver.find_element(By.CSS_SELECTOR, "input[name=consent][value=yes]")
    no = b.driver.find_element(By.CSS_SELECTOR, "input[name=consent][value=no]")
    # While nothing applies, the next stop after consent is Score, not Age.
    press(b, Keys.TAB)
    assert active_id(b) == "field-score", active_id(b)
    ActionChains(b.driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    assert active_id(b) in consent_ids, active_id(b)
    # To "Yes" with the arrow keys, chosen with Space.
    for _ in range(len(consent_ids)):
        if active_id(b) == yes.get_attribute("id"):
            break
        press(b, Keys.ARROW_RIGHT)
    assert active_id(b) == yes.get_attribute("id"), active_id(b)
    press(b, Keys.SPACE)
    assert yes.is_selected() and not no.is_selected()
    wait_for(b, lambda: displayed(b, "age"), message="Age did not appear after Space on Yes")
    press(b, Keys.TAB)
    assert active_id(b) == "field-age", f"Tab from consent went to #{active_id(b)}, not Age"
    press(b, "45")
    assert value(b, "age") == "45"


# 4. axe-core -------------------------------------------------------------------------------

def fresh(b, form_id):
    return b.open(f"/forms/{form_id}/new")


def answer_yes(b, age):
    """Consent Yes and an age, the details shown as they apply: by rules.js, or by Update
    (without JavaScript the Update block is shown)."""
    choose(b, "consent", "yes")
    if b.driver.find_element(By.CSS_SELECTOR, "[data-rules-update]").is_displayed():
        update(b)
    else:
        update_button = b.driver.find_element(By.CSS_SELECTOR, "[data-rules-update]")
        wait_for(b, lambda: displayed(b, "age") or update_button.is_displayed())
        assert displayed(b, "age"), "rules.js showed the Update button: the rules route refused or did not answer"
    type_into(b, "age", age)
    if b.driver.find_element(By.CSS_SELECTOR, "[data-rules-update]").is_displayed():
        update(b)


def answered(b, form_id):
    """Consent Yes, Age 45: the details and "Do you smoke?" shown (rules.js has marked the
    required questions with aria-required; without JavaScript this is Update's page)."""
    fresh(b, form_id)
    type_into(b, "name", "Axe")
    answer_yes(b, "45")
    wait_for(b, lambda: displayed(b, "smoker"))
    return b


def refused(b, form_id):
    """The create view refused: consent Yes, Age 12."""
    fresh(b, form_id)
    type_into(b, "name", "Axe")
    answer_yes(b, "12")
    create(b)
    assert status(b) == 422, b.driver.title
    assert "Only adults may answer" in b.driver.find_element(By.CSS_SELECTOR, ".fw-error-summary").text
    return b


PAGES = {"fresh": fresh, "answered": answered, "refused": refused}


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("page", list(PAGES))
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_no_serious_axe_violations(size, page, js, request, form_id):
    b = request.getfixturevalue("admin")[0] if js else request.getfixturevalue("admin_blocked")
    b.viewport(*size)
    PAGES[page](b, form_id)
    enhanced = b.js_eval("return document.documentElement.hasAttribute('data-enhanced')")
    assert enhanced == js, "the page's scripts ran" if not js else "the page was not enhanced"
    shot(b, f"axe-{page}-{'js' if js else 'nojs'}", size)
    results = b.axe_results()
    failing = failing_violations(results["violations"])
    lesser = [v for v in results["violations"] if v not in failing]
    if lesser:
        print(f"below {'/'.join(AXE_FAILING_IMPACTS)}, not failing:\n{describe_violations(lesser)}")
    assert not failing, (f"{len(failing)} serious or critical violation(s) on the {page} view "
                         f"({'JavaScript on' if js else 'JavaScript off'}, {size[0]}):\n"
                         f"{describe_violations(failing)}")


def test_a_question_required_by_an_answer_is_marked_as_the_answers_change(form_id, admin):
    """Do you smoke? is required from age 91 (the fixture's `required="/data/details/age > 90"`):
    rules.js marks its label (" *", "(required)" for screen readers) and unmarks it again."""
    b = admin[0].viewport(1280, 800)
    fresh(b, form_id)
    answer_yes(b, "95")
    wait_for(b, lambda: displayed(b, "smoker"))
    def mark():
        return cell(b, "smoker").find_element(By.CSS_SELECTOR, "[data-required-now]").get_attribute("textContent")

    wait_for(b, lambda: mark() == " * (required)", message=f"not marked required at age 95: {mark()!r}")
    radio = b.driver.find_element(By.CSS_SELECTOR, "input[name='smoker']")
    assert radio.get_attribute("aria-required") == "true"
    type_into(b, "age", "45")
    wait_for(b, lambda: mark() == "", message=f"still marked required at age 45: {mark()!r}")
