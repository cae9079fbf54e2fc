"""An object with its items (tests/browser/fixtures/household.xml, "New Household": members, each
with their vaccinations) in headless Chromium at both widths, JavaScript on and off: without
JavaScript Add and Remove are submit buttons that bring the form back with everything typed kept
and one item more or less, with it they add and remove in place (items.js); the focus at the new
item's first field; a refusal names the item in the error summary
and stands under the item's cell; a create stores the items and the detail page shows them as
a table (stacked at compact width). axe-core finds nothing serious on the create view with
items and errors, nor on the detail page.

The form is imported through POST /api/forms in an admin's session (its access is "users"), as
test_xforms.py does; the "JavaScript off" pages are those of a browser with JavaScript off, and
axe runs in one whose page scripts are blocked."""
import os

import pytest
from selenium.webdriver.common.by import By

from conftest import describe_violations, failing_violations, form_browsers, press, type_into, value

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "household.xml")
SIZES = [(390, 844), (1280, 800)]
SIZE_IDS = ["compact", "regular"]


# Two sign-ins in all, one browser each way, kept for the module: sign-ins from one address are
# throttled past a few dozen an hour, and the whole browser suite signs in from 127.0.0.1.
admin_js, admin_nojs, form_id, admin = form_browsers(FIXTURE)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_add_remove_refuse_create(admin, form_id, size):
    b = admin
    b.viewport(*size)
    b.open(f"/forms/{form_id}/new")
    heading = b.driver.find_element(By.CSS_SELECTOR, "#items-members-label")
    assert heading.text == "Household members (1)"
    type_into(b, "family", "Smith")
    type_into(b, "members[0].name", "Ada")

    press(b, "button[name=_add][value=members]")
    assert b.driver.find_element(By.CSS_SELECTOR, "#items-members-label").text == "Household members (2)"
    assert value(b, "family") == "Smith"
    assert value(b, "members[0].name") == "Ada"
    if b.js:
        assert b.driver.switch_to.active_element.get_attribute("name") == "members[1].name"
    else:
        assert b.driver.current_url.endswith("#field-members[1].name")
    b.screenshot(f"items-added-{size[0]}")

    type_into(b, "members[1].name", "Ben")
    press(b, "button[name=_add][value='members[1].doses']")
    assert b.driver.find_element(By.CSS_SELECTOR, "[id='items-members[1].doses-label']").text == "Vaccinations (1)"

    # Refused: Ben's vaccination has no date. The summary names the item.
    press(b, ".fw-navbar button[type=submit]")
    summary = b.driver.find_element(By.CSS_SELECTOR, ".fw-error-summary")
    assert "Member 2, Dose 1: " in summary.text, summary.text
    link = summary.find_element(By.CSS_SELECTOR, "a")
    assert link.get_attribute("href").endswith("#field-members[1].doses[0].given")
    assert value(b, "members[1].name") == "Ben"
    b.screenshot(f"items-refused-{size[0]}")
    violations = failing_violations(b.axe()) if b.js else []
    assert not violations, describe_violations(violations)

    press(b, "button[name=_remove][value='members[1].doses[0]']")
    assert b.driver.find_element(By.CSS_SELECTOR, "[id='items-members[1].doses-label']").text == "Vaccinations (0)"
    press(b, ".fw-navbar button[type=submit]")
    assert "/forms/" in b.driver.current_url and "/new" not in b.driver.current_url
    table = b.driver.find_element(By.CSS_SELECTOR, ".fw-item-table")
    assert "Ada" in table.text and "Ben" in table.text
    b.screenshot(f"items-detail-{size[0]}")
    if b.js:
        violations = failing_violations(b.axe())
        assert not violations, describe_violations(violations)
