"""A keyboard-only run through the demo form with JavaScript on: Tab to the fields, type, open
the project's drill-down with Enter, move with the arrow keys, choose with Space, and create
with Enter on Create; at both widths."""
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

FORM = "/forms/new-issue/new"


def press(b, *keys):
    chain = ActionChains(b.driver)
    for key in keys:
        chain.send_keys(key)
    chain.perform()


def active(b, script="return document.activeElement.id"):
    return b.js_eval(script)


def tab_to(b, element_id, backwards=False, limit=40):
    for _ in range(limit):
        if active(b) == element_id:
            return
        press(b, Keys.SHIFT + Keys.TAB if backwards else Keys.TAB)
    raise AssertionError(f"Tab never reached #{element_id}")


def tab_to_submit(b, limit=40):
    for _ in range(limit):
        if b.js_eval("return document.activeElement.matches('.fw-navbar button[type=submit]')"):
            return
        press(b, Keys.SHIFT + Keys.TAB)
    raise AssertionError("Shift+Tab never reached Create")


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["compact", "regular"])
def test_keyboard_only_creates_an_object(size, browser):
    b = browser.viewport(*size).open(FORM)
    marker = f"Keyboard only {size[0]}"
    tab_to(b, "field-title")
    press(b, marker)
    tab_to(b, "field-project")
    press(b, Keys.ENTER)
    b.settle()
    assert b.driver.find_elements("css selector", "dialog.fw-drilldown[open]")
    # Down from iOS App: Android App, Watch Companion, Tablet Edition, Customer Portal.
    press(b, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_DOWN)
    assert active(b, "return document.activeElement.labels[0].textContent") == "Customer Portal"
    press(b, Keys.SPACE)
    b.settle()
    assert active(b) == "field-project"
    assert b.js_eval("return document.querySelector('select[name=project]').value") == "portal"
    tab_to_submit(b)
    old = b.driver.find_element("tag name", "html")
    press(b, Keys.ENTER)
    WebDriverWait(b.driver, 20).until(lambda d: "/forms/new-issue/" in d.current_url and not d.current_url.endswith("/new"))
    body = b.driver.find_element("tag name", "body").text
    assert marker in body and "Customer Portal" in body, body
    del old
