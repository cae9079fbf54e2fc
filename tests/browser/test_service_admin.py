"""The admin page's Service section against the real OData V2 test service (pyslet, see
docs/odata-test-services.md): import its metadata, test, connect, see the drift report, change a
form's mode, disconnect; at both widths, JavaScript on and off, and axe-core on the section.
Skipped unless FIELDWORK_ODATA_V2_URL names the service root
(`http://127.0.0.1:PORT/sap/opu/odata/sap/SEPMRA_PROD_MAN/`)."""
import os
import urllib.request
import uuid

import pytest
from selenium.webdriver.common.by import By

from conftest import describe_violations, failing_violations, signed_in
from test_admin import click_and_load

V2 = os.environ.get("FIELDWORK_ODATA_V2_URL", "")
pytestmark = pytest.mark.skipif(not V2, reason="FIELDWORK_ODATA_V2_URL is not set (the V2 test service's root)")

SIZES = {"compact": (390, 844), "regular": (1280, 800)}


def root() -> str:
    return V2 if V2.endswith("/") else V2 + "/"


@pytest.fixture(scope="module")
def form_id():
    """Imports the service's own $metadata on the admin page; the id of the product form."""
    with urllib.request.urlopen(root() + "$metadata", timeout=10) as answer:
        metadata = answer.read().decode("utf-8")
    b = signed_in(js=True)
    try:
        b.open("/admin")
        area = b.driver.find_element(By.ID, "field-xml")
        b.driver.execute_script("arguments[0].value = arguments[1]", area, metadata)
        click_and_load(b, By.CSS_SELECTOR, ".fw-import button[type=submit]")
        assert "/admin/imports/" in b.driver.current_url, b.driver.find_element(By.TAG_NAME, "main").text[:2000]
        links = [a.text for a in b.driver.find_elements(By.CSS_SELECTOR, "main table a[href^='/admin/forms/']")]
        product = [text for text in links if text.endswith("sepmra-c-pd-product")]
        assert product, f"no product form among {links}"
        return product[0]
    finally:
        b.quit()


def fill(b, url: str, auth: str, secret: str = "", mode: str = "service"):
    d = b.driver
    field = d.find_element(By.ID, "service-url")
    field.clear()
    field.send_keys(url)
    d.execute_script("arguments[0].click()", d.find_element(By.ID, f"service-auth-{auth}"))
    d.find_element(By.ID, "service-secret").clear()
    if secret:
        d.find_element(By.ID, "service-secret").send_keys(secret)
    d.execute_script("arguments[0].click()", d.find_element(By.ID, f"service-mode-{mode}"))


def section_text(b) -> str:
    return b.driver.find_element(By.ID, "service").text


def no_horizontal_scroll(b) -> bool:
    return b.js_eval("return document.documentElement.scrollWidth <= window.innerWidth + 0.5")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_test_connect_mode_disconnect(form_id, js, size):
    width, height = SIZES[size]
    shot = f"service-{size}-{'js' if js else 'nojs'}"
    # The test service takes no credentials and ignores a bearer token: the token stands for a
    # secret that must never come back into a page.
    token = "tok-" + uuid.uuid4().hex
    b = signed_in(js=js).viewport(width, height)
    try:
        d = b.driver
        b.open(f"/admin/forms/{form_id}")
        assert d.find_element(By.ID, "service-heading").text == "Service"

        # A root without metadata: refused, the error on the URL and in the summary, values kept.
        fill(b, root() + "nothing-here/", "bearer", token)
        click_and_load(b, By.CSS_SELECTOR, "button[value=connect]")
        summary = d.find_element(By.CSS_SELECTOR, ".fw-error-summary")
        assert summary.find_element(By.CSS_SELECTOR, "a[href='#service-url']")
        assert d.find_element(By.ID, "service-url-error").is_displayed()
        assert d.find_element(By.ID, "service-url").get_attribute("value") == root() + "nothing-here/"
        assert d.find_element(By.ID, "service-auth-bearer").is_selected()
        assert d.find_element(By.ID, "service-secret").get_attribute("value") == ""
        assert token not in d.page_source
        b.screenshot(f"{shot}-refused-full")

        # Test: the drift report, nothing stored.
        fill(b, root(), "bearer", token)
        click_and_load(b, By.CSS_SELECTOR, "button[value=test]")
        test = d.find_element(By.ID, "service-test").text
        assert "Test passed" in test and "Nothing was stored" in test
        assert "No drift" in test or d.find_elements(By.CSS_SELECTOR, "#service-test .fw-service__drift--found li")
        assert d.find_element(By.ID, "service-secret").get_attribute("value") == ""
        assert token not in d.page_source
        assert d.find_element(By.ID, "service-url").get_attribute("value") == root()
        b.screenshot(f"{shot}-tested-full")

        # Connect (the token typed again): stored, shown without the token.
        fill(b, root(), "bearer", token)
        click_and_load(b, By.CSS_SELECTOR, "button[value=connect]")
        assert "Connected" in d.find_element(By.CSS_SELECTOR, ".fw-notice").text
        text = section_text(b)
        assert root() in text
        assert "Bearer token; a token is stored" in text
        assert "Drift report" in text
        assert "No drift: the service's metadata matches the import." in text or \
            d.find_elements(By.CSS_SELECTOR, "#service > .fw-service__drift--found li")
        assert d.find_element(By.ID, "service-secret").get_attribute("value") == ""
        assert token not in d.page_source
        assert d.find_element(By.ID, f"service-mode-{form_id}-service").is_selected()
        assert no_horizontal_scroll(b)
        b.screenshot(f"{shot}-connected-full")

        if js:
            violations = b.axe("#service")
            failing = failing_violations(violations)
            assert not failing, describe_violations(failing)

        # This form's mode to local and back.
        d.execute_script("arguments[0].click()", d.find_element(By.ID, f"service-mode-{form_id}-local"))
        click_and_load(b, By.XPATH, "//button[text()='Save modes']")
        assert d.find_element(By.CSS_SELECTOR, ".fw-notice").text == "Modes saved."
        assert d.find_element(By.ID, f"service-mode-{form_id}-local").is_selected()

        click_and_load(b, By.XPATH, "//button[text()='Disconnect']")
        assert "Disconnected" in d.find_element(By.CSS_SELECTOR, ".fw-notice").text
        assert "Not connected" in section_text(b)
    finally:
        b.quit()
