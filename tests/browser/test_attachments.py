"""The attachments cell in Chromium: with JavaScript, "+" first, each file a tile (a thumbnail or
a type icon, name and size) in the order chosen, the label counting them, a previewer (images,
PDFs, previous and next, Delete after a confirmation) on the create view, the refused view and
the detail page (no "+", no Delete there); without JavaScript, the input and the Keep boxes."""
import base64
import os
import tempfile

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import choose, gone, wait_gone

FORM = "/forms/new-issue/new"
SIZES = [(390, 844), (1280, 800)]
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")


def pdf_bytes() -> bytes:
    """A one-page PDF with a correct cross-reference table."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] >>"]
    out = b"%PDF-1.4\n"
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return out


@pytest.fixture(scope="module")
def files():
    folder = tempfile.mkdtemp()
    paths = {}
    for name, data in (("photo.png", PNG), ("report.pdf", pdf_bytes())):
        paths[name] = os.path.join(folder, name)
        with open(paths[name], "wb") as f:
            f.write(data)
    return paths


def q(d, selector):
    return d.find_elements("css selector", selector)




def submit(b):
    d = b.driver
    old = d.find_element("tag name", "html")
    d.find_element("css selector", ".fw-navbar button[type=submit]").click()
    WebDriverWait(d, 20).until(gone(old))
    b.settle()


def attach(d, path):
    field = q(d, "input[type=file][name=attachments]")[0]
    field.send_keys(path)


def label(d):
    return d.find_element("css selector", "label[for=field-attachments]").text


def tiles(d):
    """The shown tiles' names, in order."""
    return [e.text for e in q(d, ".fw-attachment:not([hidden]) .fw-attachment__name")]


def wait_for(d, condition, timeout=15):
    return WebDriverWait(d, timeout).until(lambda _: d.execute_script(condition))


def open_tile(b, name):
    d = b.driver
    tile = [e for e in q(d, ".fw-attachment:not([hidden])") if name in e.text][0]
    opener = tile.find_element("css selector", ".fw-attachment__open, .fw-attachment__link")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", opener)
    opener.click()
    wait_for(d, "return !!document.querySelector('dialog.fw-preview[open]')")
    b.settle()
    return d.find_element("css selector", "dialog.fw-preview")


def delete_in_preview(b):
    d = b.driver
    d.find_element("xpath", "//dialog[contains(@class,'fw-preview')]//button[normalize-space()='Delete']").click()
    wait_for(d, "return !!document.querySelector('dialog.fw-discard[open]')")
    assert "Delete" in d.find_element("css selector", "dialog.fw-discard").text
    d.find_element("xpath", "//dialog[contains(@class,'fw-discard')]//button[normalize-space()='Delete']").click()
    assert wait_gone(b, "dialog.fw-discard")


def close_preview(b):
    d = b.driver
    d.find_element("xpath", "//dialog[contains(@class,'fw-preview')]//button[normalize-space()='Close']").click()
    assert wait_gone(b, "dialog.fw-preview")


def kept_url_serves_pdf(d) -> bool:
    """The kept tile's data-url (what the previewer fetches) serves the PDF's bytes. (The blob:
    URL itself cannot be read back: connect-src is 'self'.)"""
    return d.execute_async_script(
        "const done = arguments[0]; const url = document.querySelector('.fw-attachment[data-url]').dataset.url;"
        "if (!url) return done(false);"
        "fetch(url).then(r => r.text()).then(t => done(t.startsWith('%PDF-')), () => done(false));")


def focused_text(d):
    return d.execute_script("return document.activeElement.textContent.trim()")


def shown_view(d):
    """What the previewer shows: img (with its src), iframe (with its src) or the icon."""
    return d.execute_script(
        "const body = document.querySelector('dialog.fw-preview .fw-preview__body');"
        "const e = body.querySelector('img, iframe, .fw-preview__file');"
        "return e ? [e.tagName.toLowerCase(), e.getAttribute('src') || e.textContent] : null;")


@pytest.mark.parametrize("width,height", SIZES, ids=["compact", "regular"])
def test_tiles_preview_delete_and_kept(width, height, browser, files):
    b = browser.viewport(width, height).open(FORM + "?task=T-2001")
    d = b.driver
    d.find_element("id", "field-title").send_keys(f"Attachments {width}")
    field = d.find_element("id", "field-attachments")
    assert field.get_attribute("accept") == "image/png,image/jpeg,application/pdf,text/csv"
    assert label(d).startswith("Attachments") and "(" not in label(d)

    # Chosen files appear at once, after "+", in the order added; choosing again adds.
    attach(d, files["photo.png"])
    wait_for(d, "return document.querySelectorAll('.fw-attachment').length === 1")
    attach(d, files["report.pdf"])
    wait_for(d, "return document.querySelectorAll('.fw-attachment').length === 2")
    assert tiles(d) == ["photo.png", "report.pdf"]
    assert label(d).startswith("Attachments (2)"), label(d)
    assert d.execute_script("return Array.from(arguments[0].files, f => f.name)", field) == ["photo.png", "report.pdf"]
    wait_for(d, "return document.querySelector('.fw-attachment img').src.startsWith('data:image/png')")
    sizes = [e.text for e in q(d, ".fw-attachment__size")]
    assert sizes[0] == f"{len(PNG)} bytes" and sizes[1].endswith("bytes"), sizes
    assert q(d, ".fw-attachment .fw-attachment__icon--pdf")
    plus = b.rect(".fw-attachments__add")
    first = b.rect(".fw-attachment")
    assert plus["display"] != "none"
    assert (plus["y"], plus["x"]) < (first["y"], first["x"]) or plus["y"] < first["y"], (plus, first)
    b.screenshot(f"attachments-tiles-{width}")

    # The previewer: the image, then the PDF in a frame from a blob: URL; Previous and Next.
    dialog = open_tile(b, "photo.png")
    assert "photo.png" in dialog.text and "1 of 2" in dialog.text
    view = shown_view(d)
    assert view[0] == "img" and view[1].startswith("data:image/png"), view
    assert not dialog.find_element("xpath", ".//button[normalize-space()='Delete']").get_attribute("disabled")
    b.screenshot(f"attachments-preview-image-{width}")
    dialog.find_element("xpath", ".//button[normalize-space()='Next']").click()
    wait_for(d, "return !!document.querySelector('dialog.fw-preview iframe')")
    view = shown_view(d)
    assert view[0] == "iframe" and view[1].startswith("blob:"), view
    assert "report.pdf" in dialog.text and "2 of 2" in dialog.text
    # Next is disabled at the last file: the focus it had moves to Previous, not to the page.
    assert focused_text(d) == "Previous"
    b.screenshot(f"attachments-preview-pdf-{width}")
    dialog.find_element("xpath", ".//button[normalize-space()='Previous']").click()
    wait_for(d, "return !!document.querySelector('dialog.fw-preview img')")
    assert focused_text(d) == "Next"
    # The arrow keys move too, and stop at the ends.
    ActionChains(d).send_keys(Keys.ARROW_RIGHT).perform()
    wait_for(d, "return document.querySelector('dialog.fw-preview').textContent.includes('2 of 2')")
    ActionChains(d).send_keys(Keys.ARROW_RIGHT).perform()
    assert "2 of 2" in dialog.text
    ActionChains(d).send_keys(Keys.ARROW_LEFT).perform()
    wait_for(d, "return !!document.querySelector('dialog.fw-preview img')")
    assert "1 of 2" in dialog.text

    # Delete (confirmed) removes the image from what will be submitted.
    delete_in_preview(b)
    wait_for(d, "return document.querySelector('dialog.fw-preview').textContent.includes('report.pdf')")
    wait_for(d, "return !!document.querySelector('dialog.fw-preview iframe, dialog.fw-preview .fw-preview__file')")
    b.settle()
    # The PDF shown next does not keep the focus (keys in its frame never reach the dialog):
    # Escape still closes the previewer.
    assert d.execute_script("return document.activeElement.tagName") != "IFRAME"
    ActionChains(d).send_keys(Keys.ESCAPE).perform()
    assert wait_gone(b, "dialog.fw-preview")
    assert tiles(d) == ["report.pdf"]
    # Focus goes back to the tile of the file shown last, not to the page.
    assert d.execute_script("return document.activeElement.closest('.fw-attachment')?.textContent || ''").count("report.pdf")
    assert label(d).startswith("Attachments (1)"), label(d)
    assert d.execute_script("return Array.from(arguments[0].files, f => f.name)", field) == ["report.pdf"]

    # Refused (no project): the PDF is kept and shown as the same tile over its ticked Keep box;
    # the stored PDF is fetched into a frame.
    submit(b)
    assert d.title.startswith("Error: "), d.title
    assert tiles(d) == ["report.pdf"], tiles(d)
    assert label(d).startswith("Attachments (1)"), label(d)
    keep = d.find_element("css selector", "input[name='attachments._kept']")
    assert keep.is_selected() and not keep.is_displayed()
    assert q(d, ".fw-attachment .fw-attachment__open")
    open_tile(b, "report.pdf")
    wait_for(d, "return !!document.querySelector('dialog.fw-preview iframe, dialog.fw-preview .fw-preview__file')")
    view = shown_view(d)
    assert view[0] == "iframe" and view[1].startswith("blob:"), view
    assert kept_url_serves_pdf(d)
    b.screenshot(f"attachments-preview-kept-{width}")
    close_preview(b)

    # A new image next to the kept PDF; Delete on the kept one unticks its Keep box.
    attach(d, files["photo.png"])
    wait_for(d, "return document.querySelectorAll('.fw-attachment:not([hidden])').length === 2")
    assert tiles(d) == ["report.pdf", "photo.png"]
    assert label(d).startswith("Attachments (2)"), label(d)
    open_tile(b, "report.pdf")
    delete_in_preview(b)
    close_preview(b)
    assert d.execute_script("return document.activeElement.closest('.fw-attachment')?.textContent || ''").count("photo.png")
    assert not keep.is_selected()
    assert tiles(d) == ["photo.png"] and label(d).startswith("Attachments (1)")

    # Created: the detail page shows the image as a tile that opens the previewer, no Delete.
    d.execute_script("document.getElementById('field-project').scrollIntoView({block: 'center'})")
    choose(b, "project", "Customer Portal")
    submit(b)
    assert "/forms/new-issue/" in d.current_url and not d.current_url.endswith("/new"), d.current_url
    assert tiles(d) == ["photo.png"]
    assert not q(d, ".fw-attachments__add")
    row = d.find_element("xpath", "//dt[starts-with(normalize-space(), 'Attachments')]")
    assert row.text.startswith("Attachments (1)"), row.text
    dialog = open_tile(b, "photo.png")
    view = shown_view(d)
    assert view[0] == "img" and "/files/" in view[1], view
    assert not dialog.find_elements("xpath", ".//button[normalize-space()='Delete']")
    b.screenshot(f"attachments-preview-detail-{width}")
    close_preview(b)
    b.leave()


@pytest.mark.parametrize("width,height", SIZES, ids=["compact", "regular"])
def test_read_only_hides_plus_and_disables_delete(width, height, browser, files):
    """A read-only cell's input is disabled (as the server renders it): no "+", and the
    previewer's Delete is disabled. Here the input is disabled after a file was chosen."""
    b = browser.viewport(width, height).open(FORM)
    d = b.driver
    attach(d, files["photo.png"])
    wait_for(d, "return document.querySelectorAll('.fw-attachment').length === 1")
    assert b.rect(".fw-attachments__add")["display"] != "none"
    d.execute_script("document.getElementById('field-attachments').disabled = true")
    assert b.rect(".fw-attachments__add")["display"] == "none"
    dialog = open_tile(b, "photo.png")
    assert dialog.find_element("xpath", ".//button[normalize-space()='Delete']").get_attribute("disabled")
    close_preview(b)
    assert tiles(d) == ["photo.png"]
    b.leave()


def test_without_javascript_the_input_and_keep_boxes_stay(browser_nojs, files):
    b = browser_nojs.viewport(390, 844).open(FORM)
    d = b.driver
    field = d.find_element("id", "field-attachments")
    d.execute_script("arguments[0].style.opacity = 1; arguments[0].style.position = 'static';", field)
    field.send_keys(files["report.pdf"])
    submit(b)
    assert d.title.startswith("Error: ")
    keep = d.find_element("css selector", "input[name='attachments._kept']")
    assert keep.is_selected() and keep.is_displayed()
    assert not q(d, ".fw-attachment__open") and not q(d, "dialog")
    assert label(d) == "Attachments"
    assert b.rect(".fw-attachments__add")["display"] != "none"
