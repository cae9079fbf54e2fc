"""A keyboard-only run through the demo form with JavaScript on: Tab to the fields, type, open
the project's drill-down with Enter, move with the arrow keys, choose with Space; choose two
assignees in their drill-down and leave it with Escape; open an attachment's previewer from its
tile, move with the arrow keys, close it with Escape; and create with Enter on Create; at both
widths. (Files are handed to the input as the system's file chooser would: that chooser is the
operating system's, not the page's.)"""
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from test_attachments import files  # noqa: F401 - the fixture: a PNG and a PDF on disk

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


def tab_until(b, selector, backwards=False, limit=60):
    for _ in range(limit):
        if b.js_eval("return document.activeElement.matches(arguments[0])", selector):
            return
        press(b, Keys.SHIFT + Keys.TAB if backwards else Keys.TAB)
    raise AssertionError(f"Tab never reached {selector}")


def wait(b, script, timeout=15):
    WebDriverWait(b.driver, timeout).until(lambda _: b.js_eval(script))


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["compact", "regular"])
def test_keyboard_only_creates_an_object(size, browser, files):  # noqa: F811
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

    # Several assignees: Space ticks, the list stays open, Escape goes back to the cell.
    tab_to(b, "field-assignees")
    press(b, Keys.ENTER)
    b.settle()
    assert b.driver.find_elements("css selector", "dialog.fw-drilldown[open]")
    press(b, Keys.SPACE, Keys.ARROW_DOWN, Keys.SPACE)
    assert b.driver.find_elements("css selector", "dialog.fw-drilldown[open]"), "several values: the list stays"
    press(b, Keys.ESCAPE)
    wait(b, "return !document.querySelector('dialog.fw-drilldown')")
    assert active(b) == "field-assignees"
    chosen = b.js_eval("return Array.from(document.querySelectorAll('input[name=assignees]:checked'), i => i.value)")
    assert len(chosen) == 2, chosen

    # Two files as tiles; Enter on the first opens the previewer, the arrow keys move, Escape
    # closes it and focus goes back to the tile.
    field = b.driver.find_element("css selector", "input[type=file][name=attachments]")
    field.send_keys(files["photo.png"])
    wait(b, "return document.querySelectorAll('.fw-attachment').length === 1")
    field.send_keys(files["report.pdf"])
    wait(b, "return document.querySelectorAll('.fw-attachment').length === 2")
    tab_to(b, "field-title", backwards=True, limit=80)
    tab_until(b, ".fw-attachment__open")
    press(b, Keys.ENTER)
    wait(b, "return !!document.querySelector('dialog.fw-preview[open]')")
    assert "1 of 2" in b.driver.find_element("css selector", "dialog.fw-preview").text
    press(b, Keys.ARROW_RIGHT)
    wait(b, "return document.querySelector('dialog.fw-preview').textContent.includes('2 of 2')")
    press(b, Keys.ESCAPE)
    wait(b, "return !document.querySelector('dialog.fw-preview')")
    assert b.js_eval("return document.activeElement.matches('.fw-attachment__open')")

    tab_until(b, ".fw-navbar button[type=submit]", backwards=True, limit=80)
    old = b.driver.find_element("tag name", "html")
    press(b, Keys.ENTER)
    WebDriverWait(b.driver, 20).until(lambda d: "/forms/new-issue/" in d.current_url and not d.current_url.endswith("/new"))
    body = b.driver.find_element("tag name", "body").text
    assert marker in body and "Customer Portal" in body, body
    assert "photo.png" in body and "report.pdf" in body, body
    del old
