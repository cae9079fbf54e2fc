"""The admin page in a real browser: import a spec (and see where a broken one is wrong),
preview it at both widths, publish it, upload a value list, find its versions."""
import os
import shutil
import tempfile
import time
import uuid

import pytest
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import BASE, Browser

PASSWORD = os.environ.get("FIELDWORK_ADMIN_PASSWORD", "ci-admin-password")


def spec(form_id: str, title: str) -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<form xmlns="urn:fieldwork:form:1" id="{form_id}" title="{title}" object="Trip">
  <key>
    <text name="title" placeholder="Destination" required="true"/>
  </key>
  <properties>
    <group label="Plan">
      <value-list name="plant" label="Plant" list="plants" required="true"/>
      <date name="start" label="Start"/>
    </group>
  </properties>
  <lists>
    <list id="plants"><option value="p1">Plant One</option></list>
  </lists>
</form>
"""


BROKEN = """<?xml version="1.0" encoding="UTF-8"?>
<form xmlns="urn:fieldwork:form:1" id="broken" title="Broken">
  <key>
    <text name="title" placeholder="Title" required="true"/>
  </key>
  <properties>
    <text name="a" label="A">
  </properties>
</form>
"""


@pytest.fixture(scope="module")
def admin():
    b = Browser(js=True).viewport(1280, 800)
    b.open("/login?next=/admin")
    b.driver.find_element(By.ID, "field-name").send_keys("admin")
    b.driver.find_element(By.ID, "field-password").send_keys(PASSWORD)
    click_and_load(b, By.CSS_SELECTOR, ".fw-login__submit")
    assert b.driver.current_url.endswith("/admin")
    yield b
    b.quit()


def staleness_of(element):
    """True once `element`'s page is gone. Chrome may answer a lookup on a node of a page being
    torn down with a generic inspector error ("does not belong to the document") instead of a
    stale reference: that means gone too (as in test_submission_flow.py)."""
    def gone(_):
        try:
            element.is_enabled()
            return False
        except WebDriverException:
            return True
    return gone


def click_and_load(b: Browser, by: str, selector: str):
    """Clicks a submit button and waits until the next page has replaced this one. The button is
    found afresh if Chromium loses it between finding and clicking (seen once in CI-like runs)."""
    old = b.driver.find_element(By.TAG_NAME, "html")
    for attempt in range(3):
        try:
            b.driver.find_element(by, selector).click()
            break
        except (StaleElementReferenceException, WebDriverException) as error:
            if attempt == 2 or "belong to the document" not in str(error) and not isinstance(error, StaleElementReferenceException):
                raise
            time.sleep(0.2)
    WebDriverWait(b.driver, 15).until(staleness_of(old))
    b.settle()


def paste_and_import(b: Browser, text: str):
    b.open("/admin")
    area = b.driver.find_element(By.ID, "field-xml")
    b.driver.execute_script("arguments[0].value = arguments[1]", area, text)
    click_and_load(b, By.CSS_SELECTOR, ".fw-import button[type=submit]")


def test_import_preview_publish_value_list_versions(admin: Browser):
    b = admin
    form_id = "trip-" + uuid.uuid4().hex[:8]

    # A broken spec: the error names the line and marks the column; nothing is stored.
    paste_and_import(b, BROKEN)
    summary = b.driver.find_element(By.CSS_SELECTOR, ".fw-error-summary")
    assert "pasted.xml, line 8" in summary.text
    place = b.driver.find_element(By.CSS_SELECTOR, ".fw-import-error__place").text
    assert place.startswith("Line 8, column ")
    excerpt = b.driver.find_element(By.CSS_SELECTOR, ".fw-import-error__excerpt").text
    assert "</properties>" in excerpt and "^" in excerpt
    b.screenshot("admin-refused-1280")

    # Two files, the second broken: refused, and both are kept. The corrected second file,
    # chosen again under its name, takes its place, and the import goes through.
    folder = tempfile.mkdtemp()
    good, second = os.path.join(folder, "trip.xml"), os.path.join(folder, "second.xml")
    for path, text in ((good, spec(form_id, "New Trip")), (second, BROKEN)):
        with open(path, "w") as f:
            f.write(text)
    b.open("/admin")
    b.driver.find_element(By.ID, "field-documents").send_keys(good + "\n" + second)
    names = b.driver.find_element(By.CSS_SELECTOR, ".fw-dropzone__files").text
    assert "trip.xml" in names and "second.xml" in names
    click_and_load(b, By.CSS_SELECTOR, ".fw-import button[type=submit]")
    assert "second.xml, line 8" in b.driver.find_element(By.CSS_SELECTOR, ".fw-error-summary").text
    kept = [e.text for e in b.driver.find_elements(By.CSS_SELECTOR, ".fw-kept .fw-checkbox__label")]
    assert [k.split(" ")[0] for k in kept] == ["trip.xml", "second.xml"]
    assert all(e.is_selected() for e in b.driver.find_elements(By.CSS_SELECTOR, ".fw-kept .fw-checkbox__input"))
    b.screenshot("admin-kept-1280")
    b.viewport(390, 844)
    assert b.driver.execute_script("return document.documentElement.scrollWidth") <= 390
    b.screenshot("admin-kept-390")
    b.viewport(1280, 800)
    with open(second, "w") as f:
        f.write(spec(form_id + "-b", "Second Trip"))
    b.driver.find_element(By.ID, "field-documents").send_keys(second)
    click_and_load(b, By.CSS_SELECTOR, ".fw-import button[type=submit]")
    assert "/admin/imports/" in b.driver.current_url
    row = b.driver.find_element(By.XPATH, f"//a[text()='{form_id}']/ancestor::tr").text
    assert "New Trip" in row and "1 (new)" in row
    assert "Second Trip" in b.driver.find_element(By.XPATH, f"//a[text()='{form_id}-b']/ancestor::tr").text
    b.screenshot("admin-report-1280")
    shutil.rmtree(folder)

    # Preview at both widths: each frame has the size it promises and the layout it names.
    b.open(f"/admin/forms/{form_id}/preview")
    compact = b.rect(".fw-preview__iframe--compact")
    regular = b.rect(".fw-preview__iframe--regular")
    assert round(compact["width"]) == 390 + 2 and round(regular["width"]) == 1024 + 2
    for frame_class, layout in (("compact", "fw-layout-compact"), ("regular", "fw-layout-regular")):
        frame = b.driver.find_element(By.CSS_SELECTOR, f".fw-preview__iframe--{frame_class}")
        b.driver.switch_to.frame(frame)
        assert layout in b.driver.find_element(By.TAG_NAME, "html").get_attribute("class")
        assert b.driver.find_element(By.CSS_SELECTOR, ".fw-navbar__title").text == "New Trip"
        width = b.driver.execute_script("return window.innerWidth")
        assert width == (390 if frame_class == "compact" else 1024)
        b.driver.switch_to.default_content()
    b.screenshot("admin-preview-1280")
    b.viewport(390, 844)
    b.open(f"/admin/forms/{form_id}/preview")
    b.screenshot("admin-preview-390")
    b.viewport(1280, 800)

    # Publish: imported forms are for users; made public, a visitor can fill it.
    b.open(f"/admin/forms/{form_id}")
    b.driver.find_element(By.ID, "access-public").click()
    click_and_load(b, By.XPATH, "//button[text()='Save access']")
    assert "Access saved." in b.driver.find_element(By.CSS_SELECTOR, ".fw-notice").text
    visitor = Browser(js=False).viewport(390, 844)
    try:
        visitor.open(f"/forms/{form_id}/new")
        assert visitor.driver.find_element(By.CSS_SELECTOR, ".fw-navbar__title").text == "New Trip"
    finally:
        visitor.quit()

    # A value list from CSV applies at once.
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
        f.write("value,label,group\nn1,North One,North\ns1,South One,South\n")
        csv = f.name
    b.open(f"/admin/forms/{form_id}")
    b.driver.find_element(By.ID, "list-plants-csv").send_keys(csv)
    click_and_load(b, By.XPATH, "//button[text()='Upload options']")
    assert "Options uploaded" in b.driver.find_element(By.CSS_SELECTOR, ".fw-notice").text
    os.unlink(csv)
    b.open(f"/forms/{form_id}/new")
    groups = [g.get_attribute("label") for g in b.driver.find_elements(By.CSS_SELECTOR, "select[name=plant] optgroup")]
    assert groups == ["North", "South"]

    # A second import makes version 2; both versions are listed with who imported them.
    paste_and_import(b, spec(form_id, "New Journey"))
    b.open(f"/admin/forms/{form_id}")
    versions = [r.text for r in b.driver.find_elements(By.CSS_SELECTOR, "#versions-heading ~ .fw-table-wrap tbody tr")]
    assert len(versions) == 2 and versions[0].startswith("2") and versions[1].startswith("1")
    assert all("admin" in v for v in versions)
    b.screenshot("admin-form-1280")
    assert not [e for e in b.console_errors() if e.get("source") != "network"]
