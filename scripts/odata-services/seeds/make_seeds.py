"""Writes the committed seed files (sepmra_prod_man.json, incident_management.json, travel.json and
travel_value_helps.json).

Run once by hand: python3 make_seeds.py. Currencies come from Debian's iso-codes package
(/usr/share/iso-codes/json/iso_4217.json); the rest is written out below. Deterministic."""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# Decimals per ISO 4217 that are not 2.
DECIMALS = {"BHD": 3, "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "IQD": 3, "ISK": 0, "JOD": 3,
            "JPY": 0, "KMF": 0, "KRW": 0, "KWD": 3, "LYD": 3, "OMR": 3, "PYG": 0, "RWF": 0,
            "TND": 3, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0}


def currencies():
    rows = json.load(open("/usr/share/iso-codes/json/iso_4217.json"))["4217"]
    return sorted(rows, key=lambda r: r["alpha_3"])


MAIN_CATEGORIES = {
    "Computer Systems": ["Notebooks", "Desktop Computers", "Workstation Ensembles", "Servers",
                         "Tablets", "Handhelds", "PDAs & Organizers"],
    "Computer Components": ["Graphic Cards", "Keyboards", "Mice", "Mousepads", "CD/DVD Drives",
                            "Hard Drives", "Memory", "Motherboards", "Power Supplies"],
    "Printers & Scanners": ["Laser Printers", "Ink Jet Printers", "Multifunction Printers",
                            "Scanners", "Printer Supplies"],
    "Displays & Projectors": ["Flat Screen Monitors", "CRT Screens", "Projectors"],
    "Software": ["Software", "Operating Systems", "Office Software", "Security Software"],
    "Telecommunications": ["Smartphones", "Mobile Phones", "Headsets", "Telecommunications"],
    "Accessories": ["Computer System Accessories", "Bags & Cases", "Cables & Adapters",
                    "Speakers", "Webcams"],
    "Photo & Video": ["Cameras", "Camcorders", "Lenses", "Tripods"],
    "Network": ["Routers", "Switches", "Wireless Access Points", "Network Cards"],
}

DIMENSION_UNITS = [("MM", "mm", "MMT"), ("CM", "cm", "CMT"), ("M", "m", "MTR"), ("KM", "km", "KMT"),
                   ("IN", "in", "INH"), ("FT", "ft", "FOT"), ("YD", "yd", "YRD")]
WEIGHT_UNITS = [("MG", "mg", "MGM"), ("G", "g", "GRM"), ("KG", "kg", "KGM"), ("TO", "t", "TNE"),
                ("LB", "lb", "LBR"), ("OZ", "oz", "ONZ")]
QUANTITY_UNITS = [("EA", "each", "EA"), ("PC", "piece", "PCE"), ("BOX", "box", "BX"),
                  ("PAK", "pack", "PK"), ("CAR", "carton", "CT"), ("DZN", "dozen", "DZN"),
                  ("PAL", "pallet", "PF"), ("SET", "set", "SET"), ("ROL", "roll", "RO"),
                  ("KG", "kg", "KGM"), ("L", "l", "LTR"), ("M", "m", "MTR")]

# The first suppliers are the EPM demo's; the rest are made from the lists below.
EPM_SUPPLIERS = ["SAP", "Becker Berlin", "DelBont Industries", "Talpa", "Panorama Studios",
                 "TECUM", "Asia High tech", "Laurent", "AVANTEL", "Telecomunicaciones Star",
                 "Pear Computing Services", "Alpine Systems", "New Line Design", "HEPA Tec",
                 "Anav Ideon", "Vente Et Réparation de Ordinateur", "Minerva Computer",
                 "Ultrasonic United", "Robert Brown Entertainment", "Mexican Export Company",
                 "Quantum Technologies", "Titanium Tech", "Compu Tech", "Nordlicht Elektronik"]
NAMES = ["Adler", "Bauer", "Cortes", "Dubois", "Eriksen", "Fischer", "Garcia", "Hansen",
         "Ivanova", "Jensen", "Kowalski", "Lambert", "Moreau", "Novak", "Olsen", "Petrov",
         "Quinn", "Rossi", "Schmidt", "Tanaka", "Ueda", "Vasquez", "Weber", "Xu", "Yilmaz",
         "Zimmermann"]
TRADES = ["Office Supplies", "Electronics", "Computer Parts", "Data Systems", "Print Solutions",
          "Logistics", "Components", "Trading"]
FORMS = [("GmbH", "de", "+49 30"), ("Ltd.", "co.uk", "+44 20"), ("S.A.", "es", "+34 91"),
         ("S.r.l.", "it", "+39 02"), ("Inc.", "com", "+1 212"), ("AB", "se", "+46 8")]


def slug(s):
    out = "".join(c.lower() if c.isalnum() else "-" for c in s)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


def suppliers():
    rows = []
    names = list(EPM_SUPPLIERS)
    i = 0
    while len(names) < 320:
        n, t = NAMES[i % len(NAMES)], TRADES[(i // len(NAMES)) % len(TRADES)]
        names.append("%s %s" % (n, t))
        i += 1
    for k, name in enumerate(names):
        form, tld, phone = FORMS[k % len(FORMS)]
        company = name if k < len(EPM_SUPPLIERS) else "%s %s" % (name, form)
        domain = "%s.example" % slug(name)
        rows.append({
            "Supplier": "%d" % (100000000 + k),
            "CompanyName": company.upper(),
            "EmailAddress": "info@%s" % domain,
            "PhoneNumber": "%s %04d %04d" % (phone, 1000 + k * 7 % 9000, 2000 + k * 13 % 8000),
            "FaxNumber": "%s %04d %04d" % (phone, 1000 + k * 7 % 9000, 9000 + k % 1000),
            "URL": "https://www.%s/" % domain,
        })
    return rows


def sepmra():
    cur = currencies()
    seed = {
        "SEPMRA_C_CurrencyValueHelp": [{"Currency": c["alpha_3"], "Currency_Text": c["name"][:40]}
                                       for c in cur],
        "I_Currency": [{"Currency": c["alpha_3"], "Currency_Text": c["name"][:40],
                        "Decimals": DECIMALS.get(c["alpha_3"], 2), "CurrencyISOCode": c["alpha_3"],
                        "IsPrimaryCurrencyForISOCrcy": True} for c in cur],
        "SEPMRA_I_ProductMainCategory": [{"MainProductCategory": m} for m in MAIN_CATEGORIES],
        "SEPMRA_I_ProductCategory": [{"ProductCategory": s, "MainProductCategory": m}
                                     for m, subs in MAIN_CATEGORIES.items() for s in subs],
        "SEPMRA_I_DimensionUnit": [{"UnitOfMeasure": u, "UnitOfMeasure_Text": t, "UnitOfMeasureISOCode": iso}
                                   for u, t, iso in DIMENSION_UNITS],
        "SEPMRA_I_WeightUnit": [{"UnitOfMeasure": u, "UnitOfMeasure_Text": t, "UnitOfMeasureISOCode": iso}
                                for u, t, iso in WEIGHT_UNITS],
        "SEPMRA_I_QuantityUnit": [{"UnitOfMeasure": u, "UnitOfMeasure_Text": t, "UnitOfMeasureISOCode": iso}
                                  for u, t, iso in QUANTITY_UNITS],
        "SEPMRA_C_PD_Supplier": suppliers(),
        "I_Language": [{"Language": "EN", "Language_Text": "English", "LanguageISOCode": "EN"},
                       {"Language": "DE", "Language_Text": "German", "LanguageISOCode": "DE"}],
    }
    products = [
        ("HT-1000", "Notebooks", "Computer Systems", "956.00", "100000000", 30, 18, 3, "CM", 4.2),
        ("HT-1001", "Notebooks", "Computer Systems", "1249.00", "100000001", 29, 17, 3.1, "CM", 4.5),
        ("HT-1010", "Notebooks", "Computer Systems", "1999.00", "100000002", 40, 21, 4.1, "CM", 2.1),
        ("HT-1020", "Flat Screen Monitors", "Displays & Projectors", "1199.00", "100000003", 48, 29, 18, "CM", 6.2),
        ("HT-1030", "Flat Screen Monitors", "Displays & Projectors", "399.00", "100000004", 46, 24, 21, "CM", 4.5),
        ("HT-1040", "Laser Printers", "Printers & Scanners", "679.00", "100000005", 51, 46, 30, "CM", 32),
        ("HT-1050", "Laser Printers", "Printers & Scanners", "799.00", "100000006", 53, 50, 44, "CM", 20),
        ("HT-1060", "Mice", "Computer Components", "29.00", "100000007", 6, 11, 3, "CM", 0.09),
        ("HT-1063", "Keyboards", "Computer Components", "14.00", "100000008", 46, 14, 3, "CM", 2.1),
        ("HT-1100", "Multifunction Printers", "Printers & Scanners", "129.00", "100000009", 51, 40, 30, "CM", 11),
    ]
    seed["SEPMRA_C_PD_Product"] = [{
        "Product": p, "ProductForEdit": p, "ProductCategory": sub, "MainProductCategory": main,
        "Price": price, "Currency": "EUR", "Supplier": sup, "Height": str(h), "Width": str(w),
        "Depth": str(d), "DimensionUnit": du, "Weight": str(wt), "WeightUnit": "KG",
        "ProductBaseUnit": "EA", "OriginalLanguage": "EN",
        "DraftUUID": "00000000-0000-0000-0000-000000000000", "IsActiveEntity": True,
        "HasActiveEntity": False, "HasDraftEntity": False,
    } for p, sub, main, price, sup, h, w, d, du, wt in products]
    return seed


INCIDENT_CATEGORIES = [
    ("H", "Hardware", "Laptops, desktops, monitors and peripherals"),
    ("S", "Software", "Installed applications and licences"),
    ("N", "Network", "LAN, Wi-Fi, VPN and internet access"),
    ("A", "Access", "Accounts, passwords and permissions"),
    ("E", "E-mail", "Mailboxes, calendars and distribution lists"),
    ("P", "Printing", "Printers, scanners and copiers"),
    ("T", "Telephony", "Desk phones, mobiles and conferencing"),
    ("F", "Facilities", "Rooms, power, heating and furniture"),
    ("SEC", "Security", "Malware, phishing and lost devices"),
    ("DB", "Database", "Database availability and performance"),
    ("ERP", "ERP", "Finance, logistics and HR applications"),
    ("WEB", "Web", "Intranet and public web sites"),
    ("MOB", "Mobile Devices", "Tablets and smartphones"),
    ("BKP", "Backup", "Backups and restores"),
    ("O", "Other", "Anything not listed"),
]
PRIORITIES = [("1", "High", 1), ("2", "Medium", 2), ("3", "Low", 3)]
STATUSES = [("N", "New"), ("A", "Assigned"), ("I", "In Process"), ("H", "On Hold"),
            ("R", "Resolved"), ("C", "Closed")]
FIRST = ["Anna", "Bruno", "Chloé", "Daniel", "Elif", "Farid", "Greta", "Hiro", "Ines", "Jonas",
         "Kaja", "Liam", "Mona", "Nils", "Olga", "Pablo", "Rania", "Sven", "Tara", "Uwe"]
LAST = ["Adler", "Berg", "Costa", "Dahl", "Eklund", "Ferrari", "Gómez", "Huber", "Ito", "Jansen"]


def incidents():
    seed = {
        "Category": [{"code": c, "name": n, "descr": d} for c, n, d in INCIDENT_CATEGORIES],
        "Priority": [{"code": c, "name": n, "descr": n + " priority", "criticality": k} for c, n, k in PRIORITIES],
        "IncidentStatus": [{"code": c, "name": n, "descr": n} for c, n in STATUSES],
    }
    people = []
    for i in range(200):
        f, l = FIRST[i % len(FIRST)], LAST[(i // len(FIRST)) % len(LAST)]
        people.append({"ID": "5f0c7a1e-0000-4000-8000-%012d" % (i + 1), "fullName": "%s %s" % (f, l),
                       "emailAddress": "%s.%s%s@company.example" % (slug(f), slug(l), "" if i < 200 else i)})
    seed["Individual"] = people
    rows = [("INC-0001", "Laptop does not start", "H", "1", "A"),
            ("INC-0002", "VPN drops every hour", "N", "2", "I"),
            ("INC-0003", "Cannot print to floor 3 printer", "P", "3", "N"),
            ("INC-0004", "Password reset for ERP", "A", "2", "R"),
            ("INC-0005", "Mailbox full", "E", "3", "C")]
    seed["Incidents"] = [{
        "ID": "1c2b3a4d-0000-4000-8000-%012d" % (i + 1), "IsActiveEntity": True,
        "HasActiveEntity": False, "HasDraftEntity": False, "identifier": ident, "title": title,
        "category_code": cat, "priority_code": prio, "incidentStatus_code": st,
        "description": title + ".", "assignedIndividual_ID": people[i]["ID"],
        "createdAt": "2026-11-0%dT09:00:00Z" % (i + 1), "createdBy": "anonymous",
        "modifiedAt": "2026-11-0%dT09:00:00Z" % (i + 1), "modifiedBy": "anonymous",
    } for i, (ident, title, cat, prio, st) in enumerate(rows)]
    return seed


# The /DMO/ flight reference scenario's agencies and customers, in its style.
AGENCY_CITIES = [("Sunshine Travel", "Rochester", "US"), ("Fly High", "Hamburg", "DE"),
                 ("Happy Hopping", "Berlin", "DE"), ("Pink Panther", "Frankfurt", "DE"),
                 ("Your Choice", "Walldorf", "DE"), ("Rainy, Stormy, Cloudy", "Sydney", "AU"),
                 ("Fly Low", "Paris", "FR"), ("Aussie Travel", "Melbourne", "AU"),
                 ("Caribian Dreams", "Kingston", "JM"), ("Asia By Plane", "Tokyo", "JP"),
                 ("Everywhere", "Rome", "IT"), ("No Name", "Madrid", "ES"),
                 ("Travel from Walldorf", "Walldorf", "DE"), ("Voyager Enterprises", "Vancouver", "CA"),
                 ("Ben McCloskey Ltd.", "Dublin", "IE"), ("Pacific Holidays", "Honolulu", "US"),
                 ("Fjord Reisen", "Bergen", "NO"), ("Alpen Tours", "Innsbruck", "AT"),
                 ("Nile Cruises", "Cairo", "EG"), ("Tulip Travel", "Amsterdam", "NL")]


def travel():
    """The travel service's value-help services (SAP RAP's srvd_f4 for I_Currency, /DMO/I_Agency
    and /DMO/I_Customer), by service and entity set; the travel service itself starts empty."""
    agencies = [{"AgencyID": "%06d" % (70001 + i), "Name": n, "City": c, "CountryCode": k}
                for i, (n, c, k) in enumerate(AGENCY_CITIES)]
    customers = []
    for i in range(60):
        f, l = FIRST[i % len(FIRST)], LAST[(i * 7) % len(LAST)]
        city, country = AGENCY_CITIES[i % len(AGENCY_CITIES)][1:]
        customers.append({"CustomerID": "%06d" % (i + 1), "FirstName": f, "LastName": l, "City": city,
                          "CountryCode": country})
    currencies_ = [{"Currency": r["alpha_3"], "Currency_Text": r["name"], "Decimals": DECIMALS.get(r["alpha_3"], 2),
                    "CurrencyISOCode": r["alpha_3"]} for r in currencies()]
    return {"i_currency": {"I_Currency": currencies_}, "i_agency": {"I_Agency": agencies},
            "i_customer": {"I_Customer": customers}}


for name, seed in (("sepmra_prod_man.json", sepmra()), ("incident_management.json", incidents()),
                   ("travel.json", {"Travel": []}), ("travel_value_helps.json", travel())):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        json.dump(seed, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(name, {k: len(v) for k, v in seed.items()})
