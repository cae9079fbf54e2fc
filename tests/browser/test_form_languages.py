"""An XForm in its languages (tests/browser/fixtures/languages.xml: English and French) in headless
Chromium at both widths, JavaScript on and off: a browser asking for French gets the form's texts
in French (the form marked lang="fr"); the language switch, a row of buttons naming each language
in itself, shows the form in English with everything typed kept, and the choice holds for the next
page; axe finds nothing serious."""
import os

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import describe_violations, failing_violations, form_browsers, gone, type_into, value

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "languages.xml")
SIZES = [(390, 844), (1280, 800)]
SIZE_IDS = ["compact", "regular"]


admin_js, admin_nojs, form_id, admin = form_browsers(FIXTURE)


def label_of(b, name):
    return b.driver.find_element(By.CSS_SELECTOR, f"label[for='field-{name}']").text


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_form_in_french_then_english(admin, form_id, size):
    b = admin
    b.viewport(*size)
    # The browser asks for French: the page's language cookie says so (the switch's own cookie).
    b.open("/")
    b.driver.add_cookie({"name": "lang", "value": "fr", "path": "/"})
    b.open(f"/forms/{form_id}/new")
    form = b.driver.find_element(By.CSS_SELECTOR, "form.fw-form")
    assert form.get_attribute("lang") == "fr"
    assert label_of(b, "village").startswith("Commune")
    switch = b.driver.find_elements(By.CSS_SELECTOR, ".fw-languages button[name=_lang]")
    assert [s.text for s in switch] == ["English", "Français"]
    assert switch[1].get_attribute("aria-current") == "true"
    type_into(b, "village", "Kisumu")
    b.screenshot(f"languages-fr-{size[0]}")
    violations = failing_violations(b.axe()) if b.js else []
    assert not violations, describe_violations(violations)

    old = b.driver.find_element(By.TAG_NAME, "html")
    switch[0].click()
    WebDriverWait(b.driver, 20).until(gone(old))
    b.settle()
    assert label_of(b, "village").startswith("Village")
    assert value(b, "village") == "Kisumu"
    assert b.driver.find_element(By.CSS_SELECTOR, "form.fw-form").get_attribute("lang") in (None, "")
    b.open(f"/forms/{form_id}/new")
    assert label_of(b, "village").startswith("Village"), "the choice holds for the next page"
    b.driver.delete_cookie("lang")
