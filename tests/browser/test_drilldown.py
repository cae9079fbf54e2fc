"""Value list drill-down in headless Chromium at both widths: the cell reads the selection, the
list screen is pushed over the sheet (full screen at compact width), a single choice returns at
once, several stay with a "Selected" group on top, search narrows the list, Back returns; and
without JavaScript the native controls remain."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import wait_gone

FORM = "/forms/new-issue/new"
WIDTHS = [(390, 844), (1280, 800)]
IDS = ["compact", "regular"]


def fresh(b, width, height, path=FORM):
    return b.viewport(width, height).open(path)


def cell(b, name):
    return b.driver.find_element(By.ID, f"field-{name}")


@pytest.mark.parametrize("size", WIDTHS, ids=IDS)
def test_single_value_list_drills_down_and_returns_with_the_choice(size, browser):
    b = fresh(browser, *size)
    project = cell(b, "project")
    assert project.tag_name == "button"
    assert project.get_attribute("aria-label") == "Project: none chosen"
    # Nothing chosen: the cell shows the select's "Select" as a placeholder.
    placeholder = b.js_eval(
        "return getComputedStyle(document.querySelector('#field-project .fw-drill__value'), '::before').content")
    assert placeholder == '"Select"', placeholder
    assert not b.driver.find_element(By.NAME, "project").is_displayed(), "the native select is hidden"
    project.click()
    b.settle()
    screen = b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-drilldown")
    assert screen.find_element(By.CSS_SELECTOR, "h2").text == "Project"
    assert screen.find_element(By.CSS_SELECTOR, ".fw-drilldown__back").text.strip() == "Back"
    assert not screen.find_elements(By.XPATH, ".//button[normalize-space()='Apply']")
    rect = screen.rect
    if size[0] == 390:
        assert rect["x"] == 0 and rect["width"] == 390 and rect["height"] >= 843, rect
    else:
        sheet = b.rect(".fw-sheet")
        assert abs(rect["x"] - sheet["x"]) < 1 and abs(rect["width"] - sheet["width"]) < 1, (rect, sheet)
    legends = [e.text for e in screen.find_elements(By.CSS_SELECTOR, "legend")]
    assert legends[:2] == ["Mobile", "Web"], legends
    # Expandable search narrows the list.
    toggle = screen.find_element(By.CSS_SELECTOR, ".fw-drilldown__search-toggle")
    assert toggle.get_attribute("aria-expanded") == "false"
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    screen.find_element(By.CSS_SELECTOR, "input[type=search]").send_keys("portal")
    shown = [e.text for e in screen.find_elements(By.CSS_SELECTOR, ".fw-drilldown__row") if e.is_displayed()]
    assert shown == ["Customer Portal"], shown
    b.screenshot(f"drilldown-single-{size[0]}")
    screen.find_element(By.XPATH, ".//label[normalize-space()='Customer Portal']").click()
    assert wait_gone(b, "dialog.fw-drilldown"), "one value: back at once"
    project = cell(b, "project")
    assert project.text == "Customer Portal"
    assert project.get_attribute("aria-label") == "Project: Customer Portal"
    assert b.js_eval("return document.querySelector('select[name=project]').value") == "portal"
    assert b.js_eval("return document.activeElement.id") == "field-project"


@pytest.mark.parametrize("size", WIDTHS, ids=IDS)
def test_several_values_read_a_and_b_and_n_more_with_the_whole_selection_in_the_name(size, browser):
    b = fresh(browser, *size)
    assignees = cell(b, "assignees")
    assignees.click()
    b.settle()
    screen = b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-drilldown")
    labels = screen.find_elements(By.CSS_SELECTOR, ".fw-drilldown__label")
    chosen = [label.text for label in labels[:6]]
    for label in labels[:6]:
        label.click()
    assert b.driver.find_elements(By.CSS_SELECTOR, "dialog.fw-drilldown"), "several values: the screen stays"
    screen.find_element(By.CSS_SELECTOR, ".fw-drilldown__back").click()
    assignees = cell(b, "assignees")
    assert assignees.get_attribute("aria-label") == "Assignees: " + ", ".join(chosen)
    text = assignees.text
    assert text.startswith(chosen[0]) and " more" in text, text
    value = b.driver.find_element(By.CSS_SELECTOR, "#field-assignees .fw-drill__value")
    assert b.js_eval("const e = arguments[0]; return e.scrollWidth <= e.clientWidth + 1", value)
    b.screenshot(f"drilldown-multiple-{size[0]}")
    # Opened again, the chosen ones stand under "Selected" on top.
    assignees.click()
    b.settle()
    screen = b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-drilldown")
    first = screen.find_element(By.CSS_SELECTOR, "fieldset")
    assert first.find_element(By.CSS_SELECTOR, "legend").text == "Selected"
    assert [e.text for e in first.find_elements(By.CSS_SELECTOR, "label")] == chosen
    # Escape goes back too.
    b.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    assert wait_gone(b, "dialog.fw-drilldown")
    checked = b.js_eval("return Array.from(document.querySelectorAll('input[name=assignees]:checked')).length")
    assert checked == 6


def test_one_long_value_is_cut_with_an_ellipsis_never_one_more(browser):
    b = fresh(browser, 390, 844)
    cell(b, "project").click()
    b.settle()
    b.driver.find_element(By.XPATH, "//dialog//label[normalize-space()='Analytics Dashboard']").click()
    text = cell(b, "project").text
    assert "more" not in text and text.startswith("Analytics"), text


@pytest.mark.parametrize("size", WIDTHS, ids=IDS)
def test_without_javascript_the_native_controls_stay(size, browser_nojs):
    b = browser_nojs.viewport(*size).open(FORM)
    assert b.driver.find_element(By.ID, "field-project").tag_name == "select"
    assert not b.driver.find_elements(By.CSS_SELECTOR, ".fw-drill")
    assert len(b.driver.find_elements(By.CSS_SELECTOR, "input[type=checkbox][name=assignees]")) == 10


def test_enter_chooses_the_focused_option(browser):
    b = fresh(browser, 390, 844)
    cell(b, "project").click()
    b.settle()
    screen = b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-drilldown")
    first = screen.find_element(By.CSS_SELECTOR, ".fw-drilldown__input")
    first.send_keys(Keys.ARROW_DOWN)
    focused = b.js_eval("return document.activeElement.id")
    value = b.js_eval("return document.querySelector('label[for=\"' + arguments[0] + '\"]').textContent", focused)
    b.driver.switch_to.active_element.send_keys(Keys.ENTER)
    assert wait_gone(b, "dialog.fw-drilldown"), "Enter chooses, as Space does; one value: back at once"
    assert cell(b, "project").text == value
