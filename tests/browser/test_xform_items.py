"""An ODK XForm with repeats (tests/browser/fixtures/roster.xml, "Roster": household members, and
visits whose count `jr:count` takes from an answer) in headless Chromium at both widths,
JavaScript on and off. With JavaScript, Add clones the list's <template> and Remove takes the
item out without a page load, the focus on the new item's first field or the list's heading,
and the rules are asked again: a member's question that does not apply to that member hides, and
the visits list takes as many items as the answer says. Without JavaScript, Add, Remove and
Update send the form back with everything kept. Either way the create is judged per item (the
error summary names the item) and stores the object with its items; axe finds nothing serious."""
import os

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import WAIT, describe_violations, failing_violations, gone, import_form, type_into, value
# The same two browsers, one each way, and the fixture that picks one (test_items.py).
from test_items import admin, admin_js, admin_nojs  # noqa: F401

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "roster.xml")
SIZES = [(390, 844), (1280, 800)]
SIZE_IDS = ["compact", "regular"]


@pytest.fixture(scope="module")
def form_id(admin_js):
    return import_form(admin_js, FIXTURE)["id"]


def heading(b, path):
    return b.driver.find_element(By.CSS_SELECTOR, f"[id='items-{path}-label']").text


def cell_hidden(b, name):
    cell = b.driver.find_element(
        By.XPATH, f"//*[@name='{name}']/ancestor::div[contains(concat(' ', @class, ' '), ' fw-cell ')][1]")
    return cell.get_attribute("hidden") is not None


def press(b, selector):
    """Clicks a button; without JavaScript it sends the form, and the next page is waited for."""
    old = b.driver.find_element(By.TAG_NAME, "html")
    b.driver.find_element(By.CSS_SELECTOR, selector).click()
    if not b.js:
        WebDriverWait(b.driver, 20).until(gone(old))
    b.settle()


def same_page(b):
    return b.driver.execute_script("return window.fwMarker === 1")


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_items_of_an_xform(admin, form_id, size):
    b = admin
    b.viewport(*size)
    b.open(f"/forms/{form_id}/new")
    assert heading(b, "members") == "Household members (1)"
    assert heading(b, "visit") == "Visits made (0)"
    # The count the rules give takes no Add.
    assert not b.driver.find_elements(By.CSS_SELECTOR, "button[name=_add][value=visit]")
    if b.js:
        b.driver.execute_script("window.fwMarker = 1")
    type_into(b, "village", "Kibera")
    type_into(b, "members[0].mname", "Ada")
    type_into(b, "members[0].age", "34")

    press(b, "button[name=_add][value=members]")
    if b.js:
        WebDriverWait(b.driver, WAIT).until(lambda d: d.find_elements(By.NAME, "members[1].mname"))
        assert same_page(b), "Add loaded a page"
        assert b.driver.switch_to.active_element.get_attribute("name") == "members[1].mname"
    assert heading(b, "members") == "Household members (2)"
    assert value(b, "members[0].mname") == "Ada"
    type_into(b, "members[1].mname", "Bo")
    type_into(b, "members[1].age", "3")
    type_into(b, "visits", "2")
    if b.js:
        # The rules, asked as the answers change: two visits, Bo's pregnancy question hidden.
        WebDriverWait(b.driver, WAIT).until(lambda d: heading(b, "visit") == "Visits made (2)")
        WebDriverWait(b.driver, WAIT).until(lambda d: cell_hidden(b, "members[1].pregnant"))
        assert not cell_hidden(b, "members[0].pregnant")
        # A third member, added and taken out again without a page load.
        press(b, "button[name=_add][value=members]")
        WebDriverWait(b.driver, WAIT).until(lambda d: d.find_elements(By.NAME, "members[2].mname"))
        assert b.driver.find_element(By.CSS_SELECTOR, "[id='item-members[2]'] legend").text == "Member 3"
        press(b, "[id='item-members[2]'] button[name=_remove]")
        assert heading(b, "members") == "Household members (2)"
        assert b.driver.switch_to.active_element.get_attribute("id") == "items-members-label"
        assert same_page(b)
    else:
        press(b, "button[name=_update]")
        assert heading(b, "visit") == "Visits made (2)"
        assert cell_hidden(b, "members[1].pregnant") and not cell_hidden(b, "members[0].pregnant")
        assert value(b, "members[1].mname") == "Bo"
    b.screenshot(f"xform-items-{'js' if b.js else 'nojs'}-{size[0]}")

    # Refused: the visits are not filled in; the summary names the item.
    type_into(b, "visit[0].on", "Clinic")
    old = b.driver.find_element(By.TAG_NAME, "html")
    b.driver.find_element(By.CSS_SELECTOR, ".fw-navbar button[type=submit]").click()
    WebDriverWait(b.driver, 20).until(gone(old))
    b.settle()
    summary = b.driver.find_element(By.CSS_SELECTOR, ".fw-error-summary")
    assert "Visits made 2: " in summary.text, summary.text
    assert value(b, "members[1].mname") == "Bo" and value(b, "visit[0].on") == "Clinic"
    if b.js:
        violations = failing_violations(b.axe())
        assert not violations, describe_violations(violations)
    type_into(b, "visit[1].on", "School")
    old = b.driver.find_element(By.TAG_NAME, "html")
    b.driver.find_element(By.CSS_SELECTOR, ".fw-navbar button[type=submit]").click()
    WebDriverWait(b.driver, 20).until(gone(old))
    b.settle()
    assert "/new" not in b.driver.current_url
    tables = b.driver.find_elements(By.CSS_SELECTOR, ".fw-item-table")
    assert any("Ada" in t.text and "Bo" in t.text for t in tables), [t.text for t in tables]
    b.screenshot(f"xform-items-detail-{'js' if b.js else 'nojs'}-{size[0]}")
