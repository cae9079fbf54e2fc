"""axe-core on every kind of page, at both widths: the create view (as opened and as refused), the
parent page, an object's detail page and edit view, the sign-in page, the change-password page (as
opened and as refused) and the admin page. A
violation of impact "serious" or "critical" fails the check, printed with its rule, help and the
failing elements so it can be fixed. axe-core comes from PyPI (axe-playwright-python ships
axe.min.js) and is injected through WebDriver: see Browser.axe in conftest.py.

What axe cannot decide ("needs review") does not fail these checks but is printed with them
(pytest -rA); the error summary's has its own check below, which fails on anything serious."""
import base64
import os
import tempfile
import uuid

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import AXE_FAILING_IMPACTS, Browser, choose, describe_violations, failing_violations, gone

FORM = "/forms/new-issue/new"
PASSWORD = os.environ.get("FIELDWORK_ADMIN_PASSWORD", "ci-admin-password")
SIZES = {"390": (390, 844), "1280": (1280, 800)}




def click_and_wait(b: Browser, selector: str):
    old = b.driver.find_element(By.TAG_NAME, "html")
    b.driver.find_element(By.CSS_SELECTOR, selector).click()
    WebDriverWait(b.driver, 20).until(gone(old))
    b.settle()


@pytest.fixture(scope="module")
def created(browser):
    """An object created through the demo form, as a person would: its detail and edit URLs."""
    b = browser.viewport(1280, 800).open(FORM)
    d = b.driver
    d.find_element(By.ID, "field-title").send_keys("Accessibility " + uuid.uuid4().hex[:6])
    choose(b, "project", "Customer Portal")
    click_and_wait(b, ".fw-navbar button[type=submit]")
    detail = d.current_url
    assert "/forms/new-issue/" in detail and not detail.endswith("/new"), (detail, d.title)
    edit = d.find_element(By.PARTIAL_LINK_TEXT, "Edit").get_attribute("href")
    return {"detail": detail, "edit": edit}


@pytest.fixture(scope="module")
def admin():
    """A browser of its own, signed in as admin, so the shared one stays a visitor's."""
    b = Browser(js=True).viewport(1280, 800)
    try:
        b.open("/login?next=/admin")
        b.driver.find_element(By.ID, "field-name").send_keys("admin")
        b.driver.find_element(By.ID, "field-password").send_keys(PASSWORD)
        click_and_wait(b, ".fw-login__submit")
        assert b.driver.current_url.endswith("/admin"), b.driver.current_url
        yield b
    finally:
        b.quit()


# Each page state: how to get there from a fresh start, given the pytest request and a size.

def create_view(request, size):
    return request.getfixturevalue("browser").viewport(*size).open(FORM)


def refused_create_view(request, size):
    b = create_view(request, size)
    click_and_wait(b, ".fw-navbar button[type=submit]")
    assert b.driver.find_elements(By.CSS_SELECTOR, ".fw-error-summary"), b.driver.title
    return b


def parent_page(request, size):
    request.getfixturevalue("created")  # so the list is not empty
    return request.getfixturevalue("browser").viewport(*size).open("/forms/new-issue")


def object_page(which):
    def go(request, size):
        url = request.getfixturevalue("created")[which]
        b = request.getfixturevalue("browser").viewport(*size)
        b.leave()
        b.driver.get(url)
        b.settle()
        assert b.driver.current_url == url, b.driver.current_url
        return b
    return go


def sign_in_page(request, size):
    b = request.getfixturevalue("browser").viewport(*size).open("/login")
    assert b.driver.find_elements(By.ID, "field-password")
    return b


def change_password_page(request, size):
    b = request.getfixturevalue("admin").viewport(*size).open("/account/password")
    assert b.driver.find_elements(By.ID, "field-current"), b.driver.current_url
    return b


def refused_change_password(request, size):
    """Refused by the rule alone (no current password, a short new one): nothing is counted
    against the admin's sign-in, whose password the other tests need."""
    b = change_password_page(request, size)
    b.driver.find_element(By.ID, "field-password").send_keys("short")
    click_and_wait(b, ".fw-login__submit")
    summary = b.driver.find_elements(By.CSS_SELECTOR, ".fw-error-summary a")
    assert [a.get_attribute("hash") for a in summary] == ["#field-current", "#field-password"], b.driver.title
    return b


def admin_page(request, size):
    b = request.getfixturevalue("admin").viewport(*size).open("/admin")
    assert b.driver.current_url.endswith("/admin"), b.driver.current_url
    return b


def admin_preview(request, size):
    b = request.getfixturevalue("admin").viewport(*size).open("/admin/forms/new-issue/preview")
    assert b.driver.find_elements(By.CSS_SELECTOR, "iframe.fw-preview__iframe"), b.driver.current_url
    return b


def delete_page(request, size):
    url = request.getfixturevalue("created")["detail"] + "/delete"
    b = request.getfixturevalue("browser").viewport(*size)
    b.leave()
    b.driver.get(url)
    b.settle()
    return b


def not_found_page(request, size):
    return request.getfixturevalue("browser").viewport(*size).open("/no-such-page")


def drilldown_open(request, size):
    b = create_view(request, size)
    b.driver.find_element(By.ID, "field-project").click()
    b.settle()
    assert b.driver.find_elements(By.CSS_SELECTOR, "dialog.fw-drilldown[open]")
    return b


def discard_question(request, size):
    b = create_view(request, size)
    b.driver.find_element(By.ID, "field-title").send_keys("Typed")
    b.driver.find_element(By.CSS_SELECTOR, ".fw-navbar__cancel").click()
    assert b.driver.find_elements(By.CSS_SELECTOR, "dialog.fw-discard[open]")
    return b


def modal_open(request, size):
    b = request.getfixturevalue("browser").viewport(*size).open("/forms/new-issue")
    b.driver.find_element(By.CSS_SELECTOR, ".fw-page-header__add").click()
    WebDriverWait(b.driver, 20).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "dialog.fw-modal[open] .fw-sheet[data-enhanced] form"))
    b.settle()
    return b


def attachment_preview_open(request, size):
    """The create view with a chosen image, its previewer open."""
    path = os.path.join(tempfile.mkdtemp(), "photo.png")
    with open(path, "wb") as f:
        f.write(base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="))
    b = create_view(request, size)
    b.driver.find_element(By.ID, "field-attachments").send_keys(path)
    WebDriverWait(b.driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".fw-attachment__open"))
    b.driver.find_element(By.CSS_SELECTOR, ".fw-attachment__open").click()
    WebDriverWait(b.driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "dialog.fw-preview[open] img"))
    b.settle()
    return b


PAGES = {
    "create-view": create_view,
    "refused-create-view": refused_create_view,
    "parent-page": parent_page,
    "detail-page": object_page("detail"),
    "edit-view": object_page("edit"),
    "sign-in-page": sign_in_page,
    "change-password-page": change_password_page,
    "refused-change-password": refused_change_password,
    "admin-page": admin_page,
    "admin-preview": admin_preview,
    "delete-page": delete_page,
    "not-found-page": not_found_page,
    "drilldown-open": drilldown_open,
    "discard-question": discard_question,
    "modal-open": modal_open,
    "attachment-preview-open": attachment_preview_open,
}

# Checks known to fail until a template changes: {(page, size): reason}. Strict, so a fix shows
# up as a failure that asks for the mark to go.
KNOWN = {}

CASES = [pytest.param(page, size, id=f"{page}-{size}",
                      marks=[pytest.mark.xfail(strict=True, raises=AssertionError,
                                                 reason=KNOWN[(page, size)])]
                      if (page, size) in KNOWN else [])
         for page in PAGES for size in SIZES]


@pytest.mark.parametrize("page,size", CASES)
def test_no_serious_violations(page, size, request):
    b = PAGES[page](request, SIZES[size])
    results = b.axe_results()
    violations, review = results["violations"], results["incomplete"]
    failing = failing_violations(violations)
    lesser = [v for v in violations if v not in failing]
    if lesser:
        print(f"{page} at {size}: violations below {'/'.join(AXE_FAILING_IMPACTS)}, not failing:\n"
              f"{describe_violations(lesser)}")
    if review:
        print(f"{page} at {size}: axe could not decide these (needs review), not failing:\n"
              f"{describe_violations(review)}")
    assert not failing, (f"axe-core {b.driver.execute_script('return axe.version')}: "
                         f"{len(failing)} serious or critical violation(s) on the {page} at {size} "
                         f"({b.driver.current_url}):\n{describe_violations(failing)}")


@pytest.mark.parametrize("size", list(SIZES))
def test_error_summary_has_nothing_serious_to_review(size, request):
    """The refused create view's error summary: nothing serious that axe leaves to a person."""
    b = refused_create_view(request, SIZES[size])
    review = b.axe_results(".fw-error-summary")["incomplete"]
    failing = failing_violations(review)
    assert not failing, describe_violations(failing)


def test_axe_loads_despite_the_csp(browser):
    """The pages allow only their own scripts (an inline one is refused), yet axe, injected
    through WebDriver, loads and runs; and it finds what it should."""
    b = browser.viewport(1280, 800).open(FORM)
    d = b.driver
    csp = d.execute_async_script(
        "const done = arguments[0]; fetch(location.href).then("
        "r => done(r.headers.get('content-security-policy') || ''), e => done(String(e)));")
    assert "script-src 'self'" in csp, csp
    d.execute_script(
        "const s = document.createElement('script'); s.textContent = 'window.fwInline = 1';"
        "document.head.appendChild(s);")
    assert d.execute_script("return window.fwInline") is None, "the CSP let an inline script run"
    d.execute_script("delete window.axe")
    assert b.axe() is not None
    assert d.execute_script("return window.axe.version").startswith("4.")
    # A planted image without alt text and grey-on-white text are caught (the style is set
    # through the CSSOM: the CSP refuses style attributes).
    d.execute_script(
        "const form = document.querySelector('form');"
        "form.insertAdjacentHTML('afterbegin', '<p id=fw-planted>Faint</p><img id=fw-planted-img src=data:,>');"
        "const p = document.getElementById('fw-planted'); p.style.color = '#ccc'; p.style.background = '#fff';")
    found = {v["id"]: [n["target"] for n in v["nodes"]] for v in failing_violations(b.axe())}
    assert found.get("image-alt") == [["#fw-planted-img"]], found
    assert found.get("color-contrast") == [["#fw-planted"]], found
