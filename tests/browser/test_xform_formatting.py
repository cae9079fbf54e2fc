"""ODK's formatting in an XForm's labels and hints (tests/browser/fixtures/styled.xml) in headless
Chromium at both widths, JavaScript on and off: the heading, the emphasis, the link (opening a
new tab, said to screen readers) and the coloured hint show as such, in the palette's readable
colour; the form's HTML shows as text and runs nothing; a refusal names the field by its words;
axe finds nothing serious."""
import os

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import describe_violations, failing_violations, gone, import_form
from test_items import admin, admin_js, admin_nojs  # noqa: F401

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "styled.xml")
SIZES = [(390, 844), (1280, 800)]
SIZE_IDS = ["compact", "regular"]


@pytest.fixture(scope="module")
def form_id(admin_js):
    return import_form(admin_js, FIXTURE)["id"]


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_formatted_labels_and_hints(admin, form_id, size):
    b = admin
    b.viewport(*size)
    b.open(f"/forms/{form_id}/new")
    d = b.driver
    heading = d.find_element(By.CSS_SELECTOR, ".fw-rich-h1")
    assert heading.text == "Welcome"
    assert d.execute_script("return parseFloat(getComputedStyle(arguments[0]).fontSize)", heading) > 20
    link = d.find_element(By.CSS_SELECTOR, ".fw-cell a[href='https://docs.getodk.org/']")
    assert link.get_attribute("target") == "_blank" and "noopener" in link.get_attribute("rel")
    assert "opens in a new tab" in link.get_attribute("textContent")
    assert d.find_element(By.CSS_SELECTOR, "label[for='field-name'] strong").text == "full"
    red = d.find_element(By.CSS_SELECTOR, "#field-name-hint .fw-rich--red")
    assert red.text == "As in your passport"
    assert d.execute_script("return getComputedStyle(arguments[0]).color", red) == "rgb(170, 8, 8)"
    # The form's HTML is text; nothing of it runs, no attribute of it survives.
    assert "<script>alert(1)</script>" in d.find_element(By.CSS_SELECTOR, ".fw-cell--text p.fw-label").text
    assert not d.find_elements(By.CSS_SELECTOR, ".fw-cell script, [onclick], a[href^='javascript']")
    assert d.find_element(By.ID, "field-age-hint").text == "In years"
    if b.js:  # axe-core runs on the page's timers; the page without JavaScript is the same HTML
        violations = failing_violations(b.axe())
        assert not violations, describe_violations(violations)

    # A refusal names the field by its words, without the marks.
    d.find_element(By.NAME, "age").send_keys("4")
    old = d.find_element(By.TAG_NAME, "html")
    d.find_element(By.CSS_SELECTOR, ".fw-navbar button[type=submit]").click()
    WebDriverWait(d, 20).until(gone(old))
    b.settle()
    summary = d.find_element(By.CSS_SELECTOR, ".fw-error-summary").text
    assert "Enter Your full name" in summary and "**" not in summary
