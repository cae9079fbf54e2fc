"""Two-step sign-in in a real browser, JavaScript on and off: an administrator turns it on from
the key written out (an app's view of it computed here, as RFC 6238 says), keeps the recovery
codes, and is asked for a code at the next sign-in; every page at both widths has nothing
serious for axe-core and its error summary links to the field."""
import base64
import hashlib
import hmac
import struct
import time
import uuid

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import Browser, describe_violations, failing_violations, signed_in

SIZES = {"compact": (390, 844), "regular": (1280, 800)}


def totp(key: str, at: float) -> str:
    """The code an authenticator app shows for a base32 key at a time (HMAC-SHA1, 6 digits, 30 s)."""
    secret = base64.b32decode(key.replace(" ", "") + "=" * (-len(key.replace(" ", "")) % 8))
    digest = hmac.new(secret, struct.pack(">Q", int(at // 30)), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF
    return f"{value % 1_000_000:06d}"


def submit(b: Browser, selector: str):
    old = b.driver.find_element(By.TAG_NAME, "html")
    b.driver.find_element(By.CSS_SELECTOR, selector).click()
    WebDriverWait(b.driver, 30).until(lambda d: d.find_element(By.TAG_NAME, "html") != old)
    b.settle()


def no_serious(b: Browser, what: str):
    for size, (width, height) in SIZES.items():
        b.viewport(width, height)
        b.settle()
        failing = failing_violations(b.axe())
        assert not failing, f"{what} at {size}:\n{describe_violations(failing)}"
        b.screenshot(f"two-factor-{what}-{size}-{'js' if b.page_scripts else 'nojs'}")
    b.viewport(1280, 800)


def sign_in(b: Browser, name: str, password: str):
    b.open("/login")
    b.driver.find_element(By.ID, "field-name").send_keys(name)
    b.driver.find_element(By.ID, "field-password").send_keys(password)
    submit(b, ".fw-login__submit")


def new_browser(js: bool, width: int = 1280, height: int = 800) -> Browser:
    """JavaScript off for the pages means their scripts blocked; WebDriver's (axe-core's) still run."""
    b = Browser(js=True).viewport(width, height)
    return b if js else b.block_page_scripts()


@pytest.fixture(scope="module")
def admin():
    b = signed_in(js=True)
    yield b
    b.quit()


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_turn_on_and_sign_in_with_a_code(admin, js):
    name, password = f"twostep-{uuid.uuid4().hex[:8]}", "two step password " + uuid.uuid4().hex[:6]
    # The admin adds an administrator, who signs in with a password alone so far.
    admin.open("/admin/users")
    admin.driver.find_element(By.ID, "field-name").send_keys(name)
    admin.driver.find_element(By.ID, "field-password").send_keys(password)
    admin.driver.find_element(By.ID, "field-admin").click()
    submit(admin, ".fw-admin__action")
    assert name in admin.driver.page_source

    b = new_browser(js)
    try:
        sign_in(b, name, password)
        b.open("/admin")
        warning = b.driver.find_element(By.CSS_SELECTOR, ".fw-admin__warning a")
        assert warning.get_attribute("href").endswith("/account/two-factor")
        warning.click()
        b.settle()
        assert b.driver.title == "Two-step sign-in – Fieldwork", b.driver.title
        no_serious(b, "enrol")
        link = b.driver.find_element(By.CSS_SELECTOR, "a[href^='otpauth://totp/']").get_attribute("href")
        assert f"Fieldwork:{name}" in link and "issuer=Fieldwork" in link, link
        key = b.driver.find_element(By.ID, "two-factor-key").text
        assert link.split("secret=")[1].split("&")[0] == key.replace(" ", "")

        # A wrong code: the summary links to the field, which says what to do.
        b.driver.find_element(By.ID, "field-code").send_keys("000000" if totp(key, time.time()) != "000000" else "111111")
        submit(b, ".fw-admin__action")
        assert b.driver.title.startswith("Error: "), b.driver.title
        summary = b.driver.find_elements(By.CSS_SELECTOR, ".fw-error-summary a")
        assert [a.get_attribute("hash") for a in summary] == ["#field-code"]
        assert "aria-invalid" in b.driver.find_element(By.ID, "field-code").get_attribute("outerHTML")
        no_serious(b, "refused")

        enrolled_at = time.time()
        b.driver.find_element(By.ID, "field-code").send_keys(totp(key, enrolled_at))
        submit(b, ".fw-admin__action")
        codes = [li.text for li in b.driver.find_elements(By.CSS_SELECTOR, ".fw-two-factor__codes li")]
        assert len(codes) == 10 and all(len(c) == 11 and c[5] == "-" for c in codes), codes
        no_serious(b, "recovery-codes")

        # Signing in again asks for the code (the next step's: the one used to enrol is spent).
        fresh = new_browser(js)
        try:
            sign_in(fresh, name, password)
            assert "/login/code" in fresh.driver.current_url, fresh.driver.current_url
            assert fresh.driver.title == "Enter your code – Fieldwork"
            no_serious(fresh, "code")
            fresh.driver.find_element(By.ID, "field-code").send_keys(totp(key, max(time.time(), enrolled_at + 30)))
            submit(fresh, ".fw-login__submit")
            assert "/login" not in fresh.driver.current_url, fresh.driver.current_url
            fresh.open("/admin")
            assert fresh.driver.current_url.endswith("/admin"), fresh.driver.current_url
            assert not fresh.driver.find_elements(By.CSS_SELECTOR, ".fw-admin__warning")
        finally:
            fresh.quit()

        # A recovery code signs in once.
        other = new_browser(js, 390, 844)
        try:
            sign_in(other, name, password)
            other.driver.find_element(By.ID, "field-code").send_keys(codes[0])
            submit(other, ".fw-login__submit")
            assert "/login" not in other.driver.current_url, other.driver.current_url
        finally:
            other.quit()
    finally:
        b.quit()
