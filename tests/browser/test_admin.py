"""The admin page in a real browser: import a spec (and see where a broken one is wrong),
preview it at both widths, publish it, upload a value list, find its versions."""
import os
import tempfile
import uuid

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.expected_conditions import staleness_of
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
    click_and_load(b, b.driver.find_element(By.CSS_SELECTOR, ".fw-login__submit"))
    assert b.driver.current_url.endswith("/admin")
    yield b
    b.quit()


def click_and_load(b: Browser, element):
    """Clicks a submit button and waits until the next page has replaced this one."""
    old = b.driver.find_element(By.TAG_NAME, "html")
    element.click()
    WebDriverWait(b.driver, 15).until(staleness_of(old))
    b.settle()


def paste_and_import(b: Browser, text: str):
    b.open("/admin")
    area = b.driver.find_element(By.ID, "field-xml")
    b.driver.execute_script("arguments[0].value = arguments[1]", area, text)
    click_and_load(b, b.driver.find_element(By.CSS_SELECTOR, ".fw-import button[type=submit]"))


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

    # A good one, uploaded as a file: the report lists the new form at version 1.
    with tempfile.NamedTemporaryFile("w", suffix=".xml", delete=False) as f:
        f.write(spec(form_id, "New Trip"))
        path = f.name
    b.open("/admin")
    b.driver.find_element(By.ID, "field-documents").send_keys(path)
    names = b.driver.find_element(By.CSS_SELECTOR, ".fw-dropzone__files").text
    assert os.path.basename(path) in names
    click_and_load(b, b.driver.find_element(By.CSS_SELECTOR, ".fw-import button[type=submit]"))
    assert "/admin/imports/" in b.driver.current_url
    row = b.driver.find_element(By.XPATH, f"//a[text()='{form_id}']/ancestor::tr").text
    assert "New Trip" in row and "1 (new)" in row
    b.screenshot("admin-report-1280")
    os.unlink(path)

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
    click_and_load(b, b.driver.find_element(By.XPATH, "//button[text()='Save access']"))
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
    click_and_load(b, b.driver.find_element(By.XPATH, "//button[text()='Upload options']"))
    assert "Options uploaded" in b.driver.find_element(By.CSS_SELECTOR, ".fw-notice").text
    os.unlink(csv)
    b.open(f"/forms/{form_id}/new")
    groups = [g.get_attribute("label") for g in b.driver.find_elements(By.CSS_SELECTOR, "#field-plant optgroup")]
    assert groups == ["North", "South"]

    # A second import makes version 2; both versions are listed with who imported them.
    paste_and_import(b, spec(form_id, "New Journey"))
    b.open(f"/admin/forms/{form_id}")
    versions = [r.text for r in b.driver.find_elements(By.CSS_SELECTOR, "#versions-heading ~ .fw-table-wrap tbody tr")]
    assert len(versions) == 2 and versions[0].startswith("2") and versions[1].startswith("1")
    assert all("admin" in v for v in versions)
    b.screenshot("admin-form-1280")
    assert not [e for e in b.console_errors() if e.get("source") != "network"]
