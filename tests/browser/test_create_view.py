"""The demo form's create view in headless Chromium: both layouts, JavaScript on and off."""
import pytest

FORM = "/forms/new-issue/new"
SHEET = ".fw-sheet"    # the element holding the form: full screen or the form sheet
OVERLAY = ".fw-overlay"# the dimmed layer over the parent page at regular width


def no_horizontal_scroll(b):
    return b.js_eval("return document.documentElement.scrollWidth <= window.innerWidth + 0.5")


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_compact_is_full_screen(js, browser, browser_nojs):
    b = (browser if js else browser_nojs).viewport(390, 844).open(FORM)
    sheet = b.rect(SHEET)
    assert sheet is not None, "the create view has no sheet"
    assert abs(sheet["x"]) < 1 and abs(sheet["width"] - 390) < 1, sheet
    overlay = b.rect(OVERLAY)
    assert overlay is None or overlay["display"] == "none" or overlay["visibility"] == "hidden"
    assert no_horizontal_scroll(b)
    b.js_eval("document.querySelector('#field-title').scrollIntoView({block: 'end'})")
    nav = b.rect(".fw-navbar")
    assert nav is not None and abs(nav["y"]) < 1 and 44 <= nav["height"] <= 56, nav
    # The nav bar stays at the top while the form scrolls, whatever element scrolls.
    b.js_eval("document.querySelector('[name=notes]').scrollIntoView({block: 'center'})")
    assert abs(b.rect(".fw-navbar")["y"]) < 1, "the nav bar must stick to the top at compact width"
    assert b.rect("[name=notes]")["y"] > 56
    b.screenshot(f"compact-{'js' if js else 'nojs'}")
    b.screenshot(f"compact-{'js' if js else 'nojs'}-full")


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_regular_is_a_centred_sheet_over_an_overlay(js, browser, browser_nojs):
    b = (browser if js else browser_nojs).viewport(1280, 800).open(FORM)
    sheet = b.rect(SHEET)
    assert 540 <= sheet["width"] <= 600, sheet
    assert abs((sheet["x"] + sheet["width"] / 2) - 640) < 2, "the sheet is not centred"
    assert sheet["height"] <= 0.9 * 800 + 1
    overlay = b.rect(OVERLAY)
    assert overlay is not None and overlay["display"] != "none", overlay
    assert overlay["width"] >= 1280 - 1 and overlay["height"] >= 800 - 1, overlay
    assert overlay["background"].replace(" ", "") == "rgba(0,0,0,0.4)", overlay
    # The sheet is on top: its centre hits the sheet, the page beside it hits the overlay.
    assert b.js_eval("return !!document.elementFromPoint(640, 400).closest('.fw-sheet')")
    assert b.js_eval("return !!document.elementFromPoint(100, 400).closest('.fw-overlay')")
    # Its body scrolls and its nav bar stays, also when a link (as in the error summary) jumps
    # to a field far down.
    b.js_eval("location.hash = '#field-notes'")
    nav = b.rect(".fw-navbar")
    assert abs(nav["y"] - sheet["y"]) < 1, "the nav bar must stay at the top of the sheet"
    assert b.js_eval("return document.querySelector('.fw-sheet').scrollTop") == 0
    # The parent page is behind the overlay.
    assert b.js_eval("return !!document.querySelector('.fw-parent')")
    assert no_horizontal_scroll(b)
    b.screenshot(f"regular-{'js' if js else 'nojs'}")


def test_layout_can_be_forced(browser):
    b = browser.viewport(1280, 800).open(FORM + "?layout=compact")
    assert abs(b.rect(SHEET)["width"] - 1280) < 1
    b = browser.viewport(390, 844).open(FORM + "?layout=regular")
    overlay = b.rect(OVERLAY)
    assert overlay is not None and overlay["display"] != "none"


def test_no_horizontal_scroll_at_320(browser):
    b = browser.viewport(320, 640).open(FORM)
    assert no_horizontal_scroll(b)
    b.screenshot("compact-320")


def test_nav_bar_and_sections(browser):
    b = browser.viewport(390, 844).open(FORM)
    d = b.driver
    nav = d.find_element("css selector", ".fw-navbar")
    assert "Cancel" in nav.text and "New Issue" in nav.text and "Create" in nav.text
    cancel = nav.find_element("link text", "Cancel")
    assert cancel.get_attribute("href").endswith("/forms/new-issue")
    assert d.find_element("css selector", "button[type=submit]").text.strip() == "Create"
    body = d.find_element("tag name", "body").text
    assert "* indicates a required field" in body
    # Key information first, its field with a placeholder and no visible label.
    title = d.find_element("id", "field-title")
    assert title.get_attribute("placeholder") == "Title"
    label = d.find_element("css selector", "label[for=field-title]")
    assert label.size["width"] <= 1 or label.size["height"] <= 1, "the key field's label must be visually hidden"
    names = b.js_eval("return [...document.querySelectorAll('[name]')].map(e => e.name)")
    assert names.index("title") < names.index("project") < names.index("notes")
    assert "_csrf" in names


def test_every_control_is_there(browser_nojs):
    d = browser_nojs.viewport(1280, 800).open(FORM + "?task=T-1001").driver
    q = lambda s: d.find_elements("css selector", s)  # noqa: E731
    assert q("select[name=project] optgroup"), "single value list: a select with optgroups"
    assert len(q("input[type=checkbox][name=assignees]")) == 10
    assert len(q("input[type=radio][name=priority]")) == 3
    assert q("input[type=radio][name=priority][value=medium]")[0].is_selected()
    assert len(q("input[type=checkbox][name=categories]")) == 6
    assert q("input[type=date][name=due]")[0].get_attribute("value"), "due defaults to today"
    assert q("input[type=time][name=start]")
    assert q("input[name='estimate.hours']") and q("input[name='estimate.minutes']")
    # A slider: the named number field works alone; the range beside it is script's.
    assert q("input[type=number][name=progress]") and q("[data-slider] input[type=range]:not([name])")
    assert q("input[type=tel][name=phone]")
    assert q("input[type=email][name=email]")
    assert q("textarea[name=notes]")
    files = q("input[type=file][name=attachments]")[0]
    assert files.get_attribute("multiple") is not None and "image/png" in files.get_attribute("accept")
    task = q("input[name=task]")[0]
    assert task.get_attribute("value") == "T-1001" and task.get_attribute("readonly") is not None
    assert q("input[type=checkbox][role=switch][name=remind]")


def test_switch_reveals_its_fields_without_javascript(browser_nojs):
    d = browser_nojs.viewport(390, 844).open(FORM).driver
    reminder = d.find_element("css selector", "[name=reminder]")
    assert not reminder.is_displayed()
    switch = d.find_element("css selector", "input[role=switch][name=remind]")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", switch)
    d.execute_script("arguments[0].click()", switch)
    assert reminder.is_displayed()


def test_text_is_escaped(browser):
    b = browser.viewport(390, 844).open(FORM + "?task=%3Cscript%3Ewindow.pwned%3D1%3C%2Fscript%3E")
    assert b.js_eval("return window.pwned === undefined")
    assert b.driver.find_element("name", "task").get_attribute("value") == "<script>window.pwned=1</script>"


def test_no_console_errors_with_javascript(browser):
    b = browser.viewport(1280, 800).open(FORM)
    b.driver.get_log("browser")  # clear
    b.open(FORM)
    errors = b.console_errors()
    assert errors == [], errors


def test_pages_around_the_form(browser):
    b = browser.viewport(1280, 800).open("/")
    link = b.driver.find_element("partial link text", "New Issue")
    link.click()
    assert b.driver.current_url.endswith("/forms/new-issue")
    plus = b.driver.find_element("css selector", "a[href$='/forms/new-issue/new']")
    plus.click()
    # With JavaScript "+" opens the create view in a modal over the parent (test_modal.py).
    b.driver.implicitly_wait(5)
    assert b.driver.find_element("css selector", "dialog.fw-modal form")
    b.driver.implicitly_wait(0)
    assert b.driver.current_url.endswith("/forms/new-issue")
