"""Every OData corpus form through a running server, as a person with a browser would use it.

    python3 scripts/corpus_forms.py BASE_URL ADMIN_PASSWORD < form-ids

For each form id (one per line, as `fieldwork import` prints them: `file: id version N`):
  1. its create view answers 200, and every control in it has a label (`<label for>`);
  2. the untouched form, submitted, is refused (422) exactly when the form has required fields
     without a default; the error summary links to each field in error, and each message sits
     under its cell, tied to the control with aria-describedby;
  3. the fields in error are filled with values their schema allows (`GET /api/forms/{id}`), as
     a person would after reading the messages, until the server stores the object (303); the
     detail page it leads to answers 200;
  4. the object's edit view answers 200 with every control labelled, and saving it untouched is
     accepted (303).
Attachments fields get the smallest real file of a type they accept (PNG, JPEG, PDF or text).
Exit status 1 if any form fails; the failures are listed with the server's messages.
Standard library only, so CI needs nothing more than python3.
"""
import base64
import http.client
import json
import re
import sys
import urllib.parse
import uuid
from html.parser import HTMLParser


class Upload:
    """A file part: the smallest real file of a type the field accepts."""

    PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")
    JPEG = base64.b64decode(
        "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////"
        "////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=")
    PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"

    def __init__(self, accept: list[str]):
        def takes(kind: str) -> bool:
            return not accept or any(a in (kind, kind.split("/")[0] + "/*", "*/*") for a in accept)

        if takes("image/png"):
            self.filename, self.content_type, self.data = "pixel.png", "image/png", self.PNG
        elif takes("image/jpeg"):
            self.filename, self.content_type, self.data = "pixel.jpg", "image/jpeg", self.JPEG
        elif takes("application/pdf"):
            self.filename, self.content_type, self.data = "page.pdf", "application/pdf", self.PDF
        else:
            self.filename, self.content_type, self.data = "note.txt", "text/plain", b"A note.\n"


class Session:
    """Cookies and requests against one server, redirects not followed."""

    def __init__(self, base: str):
        url = urllib.parse.urlsplit(base)
        self.host, self.port = url.hostname, url.port or 80
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: bytes | None = None, content_type: str | None = None):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if content_type:
            headers["Content-Type"] = content_type
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read().decode("utf-8", "replace")
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        connection.close()
        return response.status, response.getheader("Location"), data

    def get(self, path: str):
        return self.request("GET", path)

    def post_form(self, path: str, fields: list[tuple[str, str]]):
        return self.request("POST", path, urllib.parse.urlencode(fields).encode(), "application/x-www-form-urlencoded")

    def post_multipart(self, path: str, fields: list[tuple[str, "str | Upload"]]):
        boundary = "----fieldwork" + uuid.uuid4().hex
        body = b""
        for name, value in fields:
            if isinstance(value, Upload):
                head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{value.filename}\"\r\n"
                        f"Content-Type: {value.content_type}\r\n\r\n")
                body += head.encode() + value.data + b"\r\n"
            else:
                body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n").encode() + value.encode() + b"\r\n"
        body += f"--{boundary}--\r\n".encode()
        return self.request("POST", path, body, f"multipart/form-data; boundary={boundary}")


class FormPage(HTMLParser):
    """The first `<form class="fw-form">` of a page: its action, and what a browser would send
    untouched; plus the labels, ids and aria-describedby of the whole page."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.action = None
        self.enctype = "application/x-www-form-urlencoded"
        self.in_form = False
        self.fields: list[tuple[str, str]] = []
        self.controls: list[dict] = []  # visible controls: {"id", "tag", "type", "wrapped"}
        self.label_for: set[str] = set()
        self.ids: set[str] = set()
        self.described: list[str] = []  # every aria-describedby (a fieldset's too)
        self.summary_links: list[str] = []
        self._select: str | None = None
        self._select_first: str | None = None
        self._select_chosen = False
        self._textarea: str | None = None
        self._text = ""
        self._option_value: str | None = None
        self._summary_depth = 0  # open divs of the error summary
        self._label_depth = 0  # open labels: a control inside one is labelled by it
        self._selected_value: str | None = None
        # A <template>'s content is inert: not part of the form (an item list's new item).
        while True:
            inert = re.sub(r"<template\b[^>]*>(?:(?!<template\b).)*?</template>", "", html, flags=re.S)
            if inert == html:
                break
            html = inert
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if "id" in a:
            self.ids.add(a["id"])
        if "aria-describedby" in a:
            self.described.append(a["aria-describedby"])
        if tag == "label":
            self._label_depth += 1
            if "for" in a:
                self.label_for.add(a["for"])
        if tag == "div" and (self._summary_depth or "fw-error-summary" in a.get("class", "").split()):
            self._summary_depth += 1
        if tag == "a" and self._summary_depth and a.get("href", "").startswith("#"):
            self.summary_links.append(a["href"][1:])
        if tag == "form" and "fw-form" in a.get("class", "").split() and self.action is None:
            self.in_form = True
            self.action = a.get("action")
            self.enctype = a.get("enctype", self.enctype)
            return
        if tag in ("input", "select", "textarea") and a.get("type") not in ("hidden", "submit", "button"):
            self.controls.append({"id": a.get("id"), "tag": tag, "type": a.get("type", ""), "wrapped": self._label_depth > 0})
        if not self.in_form:
            return
        name = a.get("name")
        if tag == "input" and name and "disabled" not in a:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.fields.append((name, a.get("value", "on")))
            elif kind not in ("submit", "button", "file"):
                self.fields.append((name, a.get("value", "")))
        elif tag == "select" and name and "disabled" not in a:
            self._select, self._select_first, self._select_chosen = name, None, False
        elif tag == "option" and self._select is not None:
            self._option_value = a.get("value")
            self._text = ""
            if "selected" in a:
                self._select_chosen = True
                self._selected_value = a.get("value", "")
        elif tag == "textarea" and name and "disabled" not in a:
            self._textarea, self._text = name, ""

    def handle_data(self, data):
        self._text += data

    def handle_endtag(self, tag):
        if tag == "label" and self._label_depth:
            self._label_depth -= 1
        if tag == "form" and self.in_form:
            self.in_form = False
        elif tag == "option" and self._select is not None:
            value = self._option_value if self._option_value is not None else self._text
            if self._select_first is None:
                self._select_first = value
        elif tag == "select" and self._select is not None:
            if self._select_chosen:
                self.fields.append((self._select, self._selected_value))
            elif self._select_first is not None:
                self.fields.append((self._select, self._select_first))
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self.fields.append((self._textarea, self._text.lstrip("\n")))
            self._textarea = None
        elif tag == "div" and self._summary_depth:
            self._summary_depth -= 1


def all_fields(schema: dict) -> dict[str, dict]:
    """Every field by name, switch children included."""
    found = {}

    def walk(fields):
        for field in fields:
            found[field["name"]] = field
            walk(field.get("children", []))

    for section in schema["sections"]:
        for group in section["groups"]:
            walk(group.get("fields", []))
    return found


def options(schema: dict, field: dict) -> list[str]:
    groups = field.get("options")
    if groups is None and field.get("list"):
        groups = next((entry["groups"] for entry in schema.get("lists", []) if entry["id"] == field["list"]), [])
    return [option["value"] for group in groups or [] for option in group["options"]]


def text_value(field: dict) -> str:
    """A text a person might type that the field's constraints allow."""
    kind = field.get("type", "text")
    if kind == "email":
        value = "a@example.com"
    elif kind == "tel":
        value = "+4930123456"
    elif kind == "url":
        value = "https://example.com"
    elif "format" in field:
        value = "".join({"#": "1", "A": "A", "*": "x"}.get(c, c) for c in field["format"])
    elif "pattern" in field:
        # What a person would try first for the patterns imports write (digits, numbers, GUIDs).
        candidates = ["12", "7c9e6679-7425-40de-944b-e07fc1f90ae7", "X", "AB12"]
        value = next((c for c in candidates if re.fullmatch(field["pattern"], c)), "X")
    else:
        value = "X" * max(field.get("minLength", 1), 1)
    if "maxLength" in field and "pattern" not in field:
        value = value[: max(field["maxLength"], 1)]
    return value.upper() if field.get("upperCase") else value


def number_value(field: dict) -> str:
    low, high = field.get("min"), field.get("max")
    value = 1.0
    if low is not None and float(low) > value:
        value = float(low)
    if high is not None and float(high) < value:
        value = float(high)
    scale = field.get("scale")
    if scale == 0 or (scale is None and value == int(value)):
        return str(int(value)) if value == int(value) else str(value)
    return f"{value:.{scale}f}" if scale else str(value)


def within(field: dict, value: str) -> str:
    """`value`, moved inside the field's bounds (ISO forms compare as text)."""
    if field.get("min") and value < field["min"]:
        value = field["min"]
    if field.get("max") and value > field["max"]:
        value = field["max"]
    return value


def values_for(schema: dict, field: dict) -> list[tuple[str, str]] | None:
    """What to send for a field in error; None when this script cannot fill it (files)."""
    name, kind = field["name"], field["kind"]
    if kind in ("text", "note"):
        return [(name, text_value(field))]
    if kind in ("number", "slider"):
        return [(name, number_value(field))]
    if kind in ("date", "time", "datetime"):
        return [(name, within(field, {"date": "2026-06-15", "time": "12:00", "datetime": "2026-06-15T12:00"}[kind]))]
    if kind == "duration":
        return [(name + ".hours", "1"), (name + ".minutes", "0")]
    if kind in ("value-list", "buttons", "chips"):
        choices = options(schema, field)
        if not choices:  # an external list with no options uploaded: any text within limits
            return [(name, text_value(field))]
        count = max(field.get("minSelected", 1), 1) if field.get("multiple") else 1
        return [(name, value) for value in choices[:count]]
    if kind == "switch":
        return [(name, "on")]
    if kind == "attachments":
        return [(name, Upload(field.get("accept", [])))] * max(field.get("minCount", 1), 1)
    return None


def sign_in(session: Session, password: str) -> None:
    status, _, page = session.get("/login")
    token = re.search(r'name="_csrf" value="([^"]*)"', page).group(1)
    status, _, _ = session.post_form("/login", [("_csrf", token), ("next", "/"), ("name", "admin"), ("password", password)])
    if status != 303:
        sys.exit(f"corpus_forms: signing in as admin failed ({status})")


TALLY = {"refused first": 0, "fields filled": 0, "edited": 0}


def check_form(session: Session, form_id: str) -> list[str]:
    """The problems of one form; empty when it renders, refuses and stores as it should."""
    problems = []
    status, _, body = session.get(f"/api/forms/{form_id}")
    if status != 200:
        return [f"GET /api/forms/{form_id} answered {status}"]
    schema = json.loads(body)
    fields = all_fields(schema)
    status, _, html = session.get(f"/forms/{form_id}/new")
    if status != 200:
        return [f"the create view answered {status}"]
    page = FormPage(html)
    unlabelled = unlabelled_controls(page)
    if unlabelled:
        problems.append(f"controls without a label: {', '.join(unlabelled)}")
    post = session.post_multipart if page.enctype == "multipart/form-data" else session.post_form
    data = list(page.fields)
    top_level = [f for section in schema["sections"] for group in section["groups"] for f in group.get("fields", [])]
    must_fill = [f["name"] for f in top_level if f["required"] and f["editable"] != "false" and "default" not in f and f["kind"] != "switch"]

    for attempt in range(4):
        status, location, answer = post(page.action, data)
        if status == 303:
            if attempt == 0 and must_fill:
                problems.append(f"the untouched form was stored, though {', '.join(must_fill)} are required")
            detail_status, _, _ = session.get(location)
            if detail_status != 200:
                problems.append(f"the detail page {location} answered {detail_status}")
                return problems
            return problems + check_edit(session, location)
        if status != 422:
            return problems + [f"the submission answered {status}: {answer[:200]}"]
        refused = FormPage(answer)
        in_error = [link[len("field-"):] for link in refused.summary_links if link.startswith("field-")]
        if attempt == 0:
            TALLY["refused first"] += 1
        if attempt == 0 and not must_fill:
            problems.append(f"the untouched form was refused: {', '.join(in_error)}")
        if attempt == 0 and must_fill and not set(must_fill) <= set(in_error):
            problems.append(f"the error summary misses required fields: {', '.join(sorted(set(must_fill) - set(in_error)))}")
        for link in refused.summary_links:
            if link not in refused.ids:
                problems.append(f"the error summary links to #{link}, which is not on the page")
            message = link + "-error"
            if message not in refused.ids:
                problems.append(f"no message under {link}")
            elif not any(message in described.split() for described in refused.described):
                problems.append(f"the message {message} is not tied to a control with aria-describedby")
        if problems:
            return problems
        messages = re.findall(r'<a href="#(field-[^"]+)">([^<]*)</a>', answer)
        filled = set()
        for name in in_error:
            field = fields.get(name)
            values = values_for(schema, field) if field else None
            if values is None:
                return problems + [f"cannot fill {name}: {messages}"]
            filled.add(name)
            TALLY["fields filled"] += 1
            keys = {key for key, _ in values} | {name}
            data = [(k, v) for k, v in data if k not in keys and not k.startswith(name + ".")] + values
        if not filled:
            return problems + [f"refused without a field in error: {messages}"]
    return problems + [f"still refused after filling every field in error: {messages}"]


def unlabelled_controls(page: FormPage) -> list[str]:
    """Controls with neither a `<label for>` nor a label around them."""
    return [c["id"] or c["tag"] for c in page.controls if not c["wrapped"] and (not c["id"] or c["id"] not in page.label_for)]


def check_edit(session: Session, detail: str) -> list[str]:
    """The stored object's edit view answers 200 with a label for every control, and saving it
    untouched is accepted (303 back to the object)."""
    status, _, html = session.get(detail + "/edit")
    if status != 200:
        return [f"the edit view {detail}/edit answered {status}"]
    page = FormPage(html)
    unlabelled = unlabelled_controls(page)
    if unlabelled:
        return [f"edit view controls without a label: {', '.join(unlabelled)}"]
    post = session.post_multipart if page.enctype == "multipart/form-data" else session.post_form
    status, location, answer = post(page.action, list(page.fields))
    if status != 303:
        messages = re.findall(r'<a href="#(field-[^"]+)">([^<]*)</a>', answer)
        return [f"saving the edit view untouched answered {status}: {messages or answer[:200]}"]
    TALLY["edited"] += 1
    return []


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: python3 scripts/corpus_forms.py BASE_URL ADMIN_PASSWORD < form-ids")
    session = Session(sys.argv[1])
    sign_in(session, sys.argv[2])
    ids = []
    for line in sys.stdin:
        match = re.search(r": (\S+) version \d+$", line.strip())
        if match and match.group(1) not in ids:
            ids.append(match.group(1))
    failures = {}
    for form_id in ids:
        problems = check_form(session, form_id)
        if problems:
            failures[form_id] = problems
    for form_id, problems in failures.items():
        print(f"corpus_forms: {form_id}:")
        for problem in problems:
            print(f"  {problem}")
    print(f"corpus_forms: {len(ids) - len(failures)} of {len(ids)} forms render, refuse what is missing, store a filled object "
          f"and save it again from its edit view ({TALLY['refused first']} refused untouched, then {TALLY['fields filled']} "
          f"fields filled after the messages; {TALLY['edited']} edit views saved)")
    sys.exit(1 if failures or not ids else 0)


if __name__ == "__main__":
    main()
