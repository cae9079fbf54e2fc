"""A list's title (an OData Common.ValueList Label) heads its drill-down screen in headless
Chromium; a list without one is headed by its field's label; without JavaScript a long list
shows its title above its options."""
import uuid

import pytest
from selenium.webdriver.common.by import By

from conftest import signed_in, wait_gone

NAMESPACE = "titled" + uuid.uuid4().hex[:8]
EDMX = f"""<?xml version="1.0" encoding="utf-8"?>
<edmx:Edmx Version="4.0" xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx">
<edmx:Reference Uri="https://sap.github.io/odata-vocabularies/vocabularies/Common.xml">
<edmx:Include Namespace="com.sap.vocabularies.Common.v1" Alias="Common"/></edmx:Reference>
<edmx:DataServices><Schema Namespace="{NAMESPACE}" Alias="self" xmlns="http://docs.oasis-open.org/odata/ns/edm">
<EntityType Name="Order"><Key><PropertyRef Name="OrderID"/></Key>
<Property Name="OrderID" Type="Edm.String" Nullable="false" MaxLength="10"/>
<Property Name="Supplier" Type="Edm.String" MaxLength="10"/>
<Property Name="City" Type="Edm.String" MaxLength="10"/>
<Property Name="Country" Type="Edm.String" MaxLength="3"/></EntityType>
<EntityContainer Name="Container"><EntitySet Name="Orders" EntityType="self.Order"/></EntityContainer>
<Annotations Target="self.Order/Supplier"><Annotation Term="Common.Label" String="Supplier"/>
<Annotation Term="Common.ValueList"><Record><PropertyValue Property="Label" String="Approved suppliers"/></Record></Annotation></Annotations>
<Annotations Target="self.Order/City"><Annotation Term="Common.Label" String="City"/>
<Annotation Term="Common.ValueList"><Record><PropertyValue Property="Label" String="Cities &amp; towns"/></Record></Annotation></Annotations>
<Annotations Target="self.Order/Country"><Annotation Term="Common.Label" String="Country"/>
<Annotation Term="Common.ValueList"><Record><PropertyValue Property="CollectionPath" String="Countries"/></Record></Annotation></Annotations>
</Schema></edmx:DataServices></edmx:Edmx>"""
LISTS = {
    "Supplier": "s1,Acme\ns2,Globex\n",
    "City": "".join(f"c{n},City {n}\n" for n in range(1, 301)),
    "Country": "de,Germany\nfr,France\n",
}


def fetch(b, method, path, body, content_type):
    return b.driver.execute_async_script(
        "const done = arguments[4]; fetch(arguments[1], {method: arguments[0], headers: {'Content-Type': arguments[3]},"
        " body: arguments[2]}).then(r => r.json().then(j => done([r.status, j])), e => done([0, String(e)]));",
        method, path, body, content_type)


@pytest.fixture(scope="module")
def admin():
    """The admin's browser, with the form imported and its lists' options uploaded; yields the form's id."""
    b = signed_in(js=True)
    status, answer = fetch(b, "POST", "/api/forms", EDMX, "application/xml")
    assert status == 201, answer
    form_id = answer["id"]
    for list_id, csv in LISTS.items():
        status, uploaded = fetch(b, "PUT", f"/api/forms/{form_id}/lists/{list_id}", csv, "text/csv")
        assert status == 200, uploaded
    yield b, form_id
    b.quit()


def heading_of(b, name):
    """Opens a value list's drill-down screen and reads its heading, then goes back."""
    b.driver.find_element(By.ID, f"field-{name}").click()
    b.settle()
    screen = b.driver.find_element(By.CSS_SELECTOR, "dialog.fw-drilldown")
    heading = screen.find_element(By.CSS_SELECTOR, "h2").text
    screen.find_element(By.CSS_SELECTOR, ".fw-drilldown__back").click()
    assert wait_gone(b, "dialog.fw-drilldown")
    return heading


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["compact", "regular"])
def test_a_titled_list_heads_its_drill_down_screen(size, admin):
    b, form_id = admin
    b.viewport(*size).open(f"/forms/{form_id}/new")
    assert heading_of(b, "Supplier") == "Approved suppliers"
    assert heading_of(b, "City") == "Cities & towns", "a long list too"
    assert heading_of(b, "Country") == "Country", "no title: the field's label"
    # The cell is still named by its field's label.
    assert b.driver.find_element(By.ID, "field-Supplier").get_attribute("aria-label") == "Supplier: none chosen"


def test_without_javascript_a_long_list_shows_its_title(admin):
    _, form_id = admin
    b = signed_in(js=False)
    try:
        b.open(f"/forms/{form_id}/new")
        assert b.driver.find_element(By.CSS_SELECTOR, ".fw-longlist__title").text == "Cities & towns"
        group = b.driver.find_element(By.CSS_SELECTOR, ".fw-longlist__options")
        assert group.get_attribute("aria-labelledby") == "field-City-list"
    finally:
        b.quit()
