"""The create pattern's small behaviours in headless Chromium at both widths: Clear buttons,
grouped formatting with the caret kept, chips and segmented buttons from the keyboard, the
chosen state without colour alone, target sizes, and the unsaved-changes question; and the same
pages without JavaScript."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import wait_gone, wait_url

FORM = "/forms/new-issue/new"
WIDTHS = [(390, 844), (1280, 800)]
IDS = ["compact", "regular"]


def fresh(b, width, height, path=FORM):
    return b.viewport(width, height).open(path)


@pytest.mark.parametrize("size", WIDTHS, ids=IDS)
def test_clear_button_empties_the_field_and_keeps_focus(size, browser):
    b = fresh(browser, *size)
    title = b.driver.find_element(By.ID, "field-title")
    clear = b.driver.find_element(By.CSS_SELECTOR, "button[aria-label='Clear Title']")
    assert not clear.is_displayed(), "an empty field shows no Clear button"
    assert clear.get_attribute("tabindex") == "-1", "no tab stop between fields"
    title.send_keys("Printer jams")
    assert clear.is_displayed()
    rect = clear.rect
    assert rect["width"] >= 24 and rect["height"] >= 24, rect
    b.screenshot(f"clear-{size[0]}")
    clear.click()
    assert title.get_attribute("value") == ""
    assert b.js_eval("return document.activeElement.id") == "field-title"
    assert not clear.is_displayed()
    # Read-only fields get none.
    assert not b.driver.find_elements(By.CSS_SELECTOR, "#field-task ~ .fw-clear")


@pytest.mark.parametrize("size", WIDTHS, ids=IDS)
def test_grouped_format_keeps_the_caret_when_editing_in_the_middle(size, browser):
    b = fresh(browser, *size)
    phone = b.driver.find_element(By.ID, "field-phone")
    phone.send_keys("5551234567")
    assert phone.get_attribute("value") == "(555) 123-4567"
    # Put the caret after "(555) 1" and type a digit: it lands there, and the caret follows it.
    b.js_eval("const e = document.getElementById('field-phone'); e.focus(); e.setSelectionRange(7, 7)")
    phone.send_keys("9")
    assert phone.get_attribute("value") == "(555) 192-3456"
    assert b.js_eval("return document.getElementById('field-phone').selectionStart") == 8


@pytest.mark.parametrize("size", WIDTHS, ids=IDS)
def test_arrow_keys_move_between_choices_and_space_chooses(size, browser):
    b = fresh(browser, *size)
    # Segmented buttons (radios): the arrow moves focus without choosing.
    b.js_eval("document.querySelector('[name=priority][value=low]').focus()")
    active = b.driver.switch_to.active_element
    active.send_keys(Keys.ARROW_RIGHT)
    assert b.js_eval("return document.activeElement.value") == "medium"
    active = b.driver.switch_to.active_element
    active.send_keys(Keys.ARROW_RIGHT)
    assert b.js_eval("return document.activeElement.value") == "high"
    assert b.js_eval("return document.querySelector('[name=priority]:checked').value") == "medium"
    b.driver.switch_to.active_element.send_keys(Keys.SPACE)
    assert b.js_eval("return document.querySelector('[name=priority]:checked').value") == "high"
    # Chips (checkboxes): arrows move too, Space toggles.
    b.js_eval("document.querySelector('[name=categories]').focus()")
    b.driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    assert b.js_eval("return document.activeElement.value") == "feature"
    b.driver.switch_to.active_element.send_keys(Keys.SPACE)
    assert b.js_eval("return document.activeElement.checked") is True
    # The chosen state carries a check mark, not colour alone.
    mark = b.js_eval(
        "return getComputedStyle(document.querySelector('[name=categories]:checked + label'), '::before').content")
    assert "✓" in mark
    mark = b.js_eval(
        "return getComputedStyle(document.querySelector('[name=priority]:checked + label'), '::before').content")
    assert "✓" in mark
    b.screenshot(f"choices-{size[0]}")


@pytest.mark.parametrize("size", WIDTHS, ids=IDS)
def test_targets_are_at_least_24_px(size, browser):
    b = fresh(browser, *size)
    small = b.js_eval("""
        return Array.from(document.querySelectorAll('.fw-sheet a, .fw-sheet button, .fw-sheet label.fw-chip,'
            + ' .fw-sheet label.fw-segmented__label'))
          .filter(e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden')
          .map(e => [e.textContent.trim() || e.getAttribute('aria-label'), e.getBoundingClientRect()])
          .filter(([, r]) => r.width < 24 || r.height < 24)
          .map(([name, r]) => name + ' ' + r.width + 'x' + r.height);""")
    assert small == []


@pytest.mark.parametrize("size", WIDTHS, ids=IDS)
def test_cancel_asks_before_discarding_typed_input(size, browser):
    b = fresh(browser, *size)
    # Untouched, Cancel leaves at once.
    b.driver.find_element(By.CSS_SELECTOR, ".fw-navbar__cancel").click()
    assert b.driver.current_url.endswith("/forms/new-issue")
    b = fresh(browser, *size)
    b.driver.find_element(By.ID, "field-title").send_keys("Half-typed")
    b.driver.find_element(By.CSS_SELECTOR, ".fw-navbar__cancel").click()
    dialog = b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-discard[open]")
    assert dialog.is_displayed()
    assert "Discard this new issue?" in dialog.text
    assert b.js_eval("return document.activeElement.textContent") == "Keep editing"
    b.screenshot(f"discard-{size[0]}")
    dialog.find_element(By.XPATH, ".//button[normalize-space()='Keep editing']").click()
    assert wait_gone(b, "dialog.fw-discard")
    assert b.driver.current_url.endswith(FORM)
    assert b.driver.find_element(By.ID, "field-title").get_attribute("value") == "Half-typed"
    # Escape keeps editing too.
    b.driver.find_element(By.CSS_SELECTOR, ".fw-navbar__cancel").click()
    b.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    assert wait_gone(b, "dialog.fw-discard")
    # Discard leaves without a second question from the browser.
    b.driver.find_element(By.CSS_SELECTOR, ".fw-navbar__cancel").click()
    b.driver.find_element(By.XPATH, "//dialog[@open]//button[normalize-space()='Discard']").click()
    assert wait_url(b, "/forms/new-issue")


def test_restored_values_count_as_untouched(browser):
    b = fresh(browser, 1280, 800)
    title = b.driver.find_element(By.ID, "field-title")
    title.send_keys("x")
    title.send_keys(Keys.BACKSPACE)
    b.driver.find_element(By.CSS_SELECTOR, ".fw-navbar__cancel").click()
    assert b.driver.current_url.endswith("/forms/new-issue"), "nothing changed, so nothing to ask"


def test_the_text_view_keeps_its_rows_and_scrolls_unless_it_ends_the_form(browser):
    b = fresh(browser, 1280, 800)
    notes = b.driver.find_element(By.NAME, "notes")
    before = notes.rect["height"]
    notes.send_keys("line\n" * 20)
    assert abs(notes.rect["height"] - before) < 1, "a text view that does not end the form keeps its height"
    assert b.js_eval("const n = document.querySelector('[name=notes]'); return n.scrollHeight > n.clientHeight")


@pytest.mark.parametrize("size", WIDTHS, ids=IDS)
def test_without_javascript_the_page_is_plain(size, browser_nojs):
    b = browser_nojs.viewport(*size).open(FORM)
    assert not b.driver.find_elements(By.CSS_SELECTOR, ".fw-clear")
    b.driver.find_element(By.ID, "field-title").send_keys("Typed")
    b.driver.find_element(By.CSS_SELECTOR, ".fw-navbar__cancel").click()
    assert b.driver.current_url.endswith("/forms/new-issue")


@pytest.mark.parametrize("size", WIDTHS, ids=IDS)
def test_slider_shows_its_value_and_keeps_range_and_number_in_step(size, browser, browser_nojs):
    b = fresh(browser, *size)
    number = b.driver.find_element(By.ID, "field-progress")
    slider = b.driver.find_element(By.ID, "field-progress-range")
    assert slider.is_displayed() and number.is_displayed()
    assert slider.get_attribute("data-unset") is None, "the default 0 is a value"
    number.clear()
    assert slider.get_attribute("data-unset") is not None, "an empty field's thumb is dimmed"
    # A click on the thumb where it rests fires no input event: the click alone chooses its value.
    b.driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", slider)
    assert number.get_attribute("value") == slider.get_attribute("value") != ""
    assert slider.get_attribute("data-unset") is None
    number.clear()
    number.send_keys("35")
    assert slider.get_attribute("value") == "35"
    assert slider.get_attribute("data-unset") is None
    slider.send_keys(Keys.ARROW_RIGHT)
    assert number.get_attribute("value") == "40", "the range moves the named number field"
    # Without JavaScript the named number field shows and takes the value on its own.
    n = fresh(browser_nojs, *size)
    assert n.driver.find_element(By.ID, "field-progress").is_displayed()
    assert not n.driver.find_element(By.ID, "field-progress-range").is_displayed()
