"""An item's value helps in a form connected to its real OData service, in headless Chromium: the
travel form of SAP RAP's travel service (corpus oux__travel_v4), its bookings' airline and flight
asked in the booking entity's value helps (services of their own, served by v4_service.py). With
JavaScript, a booking added in place has list screens asking the service with that booking's own
airline, and choosing a flight fills the booking's flight date, price and currency; without it,
the booking's Search and Use this choice do the same. Runs when FIELDWORK_ODATA_PYTHON names the
Python of the test services' virtual environment, as .ci/run sets it."""
import os

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import describe_violations, failing_violations, signed_in, wait_gone
from test_service_forms import (
    CORPUS, PYTHON, SERVICES, SHOWN_QUERY_HOOK, click, import_and_connect, pick_without_script, reload_waiting,
    start_service)

TRAVEL_FILE = os.path.join(CORPUS, "odata-v4", "oux__travel_v4.metadata.xml")
TRAVEL_ROOT = "/sap/opu/odata4/dmo/ui_travel_mduu_o4/srvd/dmo/sd_travel_mduu/0001/"
TRAVEL = "com-sap-gateway-srvd-dmo-sd-travel-mduu-v0001-travel"
SIZES = [(390, 844), (1280, 800)]
SIZE_IDS = ["compact", "regular"]

pytestmark = pytest.mark.skipif(not PYTHON, reason="FIELDWORK_ODATA_PYTHON is not set: no real OData service")


@pytest.fixture(scope="module")
def travel_service():
    process, url = start_service(
        "v4_service.py", TRAVEL_FILE, "travel.json",
        ["--root", TRAVEL_ROOT, "--value-helps", os.path.join(SERVICES, "value-helps"),
         "--value-help-seed", os.path.join(SERVICES, "seeds", "travel_value_helps.json")])
    yield url
    process.kill()


@pytest.fixture(scope="module")
def admin(travel_service):
    b = signed_in(js=True)
    import_and_connect(b, TRAVEL_FILE, TRAVEL, travel_service)
    yield b
    b.quit()


@pytest.fixture(scope="module")
def admin_nojs(admin):
    b = signed_in(js=False)
    yield b
    b.quit()


def value(b, name):
    return b.js_eval("return document.querySelector(`[name=\"${arguments[0]}\"]:not([type=radio])`)?.value ?? ''", name)


def chosen(b, name):
    """The value chosen in a long list (its checked radio)."""
    return b.js_eval(
        "return document.querySelector(`.fw-longlist[data-name=\"${arguments[0]}\"] input:checked`)?.value ?? ''", name)


def choose_on_screen(b, field, query, row_text):
    """Opens a long list's list screen, searches `query` and, once the service's answer is shown,
    chooses the first row whose text holds `row_text`."""
    b.driver.execute_script(SHOWN_QUERY_HOOK)
    cell = b.driver.find_element(By.ID, f"field-{field}")
    b.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", cell)
    cell.click()
    b.settle()
    screen = b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-drilldown")
    screen.find_element(By.CSS_SELECTOR, "input[type=search]").send_keys(query)
    WebDriverWait(b.driver, 20).until(lambda d: b.js_eval("return window.fwShownQuery") == query)
    rows = b.driver.find_elements(By.CSS_SELECTOR, "dialog.fw-drilldown .fw-drilldown__label")
    row = next((r for r in rows if row_text in r.get_attribute("textContent")), None)
    assert row is not None, [r.get_attribute("textContent") for r in rows]
    b.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
    row.click()
    assert wait_gone(b, "dialog.fw-drilldown")


def asked(b, field):
    """The addresses the page asked a field's options at (resource timing)."""
    return b.js_eval("return performance.getEntriesByType('resource').map(e => decodeURIComponent(e.name))"
                     ".filter(n => n.includes(`/fields/${arguments[0]}/options`))", field)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_bookings_flight_is_chosen_from_its_airlines_and_fills_the_booking(size, admin):
    b = admin.viewport(*size).open(f"/forms/{TRAVEL}/new")
    add = b.driver.find_element(By.CSS_SELECTOR, "button[name=_add][value=_Booking]")
    b.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", add)
    add.click()
    b.settle()
    # The booking added in place has its own list screens, asking about that booking.
    choose_on_screen(b, "_Booking[0].AirlineID", "American", "American Airlines")
    assert chosen(b, "_Booking[0].AirlineID") == "AA"
    choose_on_screen(b, "_Booking[0].ConnectionID", "0017", "")
    WebDriverWait(b.driver, 15).until(lambda d: value(b, "_Booking[0].FlightDate") == "2026-12-01")
    assert value(b, "_Booking[0].FlightPrice").startswith("422")
    WebDriverWait(b.driver, 15).until(lambda d: chosen(b, "_Booking[0].CurrencyCode") == "USD")
    last = asked(b, "_Booking[0].ConnectionID")[-1]
    assert "_Booking[0].AirlineID=AA" in last, last
    b.screenshot(f"service-booking-filled-{size[0]}")
    violations = failing_violations(b.axe())
    assert not violations, describe_violations(violations)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_without_javascript_a_bookings_search_and_choice_fill_the_booking(size, admin_nojs):
    b = admin_nojs.viewport(*size).open(f"/forms/{TRAVEL}/new")
    add = b.driver.find_element(By.CSS_SELECTOR, "button[name=_add][value=_Booking]")
    reload_waiting(b, lambda: click(b, add))
    pick_without_script(b, "_Booking[0].AirlineID", "American", "American Airlines Inc.")
    pick_without_script(b, "_Booking[0].ConnectionID", "0017")
    button = b.driver.find_element(By.CSS_SELECTOR, "button[name=_pick][value='_Booking[0].ConnectionID']")
    b.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    reload_waiting(b, lambda: click(b, button), again=lambda: b.driver.execute_script("arguments[0].click()", button))
    assert value(b, "_Booking[0].FlightDate") == "2026-12-01"
    assert value(b, "_Booking[0].FlightPrice").startswith("422")
    assert chosen(b, "_Booking[0].AirlineID") == "AA"
    b.screenshot(f"service-booking-nojs-{size[0]}")
