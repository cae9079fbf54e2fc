"""The demo form end to end in Chromium: refused with every value and file kept, created,
viewed, edited and deleted; at both widths, with JavaScript on and off."""
import base64
import os
import tempfile

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.support.ui import WebDriverWait

from conftest import choose

FORM = "/forms/new-issue/new"

# A 1x1 PNG, and an HTML page wearing a .png name.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")
HTML = b"<!DOCTYPE html><html><body><script>alert(1)</script></body></html>"


@pytest.fixture(scope="module")
def files():
    folder = tempfile.mkdtemp()
    paths = {}
    for name, data in (("screenshot.png", PNG), ("evil.png", HTML)):
        path = os.path.join(folder, name)
        with open(path, "wb") as f:
            f.write(data)
        paths[name] = path
    return paths


def q(d, selector):
    return d.find_elements("css selector", selector)


def staleness_of(element):
    """True once `element`'s page is gone. Chrome may answer a lookup on a node of a page being
    torn down with a generic inspector error instead of a stale reference: that means gone too."""
    def gone(_):
        try:
            element.is_enabled()
            return False
        except WebDriverException:
            return True
    return gone


def submit(d):
    """Presses the nav bar's action and waits until the next page has replaced this one."""
    old = d.find_element("tag name", "html")
    d.find_element("css selector", ".fw-navbar button[type=submit]").click()
    WebDriverWait(d, 20).until(staleness_of(old))


def click_and_wait(d, element):
    old = d.find_element("tag name", "html")
    element.click()
    WebDriverWait(d, 20).until(staleness_of(old))


def check(d, selector, on=True):
    box = q(d, selector)[0]
    if box.is_selected() != on:
        d.execute_script("arguments[0].click()", box)


def attach(d, path):
    field = q(d, "input[type=file][name=attachments]")[0]
    d.execute_script("arguments[0].style.opacity = 1; arguments[0].style.position = 'static';", field)
    field.send_keys(path)
    # With JavaScript the file appears as a tile after "+" (tiles load on the first choice).
    if d.execute_script("return document.documentElement.hasAttribute('data-enhanced')"):
        name = os.path.basename(path)
        WebDriverWait(d, 20).until(lambda _: any(
            e.text == name for e in q(d, ".fw-attachment:not([hidden]) .fw-attachment__name")))


@pytest.mark.parametrize("js,width,height", [(True, 390, 844), (False, 390, 844), (True, 1280, 800), (False, 1280, 800)],
                         ids=["js-compact", "nojs-compact", "js-regular", "nojs-regular"])
def test_refuse_keep_create_view_edit_delete(js, width, height, browser, browser_nojs, files):
    b = (browser if js else browser_nojs).viewport(width, height)
    d = b.open(FORM + "?task=T-1001").driver
    marker = f"Flow {'js' if js else 'nojs'} {width}"

    # 1. Refused: a title, a bad cost, too many categories, a fake PNG; no project.
    d.find_element("id", "field-title").send_keys(marker)
    for value in ("bug", "ui", "security", "docs"):
        check(d, f"input[name=categories][value={value}]")
    d.find_element("id", "field-cost").send_keys("-3")
    d.find_element("id", "field-asset").send_keys("AB-12")
    attach(d, files["screenshot.png"])
    submit(d)
    b.settle()
    assert d.title.startswith("Error: "), d.title
    summary = q(d, ".fw-error-summary")[0]
    # The summary is in view (and with JavaScript, focused) so it is seen and read first.
    top = b.rect(".fw-error-summary")["y"]
    assert 0 <= top < height / 2, top
    if js:
        assert b.js_eval("return document.activeElement.classList.contains('fw-error-summary')")
    assert summary.find_elements("css selector", "[role=alert]") or summary.get_attribute("role") == "alert"
    text = summary.text
    assert "There is a problem" in text
    for message in ("Select a project", "Cost must be 0 or more", "Select at most 3 categories",
                    "Asset code must be two letters, a hyphen and four digits"):
        assert message in text, (message, text)
    # Each message is under its field and tied to it.
    cost = d.find_element("id", "field-cost")
    assert cost.get_attribute("aria-invalid") == "true"
    described = cost.get_attribute("aria-describedby").split()
    assert any("Cost must be 0 or more" in d.find_element("id", i).text for i in described)
    link = summary.find_element("partial link text", "Cost must be 0 or more")
    assert link.get_attribute("href").endswith("#field-cost")
    # Every value kept, and the file listed so nobody uploads it twice.
    assert d.find_element("id", "field-title").get_attribute("value") == marker
    assert cost.get_attribute("value") == "-3"
    kept = [e.get_attribute("value") for e in q(d, "input[name=categories]") if e.is_selected()]
    assert kept == ["bug", "ui", "security", "docs"]
    assert d.find_element("name", "task").get_attribute("value") == "T-1001"
    assert "screenshot.png" in d.find_element("tag name", "body").text

    # 2. A file that is HTML under a .png name is refused by its content; with the kept PNG
    #    there are two files, so the message names the bad one. The kept file stays listed.
    attach(d, files["evil.png"])
    submit(d)
    b.settle()
    summary = q(d, ".fw-error-summary")[0].text
    assert "evil.png must be a PNG, JPEG, PDF or CSV" in summary, summary
    assert "screenshot.png" in d.find_element("tag name", "body").text

    # 3. Fixed: created, 303 to the detail page.
    choose(b, "project", "Customer Portal")
    check(d, "input[name=categories][value=docs]", on=False)
    cost = d.find_element("id", "field-cost")
    cost.clear()
    cost.send_keys("12.50")
    asset = d.find_element("id", "field-asset")
    asset.clear()
    asset.send_keys("AB-1234")
    submit(d)
    b.settle()
    assert "/forms/new-issue/" in d.current_url and not d.current_url.endswith("/new"), d.current_url
    detail = d.find_element("tag name", "body").text
    for shown in (marker, "Customer Portal", "USD 12.50", "T-1001", "Medium", "screenshot.png"):
        assert shown in detail, (shown, detail)
    object_url = d.current_url

    # 4. Edit: same form, Save, read-only task.
    click_and_wait(d, d.find_element("partial link text", "Edit"))
    b.settle()
    assert d.find_element("css selector", ".fw-navbar button[type=submit]").text.strip() == "Save"
    title = d.find_element("id", "field-title")
    assert title.get_attribute("value") == marker
    title.clear()
    title.send_keys(marker + " edited")
    # Untick "Keep" on the attached file: saved without it. With JavaScript the file is a tile
    # over its hidden Keep box: Delete in its previewer (confirmed) unticks the box.
    keep = d.find_element("css selector", "input[type=checkbox][name='attachments._kept']")
    assert keep.is_selected()
    if js:
        tile = d.find_element("css selector", ".fw-attachment .fw-attachment__open")
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", tile)
        tile.click()
        WebDriverWait(d, 20).until(lambda _: q(d, "dialog.fw-preview[open]"))
        d.find_element("xpath", "//dialog[contains(@class,'fw-preview')]//button[normalize-space()='Delete']").click()
        WebDriverWait(d, 20).until(lambda _: q(d, "dialog.fw-discard[open]"))
        d.find_element("xpath", "//dialog[contains(@class,'fw-discard')]//button[normalize-space()='Delete']").click()
        WebDriverWait(d, 20).until(lambda _: not q(d, "dialog.fw-preview"))
    else:
        d.execute_script("arguments[0].click()", keep)
    assert not keep.is_selected()
    submit(d)
    b.settle()
    assert d.current_url == object_url
    detail = d.find_element("tag name", "body").text
    assert marker + " edited" in detail and "screenshot.png" not in detail

    # 5. Delete with a confirmation, back to the parent page without it.
    click_and_wait(d, d.find_element("partial link text", "Edit"))
    delete = [e for e in q(d, "a, button") if e.text.strip().startswith("Delete")][0]
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", delete)
    click_and_wait(d, delete)
    confirm = [e for e in q(d, "button") if e.text.strip().startswith("Delete")][0]
    click_and_wait(d, confirm)
    assert d.current_url.endswith("/forms/new-issue")
    assert marker + " edited" not in d.find_element("tag name", "body").text
