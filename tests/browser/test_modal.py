"""The create view in a modal over its parent page: "+" opens it (sliding up full screen at
compact width, a centred sheet at regular width, a popover by "+" for regular="popover"), focus
goes to the first key field, Cancel, Escape and a click outside close it (asking first when
something was typed), a refusal re-renders inside it and a create goes to the new object's page;
without JavaScript "+" is a link."""
import uuid
from urllib.parse import urlparse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import Browser, wait_gone
from test_admin import PASSWORD, click_and_load, paste_and_import

PARENT = "/forms/new-issue"
WIDTHS = [(390, 844), (1280, 800)]
IDS = ["compact", "regular"]


def open_modal(b, width, height):
    b.viewport(width, height).open(PARENT)
    b.driver.find_element(By.CSS_SELECTOR, ".fw-page-header__add").click()
    WebDriverWait(b.driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "dialog.fw-modal .fw-sheet[data-enhanced] form"))
    b.settle()
    return b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-modal")


@pytest.mark.parametrize("size", WIDTHS, ids=IDS)
def test_plus_opens_the_create_view_in_a_modal(size, browser):
    modal = open_modal(browser, *size)
    b = browser
    assert b.driver.current_url.endswith(PARENT), "the parent page stays"
    assert b.js_eval("return document.activeElement.id") == "field-title"
    sheet = b.rect("dialog.fw-modal .fw-sheet")
    if size[0] == 390:
        assert abs(sheet["x"]) < 1 and abs(sheet["width"] - 390) < 1, sheet
    else:
        assert 540 <= sheet["width"] <= 600 and abs(sheet["x"] + sheet["width"] / 2 - 640) < 2, sheet
    assert modal.find_element(By.CSS_SELECTOR, ".fw-navbar__title").text == "New Issue"
    # It slides up at compact width and fades in as a sheet at regular width.
    animation = b.js_eval("return getComputedStyle(document.querySelector('dialog.fw-modal .fw-sheet')).animationName")
    assert animation == ("fw-slide-up" if size[0] == 390 else "fw-sheet-in"), animation
    b.screenshot(f"modal-{size[0]}")
    # Untouched, Cancel closes at once and focus goes back to "+".
    modal.find_element(By.CSS_SELECTOR, ".fw-navbar__cancel").click()
    assert wait_gone(b, "dialog.fw-modal")
    assert b.js_eval("return document.activeElement.classList.contains('fw-page-header__add')")


@pytest.mark.parametrize("size", WIDTHS, ids=IDS)
def test_escape_with_typed_input_asks_first(size, browser):
    modal = open_modal(browser, *size)
    b = browser
    modal.find_element(By.ID, "field-title").send_keys("Half a thought")
    b.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    question = b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-discard[open]")
    assert "Discard this new issue?" in question.text
    question.find_element(By.XPATH, ".//button[normalize-space()='Keep editing']").click()
    assert wait_gone(b, "dialog.fw-discard")
    assert b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-modal #field-title").get_attribute("value") == "Half a thought"
    b.driver.find_element(By.ID, "field-title").send_keys(Keys.ESCAPE)
    b.driver.find_element(By.XPATH, "//dialog[contains(@class,'fw-discard') and @open]//button[normalize-space()='Discard']").click()
    assert wait_gone(b, "dialog.fw-modal")


@pytest.mark.parametrize("size", WIDTHS, ids=IDS)
def test_browser_back_closes_the_sheet_asking_first_when_input_changed(size, browser):
    b = browser
    # Untouched: Back closes the sheet and stays on the parent page.
    open_modal(b, *size)
    b.driver.back()
    assert wait_gone(b, "dialog.fw-modal")
    assert b.driver.current_url.endswith(PARENT)
    assert b.driver.find_elements(By.CSS_SELECTOR, ".fw-page-header__add"), "still the parent page"
    # Typed into: Back asks; Keep editing keeps the sheet and what was typed.
    modal = open_modal(b, *size)
    modal.find_element(By.ID, "field-title").send_keys("Half a thought")
    # A list screen over the sheet goes back to the sheet first.
    modal.find_element(By.ID, "field-project").click()
    b.settle()
    b.driver.back()
    assert wait_gone(b, "dialog.fw-drilldown")
    assert b.driver.find_elements(By.CSS_SELECTOR, "dialog.fw-modal[open]")
    b.driver.back()
    question = WebDriverWait(b.driver, 15).until(lambda d: d.find_element(By.CSS_SELECTOR, "dialog.fw-discard[open]"))
    question.find_element(By.XPATH, ".//button[normalize-space()='Keep editing']").click()
    assert wait_gone(b, "dialog.fw-discard")
    assert b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-modal #field-title").get_attribute("value") == "Half a thought"
    b.driver.back()
    question = WebDriverWait(b.driver, 15).until(lambda d: d.find_element(By.CSS_SELECTOR, "dialog.fw-discard[open]"))
    question.find_element(By.XPATH, ".//button[normalize-space()='Discard']").click()
    assert wait_gone(b, "dialog.fw-modal")
    assert b.driver.current_url.endswith(PARENT)
    # Cancel takes the sheet's history entry with it: Back then leaves the parent page (for the
    # form list, visited before it).
    b.open("/")
    open_modal(b, *size).find_element(By.CSS_SELECTOR, ".fw-navbar__cancel").click()
    assert wait_gone(b, "dialog.fw-modal")
    WebDriverWait(b.driver, 15).until(lambda d: b.js_eval("return history.state") is None)
    b.driver.back()
    WebDriverWait(b.driver, 15).until(lambda d: urlparse(d.current_url).path == "/")


def test_a_click_outside_the_sheet_closes_it_at_regular_width(browser):
    open_modal(browser, 1280, 800)
    browser.driver.execute_script(
        "document.querySelector('dialog.fw-modal').dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    assert wait_gone(browser, "dialog.fw-modal")


@pytest.mark.parametrize("size", WIDTHS, ids=IDS)
def test_a_refusal_stays_in_the_modal_and_a_create_leaves_it(size, browser):
    modal = open_modal(browser, *size)
    b = browser
    marker = f"Modal {size[0]}"
    modal.find_element(By.ID, "field-title").send_keys(marker)
    modal.find_element(By.CSS_SELECTOR, ".fw-navbar button[type=submit]").click()
    WebDriverWait(b.driver, 20).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "dialog.fw-modal .fw-sheet[data-enhanced] .fw-error-summary"))
    assert b.driver.current_url.endswith(PARENT)
    assert b.js_eval("return document.activeElement.classList.contains('fw-error-summary')")
    assert b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-modal #field-title").get_attribute("value") == marker
    b.screenshot(f"modal-refused-{size[0]}")
    b.settle()
    assert not b.js_eval("return document.getAnimations().some(a => a.playState === 'running')"), \
        "a refusal does not slide the sheet in again"
    b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-modal #field-project").click()
    b.settle()
    b.driver.find_element(By.XPATH, "//dialog[contains(@class,'fw-drilldown')]//label[normalize-space()='Customer Portal']").click()
    old = b.driver.find_element(By.TAG_NAME, "html")
    b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-modal .fw-navbar button[type=submit]").click()
    WebDriverWait(b.driver, 20).until(lambda d: "/forms/new-issue/" in d.current_url and not d.current_url.endswith("/new"))
    assert marker in b.driver.find_element(By.TAG_NAME, "body").text
    del old


def test_without_javascript_plus_is_a_link(browser_nojs):
    b = browser_nojs.viewport(1280, 800).open(PARENT)
    b.driver.find_element(By.CSS_SELECTOR, ".fw-page-header__add").click()
    assert b.driver.current_url.endswith("/forms/new-issue/new")


POPOVER_SPEC = """<?xml version="1.0" encoding="UTF-8"?>
<form xmlns="urn:fieldwork:form:1" id="{id}" title="New Note" object="Note" regular="popover">
  <key>
    <text name="title" placeholder="Title" required="true"/>
  </key>
  <properties>
    <text name="place" label="Place"/>
  </properties>
</form>
"""


@pytest.fixture(scope="module")
def popover_form():
    """A form that asks for a popover at regular width, imported by an admin, and the admin's
    browser (an imported form is for signed-in users)."""
    form_id = "note-" + uuid.uuid4().hex[:8]
    admin = Browser(js=True).viewport(1280, 800)
    try:
        admin.open("/login?next=/admin")
        admin.driver.find_element(By.ID, "field-name").send_keys("admin")
        admin.driver.find_element(By.ID, "field-password").send_keys(PASSWORD)
        click_and_load(admin, By.CSS_SELECTOR, ".fw-login__submit")
        paste_and_import(admin, POPOVER_SPEC.format(id=form_id))
        assert "/admin/imports/" in admin.driver.current_url, admin.driver.current_url
        yield form_id, admin
    finally:
        admin.quit()


@pytest.mark.parametrize("size", WIDTHS, ids=IDS)
def test_a_popover_form_opens_by_plus_at_regular_width(size, popover_form):
    form_id, b = popover_form
    b.viewport(*size).open(f"/forms/{form_id}")
    b.driver.find_element(By.CSS_SELECTOR, ".fw-page-header__add").click()
    WebDriverWait(b.driver, 20).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "dialog.fw-modal .fw-sheet[data-enhanced] form"))
    b.settle()
    sheet = b.rect("dialog.fw-modal .fw-sheet")
    plus = b.rect(".fw-page-header__add")
    if size[0] == 390:
        # Compact width has no popover: the full-screen view.
        assert abs(sheet["x"]) < 1 and abs(sheet["width"] - 390) < 1, sheet
    else:
        # By "+": under the header, at the right edge, narrower than a form sheet; the page
        # behind stays undimmed.
        assert sheet["width"] <= 420 and abs(sheet["x"] + sheet["width"] - (1280 - 16)) < 2, sheet
        assert sheet["y"] >= plus["y"] + plus["height"] - 1 and sheet["y"] < 120, (sheet, plus)
        backdrop = b.js_eval("return getComputedStyle(document.querySelector('dialog.fw-modal'), '::backdrop').backgroundColor")
        assert backdrop.replace(" ", "") in ("rgba(0,0,0,0)", "transparent"), backdrop
    assert b.js_eval("return document.activeElement.id") == "field-title"
    b.screenshot(f"modal-popover-{size[0]}")
    b.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    assert wait_gone(b, "dialog.fw-modal")
