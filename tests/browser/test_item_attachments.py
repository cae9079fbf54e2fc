"""Files inside items (tests/browser/fixtures/photos.xml, an ODK XForm whose repeated members each
take a photo) in headless Chromium at both widths, JavaScript on and off: each item's file input
takes its own file, Add (in place with JavaScript, a page load without) keeps what was chosen
or already received, a refused create lists each item's received file again under that item with
its Keep box, and the detail page shows each item's photo in the item table, linking to bytes
served to the creator. axe-core finds nothing serious on the refused form nor on the detail page.

The form is imported through POST /api/forms in an admin's session, as test_items.py does."""
import os
import struct
import zlib

import pytest
from selenium.webdriver.common.by import By

from conftest import describe_violations, failing_violations, form_browsers, press, type_into

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "photos.xml")
SIZES = [(390, 844), (1280, 800)]
SIZE_IDS = ["compact", "regular"]


def png(rgb) -> bytes:
    """An 8×8 PNG of one colour."""
    raw = b"".join(b"\x00" + bytes(rgb) * 8 for _ in range(8))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    folder = tmp_path_factory.mktemp("photos")
    paths = {}
    for name, rgb in (("ann.png", (200, 30, 30)), ("bob.png", (30, 30, 200))):
        path = folder / name
        path.write_bytes(png(rgb))
        paths[name] = str(path)
    return paths


admin_js, admin_nojs, form_id, admin = form_browsers(FIXTURE)


def attach(b, name, path):
    b.driver.find_element(By.CSS_SELECTOR, f"input[type=file][name='{name}']").send_keys(path)


def kept(b, item):
    """The names of the files listed as received in an item, each with its ticked Keep box."""
    boxes = b.driver.find_elements(By.CSS_SELECTOR, f"input[type=checkbox][name='{item}.photo._kept']")
    assert all(box.is_selected() for box in boxes)
    return [box.find_element(By.XPATH, "ancestor::li[1]").find_element(
        By.CSS_SELECTOR, ".fw-attachment__name").text for box in boxes]


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_photos_in_items(admin, form_id, photos, size):
    b = admin
    b.viewport(*size)
    b.open(f"/forms/{form_id}/new")
    assert b.driver.find_element(By.CSS_SELECTOR, "form.fw-form").get_attribute(
        "enctype") == "multipart/form-data"
    if not b.driver.find_elements(By.NAME, "member[0].name"):
        press(b, "button[name=_add][value=member]")
    type_into(b, "member[0].name", "Ann")
    attach(b, "member[0].photo", photos["ann.png"])
    press(b, "button[name=_add][value=member]")
    if not b.js:
        # Sent without JavaScript: Ann's photo came back as a received file, kept.
        assert kept(b, "member[0]") == ["ann.png"]
    type_into(b, "member[1].name", "Bob")
    attach(b, "member[1].photo", photos["bob.png"])

    # Refused (no village): each item lists its own photo again.
    press(b, ".fw-navbar button[type=submit]")
    summary = b.driver.find_element(By.CSS_SELECTOR, ".fw-error-summary")
    assert "Village" in summary.text, summary.text
    assert kept(b, "member[0]") == ["ann.png"]
    assert kept(b, "member[1]") == ["bob.png"]
    b.screenshot(f"item-photos-refused-{size[0]}")
    if b.js:
        violations = failing_violations(b.axe())
        assert not violations, describe_violations(violations)

    type_into(b, "village", "Kisumu")
    press(b, ".fw-navbar button[type=submit]")
    assert "/forms/" in b.driver.current_url and "/new" not in b.driver.current_url
    rows = b.driver.find_elements(By.CSS_SELECTOR, ".fw-item-table tbody tr")
    assert [r.find_element(By.CSS_SELECTOR, ".fw-attachment__name").text for r in rows] == ["ann.png", "bob.png"]
    links = [r.find_element(By.CSS_SELECTOR, "a.fw-attachment__link").get_attribute("href") for r in rows]
    b.screenshot(f"item-photos-detail-{size[0]}")
    if b.js:
        violations = failing_violations(b.axe())
        assert not violations, describe_violations(violations)
        for link in links:
            status, kind, size_ = b.driver.execute_async_script(
                "const done = arguments[1]; fetch(arguments[0]).then(r => r.blob().then("
                "x => done([r.status, r.headers.get('content-type'), x.size])));", link)
            assert status == 200 and kind.startswith("image/png") and size_ > 0, (status, kind)
