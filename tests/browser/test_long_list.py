"""A value list of 300 options (past the 200 that are sent with a page) in headless Chromium:
with JavaScript its list screen searches on the server and the choice is kept; without it the
Search button shows the matches with everything typed kept, and the choice is stored."""
import uuid

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import signed_in, wait_gone

FORM_ID = "trip-" + uuid.uuid4().hex[:8]
OPTIONS = "".join(f'<option value="c{n}">City {n}</option>' for n in range(1, 301))
SPEC = f"""<form xmlns="urn:fieldwork:form:1" id="{FORM_ID}" title="New Trip" object="Trip">
<key><text name="title" placeholder="Title" required="true"/></key>
<properties><group><value-list name="city" label="City" list="cities" required="true"/>
<text name="note" label="Note"/></group></properties>
<lists><list id="cities">{OPTIONS}</list></lists></form>"""


@pytest.fixture(scope="module")
def admin():
    b = signed_in(js=True)
    status = b.driver.execute_async_script(
        "const done = arguments[1]; fetch('/api/forms', {method: 'POST', headers: {'Content-Type': 'application/xml'},"
        " body: arguments[0]}).then(r => done(r.status), e => done(String(e)));", SPEC)
    assert status == 201, status
    yield b
    b.quit()


@pytest.fixture(scope="module")
def admin_nojs(admin):
    b = signed_in(js=False)
    yield b
    b.quit()


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["compact", "regular"])
def test_the_list_screen_searches_on_the_server(size, admin):
    b = admin.viewport(*size).open(f"/forms/{FORM_ID}/new")
    assert b.js_eval("return document.querySelectorAll('input[name=city]').length") == 0, "no option is sent"
    b.driver.find_element(By.ID, "field-title").send_keys("Away")
    b.driver.find_element(By.ID, "field-city").click()
    b.settle()
    screen = b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-drilldown")
    search = screen.find_element(By.CSS_SELECTOR, "input[type=search]")
    assert b.js_eval("return document.activeElement.type") == "search"
    WebDriverWait(b.driver, 15).until(
        lambda d: b.js_eval("return document.querySelectorAll('dialog.fw-drilldown .fw-drilldown__row').length") == 50)
    search.send_keys("city 299")
    labels = "return Array.from(document.querySelectorAll('dialog.fw-drilldown .fw-drilldown__label')).map(e => e.textContent)"
    WebDriverWait(b.driver, 15).until(lambda d: b.js_eval(labels) == ["City 299"])
    b.screenshot(f"long-list-{size[0]}")
    screen.find_element(By.CSS_SELECTOR, ".fw-drilldown__label").click()
    assert wait_gone(b, "dialog.fw-drilldown")
    cell = b.driver.find_element(By.ID, "field-city")
    assert cell.text == "City 299"
    old = b.driver.find_element(By.TAG_NAME, "html")
    b.driver.find_element(By.CSS_SELECTOR, ".fw-navbar button[type=submit]").click()
    WebDriverWait(b.driver, 20).until(lambda d: d.find_element(By.TAG_NAME, "html") != old and "/new" not in d.current_url)
    assert "City 299" in b.driver.find_element(By.TAG_NAME, "body").text


def test_without_javascript_search_keeps_what_was_typed(admin_nojs):
    b = admin_nojs.open(f"/forms/{FORM_ID}/new")
    b.driver.find_element(By.ID, "field-title").send_keys("Away without scripts")
    b.driver.find_element(By.ID, "field-note").send_keys("window seat")
    b.driver.find_element(By.ID, "field-city").send_keys("city 12")
    old = b.driver.find_element(By.TAG_NAME, "html")
    b.driver.find_element(By.XPATH, "//button[normalize-space()='Search']").click()
    WebDriverWait(b.driver, 20).until(lambda d: d.find_element(By.TAG_NAME, "html") != old)
    assert b.driver.find_element(By.ID, "field-title").get_attribute("value") == "Away without scripts"
    assert b.driver.find_element(By.ID, "field-note").get_attribute("value") == "window seat"
    labels = [e.text for e in b.driver.find_elements(By.CSS_SELECTOR, ".fw-longlist__options label")]
    assert labels[:2] == ["City 12", "City 120"], labels
    b.screenshot("long-list-nojs")
    b.driver.find_element(By.XPATH, "//label[normalize-space()='City 120']").click()
    old = b.driver.find_element(By.TAG_NAME, "html")
    b.driver.find_element(By.CSS_SELECTOR, ".fw-navbar button[type=submit]").click()
    WebDriverWait(b.driver, 20).until(lambda d: d.find_element(By.TAG_NAME, "html") != old)
    body = b.driver.find_element(By.TAG_NAME, "body").text
    assert "City 120" in body and "window seat" in body, body


def test_without_javascript_enter_in_the_search_box_searches(admin_nojs):
    """Enter in the search box searches (it does not send the form); Enter in another field
    afterwards sends it."""
    b = admin_nojs.open(f"/forms/{FORM_ID}/new")
    b.driver.find_element(By.ID, "field-title").send_keys("Enter without scripts")
    old = b.driver.find_element(By.TAG_NAME, "html")
    b.driver.find_element(By.ID, "field-city").send_keys("city 77" + Keys.ENTER)
    WebDriverWait(b.driver, 20).until(lambda d: d.find_element(By.TAG_NAME, "html") != old)
    assert b.driver.current_url.endswith(f"/forms/{FORM_ID}"), "the form came back, nothing created"
    assert not b.driver.find_elements(By.CSS_SELECTOR, ".fw-error-summary")
    labels = [e.text for e in b.driver.find_elements(By.CSS_SELECTOR, ".fw-longlist__options label")]
    assert labels[0] == "City 77" and all("77" in label for label in labels), labels
    b.driver.find_element(By.XPATH, "//label[normalize-space()='City 177']").click()
    old = b.driver.find_element(By.TAG_NAME, "html")
    b.driver.find_element(By.ID, "field-title").send_keys(Keys.ENTER)
    WebDriverWait(b.driver, 20).until(lambda d: d.find_element(By.TAG_NAME, "html") != old)
    body = b.driver.find_element(By.TAG_NAME, "body").text
    assert "Enter without scripts" in body and "City 177" in body, body


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["compact", "regular"])
def test_the_list_grows_a_page_at_a_time_with_show_n_more(size, admin):
    b = admin.viewport(*size).open(f"/forms/{FORM_ID}/new")
    b.driver.find_element(By.ID, "field-city").click()
    b.settle()
    rows = "return document.querySelectorAll('dialog.fw-drilldown .fw-drilldown__row').length"
    WebDriverWait(b.driver, 15).until(lambda d: b.js_eval(rows) == 50)
    more = b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-drilldown .fw-drilldown__more")
    assert more.text == "Show 50 more of 250"
    more.click()
    WebDriverWait(b.driver, 15).until(lambda d: b.js_eval(rows) == 100)
    assert b.js_eval("return document.activeElement.labels[0].textContent") == "City 51", "focus on the first new row"
    b.screenshot(f"long-list-more-{size[0]}")
    for _ in range(4):
        b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-drilldown .fw-drilldown__more").click()
        b.settle()
    WebDriverWait(b.driver, 15).until(lambda d: b.js_eval(rows) == 300)
    assert not b.driver.find_elements(By.CSS_SELECTOR, "dialog.fw-drilldown .fw-drilldown__more"), "all shown"
    b.driver.find_element(By.XPATH, "//dialog//label[normalize-space()='City 277']").click()
    assert wait_gone(b, "dialog.fw-drilldown")
    assert b.driver.find_element(By.ID, "field-city").text == "City 277"


def test_without_javascript_a_search_past_a_page_says_how_many_are_shown(admin_nojs):
    b = admin_nojs.open(f"/forms/{FORM_ID}/new")
    b.driver.find_element(By.ID, "field-title").send_keys("Many")
    old = b.driver.find_element(By.TAG_NAME, "html")
    b.driver.find_element(By.ID, "field-city").send_keys("city" + Keys.ENTER)
    WebDriverWait(b.driver, 20).until(lambda d: d.find_element(By.TAG_NAME, "html") != old)
    assert len(b.driver.find_elements(By.CSS_SELECTOR, ".fw-longlist__options input")) == 50
    text = b.driver.find_element(By.CSS_SELECTOR, ".fw-longlist__options").text
    assert "The first 50 of 300 matches are shown; search with more letters to narrow them." in text, text


# An XForm whose 300 cities (100 Dutch, 200 American) are filtered by the country answered: its
# list screen asks the server with the other answers, which offers only that country's cities.
XFORM_ID = "trip_" + uuid.uuid4().hex[:8]
CITIES = "".join(f"<item><name>c{n}</name><label>City {n}</label><country>{'nl' if n % 3 == 0 else 'us'}</country></item>"
                 for n in range(300))
XFORM = f"""<h:html xmlns="http://www.w3.org/2002/xforms" xmlns:h="http://www.w3.org/1999/xhtml">
<h:head><h:title>Filtered trip</h:title><model>
<instance><data id="{XFORM_ID}"><country/><city/></data></instance>
<instance id="cities"><root>{CITIES}</root></instance>
<bind nodeset="/data/country" type="select1"/><bind nodeset="/data/city" type="select1"/>
</model></h:head>
<h:body><select1 ref="/data/country"><label>Country</label>
<item><label>Netherlands</label><value>nl</value></item><item><label>USA</label><value>us</value></item></select1>
<select1 ref="/data/city"><label>City</label>
<itemset nodeset="instance('cities')/root/item[country = /data/country]"><value ref="name"/><label ref="label"/></itemset>
</select1></h:body></h:html>"""


@pytest.fixture(scope="module")
def filtered_form(admin):
    status, answer = admin.driver.execute_async_script(
        "const done = arguments[1]; fetch('/api/forms', {method: 'POST', headers: {'Content-Type': 'application/xml'},"
        " body: arguments[0]}).then(r => r.json().then(j => done([r.status, j])), e => done([0, String(e)]));", XFORM)
    assert status == 201, answer
    return answer["id"]


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["compact", "regular"])
def test_a_list_filtered_by_another_answer_shows_only_its_options(size, admin, filtered_form):
    b = admin.viewport(*size).open(f"/forms/{filtered_form}/new")
    b.js_eval("const radio = document.querySelector('input[name=country][value=nl]');"
              "if (radio) { radio.click(); } else { const s = document.querySelector('select[name=country]');"
              " s.value = 'nl'; s.dispatchEvent(new Event('change', {bubbles: true})); }")
    b.driver.find_element(By.ID, "field-city").click()
    b.settle()
    rows = "return document.querySelectorAll('dialog.fw-drilldown .fw-drilldown__row').length"
    WebDriverWait(b.driver, 15).until(lambda d: b.js_eval(rows) == 50)
    labels = ("return Array.from(document.querySelectorAll('dialog.fw-drilldown .fw-drilldown__label'))"
              ".map(e => e.textContent)")
    shown = b.js_eval(labels)
    assert all(int(label.split()[-1]) % 3 == 0 for label in shown), shown
    more = b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-drilldown .fw-drilldown__more")
    assert more.text == "Show 50 more of 50", "100 Dutch cities in all"
    search = b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-drilldown input[type=search]")
    search.send_keys("city 299")
    WebDriverWait(b.driver, 15).until(lambda d: b.js_eval(labels) == [])
    search.clear()
    search.send_keys("city 297")
    WebDriverWait(b.driver, 15).until(lambda d: b.js_eval(labels) == ["City 297"])
    b.screenshot(f"long-list-filtered-{size[0]}")
    b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-drilldown .fw-drilldown__label").click()
    assert wait_gone(b, "dialog.fw-drilldown")
    assert b.driver.find_element(By.ID, "field-city").text == "City 297"
