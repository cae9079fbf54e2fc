"""Every XForm of the corpus through running servers, as a browser with and without JavaScript
would use it.

    python3 scripts/corpus_xforms.py ADMIN_PASSWORD ADMIN_TOKEN < lines

Each line of standard input is `BASE_URL FILE: ID version N`: the server that holds the form,
then what `fieldwork import` printed for it. (Two corpus files share the form id `widgets`, so
the caller imports them into data folders of their own, one server each.) For each form:
  1. `GET /api/forms/{id}` answers 200 (the questions are its fields); the create view
     `/forms/{id}/new` answers 200, every control in it has a label, and its
     `<form data-rules>` names the rules route;
  2. the rules route, sent the untouched form (urlencoded, as rules.js sends it), answers 200
     JSON `{"hidden", "required", "values"}` naming only the form's fields, and hides exactly
     the cells the page hid;
  3. the form sent with its Update button (`_update=1`, no JavaScript) answers 200, the same
     form again with no error summary, hiding the same cells;
  4. the untouched create answers 303 or 422: a 422 page has an error summary whose every link
     points to an element on the page, and that names every question the rules route called
     required and that is empty; a 303 only when no such question exists, and then the detail
     page and the edit view answer 200 (every control labelled) and the edit saved untouched
     is accepted (303);
  5. the JSON API (`POST /api/forms/{id}/objects` with `{}`, the admin token) answers 201 or
     422 with error codes of the documented kinds, refuses exactly when the browser's create
     was refused, and never refuses as `choice` (no option offered) a default answer whose
     every value the page offers and checks;
  6. a form with item lists (its repeats) takes items: for each list people add to, Add without
     JavaScript (`_add=LIST`) answers the form again with one item more (its inputs named
     `LIST[N].…`), the rules route asked with it names only the form's fields and items' inputs,
     and its create answers 303 or 422 with a summary linking to the page; the JSON API takes the
     list as two items (`{"LIST": [{}, {}]}`: 201, or 422 naming only known fields and items).
     Throughout, a rules answer or refusal may name an item's input (`members[1].age`) where the
     list and field exist.
No request may answer 5xx (or hang). One line a form; exit status 1 if any form fails
other than by a server bug listed in KNOWN below. Standard library only.
"""
import http.client
import json
import os
import re
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_forms import FormPage, Session, all_fields, sign_in, unlabelled_controls  # noqa: E402

# The codes of FieldIssue.Code (Sources/FormModel/Validation/Submission.swift): every code the server gives.
API_CODES = {"constraint", "choice", "email", "file-size", "file-type", "format", "invalid", "malformed",
             "idempotency-key-reused", "max", "max-count", "max-selected", "min", "min-count", "min-selected",
             "minutes", "not-an-option", "pattern", "required", "scale", "service", "service-unavailable",
             "unchecked", "step", "tel", "too-long", "too-many", "too-short", "type", "url"}


# Server bugs this run finds and that are not fixed yet, by corpus file: the start of each
# problem line they cause. Such a form is reported as a known failure and does not fail the run;
# a known failure no longer seen does (take it off this list then).
KNOWN: dict[str, list[str]] = {}


class XFormPage(FormPage):
    """A create view, with what an XForm page adds: the rules route, the Update button, which
    question cells are hidden and the notes shown as text."""

    def __init__(self, html: str):
        self.data_rules = None
        self.has_update = False
        self.cells: dict[str, bool] = {}  # data-field -> hidden
        self.notes = 0
        self.offered: dict[str, set[str]] = {}  # the choices each choice question shows
        super().__init__(html)

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form" and "fw-form" in a.get("class", "").split() and self.action is None:
            self.data_rules = a.get("data-rules")
        if tag == "button" and a.get("name") == "_update":
            self.has_update = True
        if tag == "div" and "fw-cell" in a.get("class", "").split() and "data-field" in a:
            self.cells[a["data-field"]] = "hidden" in a
        if tag == "p" and a.get("class") == "fw-label":
            self.notes += 1
        if tag == "input" and a.get("type") in ("checkbox", "radio") and a.get("name"):
            self.offered.setdefault(a["name"], set()).add(a.get("value", "on"))
        if tag == "option" and self._select is not None and a.get("value"):
            self.offered.setdefault(self._select, set()).add(a["value"])
        before = len(self.controls)
        super().handle_starttag(tag, attrs)
        if len(self.controls) > before:
            # A slider's range input is hidden without JavaScript and named by aria-label.
            self.controls[-1]["named"] = bool(a.get("aria-label") or a.get("aria-labelledby"))
            self.controls[-1]["hidden"] = "hidden" in a

    def unlabelled(self) -> list[str]:
        """Visible controls with neither a `<label for>`, a label around them nor an aria name
        (unlabelled_controls of corpus_forms.py, which counts only labels)."""
        named = {c["id"] for c in self.controls if c.get("named") or c.get("hidden")}
        return [c for c in unlabelled_controls(self) if c not in named]

    @property
    def hidden(self) -> set[str]:
        return {name for name, hidden in self.cells.items() if hidden}


class Server:
    """One server: a signed-in admin session, and the admin token for the JSON API."""

    def __init__(self, base: str, password: str, token: str):
        self.base = base
        self.session = Session(base)
        self.token = token
        sign_in(self.session, password)
        self.statuses: list[tuple[str, str, int]] = []
        self.current = ""  # the request under way, for a report of one that never answers

    def get(self, path: str):
        self.current = f"GET {path}"
        answer = self.session.get(path)
        self.statuses.append(("GET", path, answer[0]))
        return answer

    def post(self, path: str, fields, multipart: bool):
        self.current = f"POST {path}"
        send = self.session.post_multipart if multipart else self.session.post_form
        answer = send(path, fields)
        self.statuses.append(("POST", path, answer[0]))
        return answer

    def rules(self, path: str, fields):
        """As rules.js asks: urlencoded, file parts left out, JSON accepted."""
        self.current = f"POST {path}"
        body = urllib.parse.urlencode(fields).encode()
        connection = http.client.HTTPConnection(self.session.host, self.session.port, timeout=60)
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json",
                   "Cookie": "; ".join(f"{k}={v}" for k, v in self.session.cookies.items())}
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read().decode("utf-8", "replace")
        kind = response.getheader("Content-Type", "")
        connection.close()
        self.statuses.append(("POST", path, response.status))
        return response.status, kind, data

    def api_create(self, form_id: str, body: dict):
        path = f"/api/forms/{form_id}/objects"
        self.current = f"POST {path}"
        connection = http.client.HTTPConnection(self.session.host, self.session.port, timeout=60)
        connection.request("POST", path, body=json.dumps(body).encode(),
                           headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.token}"})
        response = connection.getresponse()
        data = response.read().decode("utf-8", "replace")
        connection.close()
        self.statuses.append(("POST", path, response.status))
        return response.status, data


def count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary_fields(page: FormPage) -> set[str]:
    """The field names the error summary links to (`#field-NAME`, `#field-NAME-1`, …)."""
    return {link[len("field-"):] for link in page.summary_links if link.startswith("field-")}


def names(links: set[str], fields: dict) -> set[str]:
    """Summary link targets as field names: a link to a choice's later option ends in `-N`."""
    found = set()
    for link in links:
        if link in fields:
            found.add(link)
        else:
            found.add(re.sub(r"-\d+$", "", link))
    return found


def item_lists(schema: dict) -> dict[str, dict]:
    """The form's own item lists by name (their items' lists within)."""
    return {group["items"]["name"]: group["items"]
            for section in schema["sections"] for group in section["groups"] if "items" in group}


def known(name: str, fields: dict, lists: dict) -> bool:
    """Whether a name the server gives is the form's: a field, a list's path or count
    (`members`, `members[0].doses`), or an item's input (`members[1].age`) of a list and field
    the form has."""
    if name in fields or name in lists:
        return True
    match = re.fullmatch(r"(\w+)\[\d+\](?:\.(.+))?", name)
    if not match or match.group(1) not in lists:
        return False
    item = lists[match.group(1)]
    rest = match.group(2)
    if rest is None:
        return True
    inner_fields = {f["name"]: f for g in item["groups"] for f in g.get("fields", [])}
    for field in list(inner_fields.values()):
        for child in field.get("children", []):
            inner_fields[child["name"]] = child
    inner_lists = {g["items"]["name"]: g["items"] for g in item["groups"] if "items" in g}
    return known(rest, inner_fields, inner_lists)


def check_items(server: Server, form_id: str, schema: dict, fields: dict, page, multipart: bool,
                problems: list[str]) -> list[str]:
    """Step 6: items added through the page without JavaScript, and sent to the JSON API."""
    outcome = []
    lists = item_lists(schema)
    for name, item_list in lists.items():
        if item_list.get("addRemove") is False:
            continue
        untouched = list(page.fields)
        before = len({k.split("]")[0] for k, _ in untouched if k.startswith(name + "[")})
        status, location, added_html = server.post(page.action, untouched + [("_add", name)], multipart)
        if status != 200:
            problems.append(f"Add {name} (_add, no JavaScript) answered {status}: {location or added_html[:300]}")
            continue
        added = XFormPage(added_html)
        if not any(k.startswith(f"{name}[{before}].") for k, _ in added.fields):
            problems.append(f"Add {name}: the form came back without inputs {name}[{before}].…")
            continue
        if added.data_rules:
            rs, kind, ra = server.rules(added.data_rules, list(added.fields))
            if rs != 200 or "json" not in kind:
                problems.append(f"POST {added.data_rules} with {name} items answered {rs}: {ra[:200]}")
            else:
                verdict = json.loads(ra)
                named = set(verdict.get("hidden", [])) | set(verdict.get("required", [])) | set(verdict.get("values", {}))
                unknown = sorted(n for n in named if not known(n, fields, lists))
                if unknown:
                    problems.append(f"the rules answer with {name} items names fields the form lacks: {', '.join(unknown[:8])}")
        status, location, answer = server.post(added.action, list(added.fields), multipart)
        if status == 422:
            refused = FormPage(answer)
            missing = [link for link in refused.summary_links if link not in refused.ids]
            if not refused.summary_links or missing:
                problems.append(f"the create with {name} items answered 422 with summary links {refused.summary_links[:4]} "
                                f"(not on the page: {missing[:4]})")
            outcome.append(f"{name} +1 item: 422")
        elif status == 303:
            outcome.append(f"{name} +1 item: 303")
        else:
            problems.append(f"the create with {name} items answered {status}: {location or answer[:300]}")
        status, answer = server.api_create(form_id, {name: [{}, {}]})
        if status == 422:
            try:
                errors = json.loads(answer)["errors"]
                unknown = sorted({e["field"] for e in errors if e["field"] and not known(e["field"], fields, lists)})
                if unknown:
                    problems.append(f"API with two {name} items: errors name fields the form lacks: {', '.join(unknown[:8])}")
                outcome.append(f"API 2 {name} items: 422")
            except (ValueError, KeyError, TypeError):
                problems.append(f"API with two {name} items: 422 without errors[{{code, field, message}}]: {answer[:200]}")
        elif status == 201:
            items = json.loads(answer).get("values", {}).get(name, [])
            if len(items) != 2 or not all(isinstance(i, dict) and i.get("_id") for i in items):
                problems.append(f"API with two {name} items: 201 answering {len(items)} items without ids: {answer[:200]}")
            outcome.append(f"API 2 {name} items: 201")
        else:
            problems.append(f"API with two {name} items answered {status}: {answer[:300]}")
    return outcome


def check_form(server: Server, form_id: str) -> tuple[str, list[str]]:
    """One line about the form, and its problems (empty when it passes)."""
    problems: list[str] = []
    status, _, body = server.get(f"/api/forms/{form_id}")
    if status != 200:
        return "", [f"GET /api/forms/{form_id} answered {status}"]
    schema = json.loads(body)
    fields = all_fields(schema)
    lists = item_lists(schema)
    status, location, html = server.get(f"/forms/{form_id}/new")
    if status != 200:
        return "", [f"GET /forms/{form_id}/new answered {status} {location or html[:300]}"]
    page = XFormPage(html)
    unlabelled = page.unlabelled()
    if unlabelled:
        problems.append(f"create view: controls without a label: {', '.join(unlabelled[:10])}")
    if page.action is None:
        return "", problems + ["create view: no <form class=fw-form>"]
    multipart = page.enctype == "multipart/form-data"
    untouched = list(page.fields)
    outcome = [count(len(fields), "question"), f"{len(page.hidden)} hidden at start", count(page.notes, "note")]

    # 2. The rules route, for the untouched answers.
    required: list[str] = []
    if not page.data_rules:
        problems.append("create view: the form has no data-rules")
    else:
        status, kind, answer = server.rules(page.data_rules, untouched)
        if status != 200:
            problems.append(f"POST {page.data_rules} (untouched) answered {status}: {answer[:300]}")
        elif "json" not in kind:
            problems.append(f"POST {page.data_rules} answered {kind}, not JSON")
        else:
            verdict = json.loads(answer)
            if not (isinstance(verdict.get("hidden"), list) and isinstance(verdict.get("required"), list)
                    and isinstance(verdict.get("values"), dict)):
                problems.append(f"POST {page.data_rules}: not {{hidden, required, values}}: {answer[:200]}")
            else:
                named = set(verdict["hidden"]) | set(verdict["required"]) | set(verdict["values"])
                unknown = {name for name in named if not known(name, fields, lists)}
                if unknown:
                    problems.append(f"the rules answer names fields the form lacks: {', '.join(sorted(unknown))}")
                shown_cells = set(page.cells)
                said_hidden = set(verdict["hidden"]) & shown_cells
                if said_hidden != page.hidden:
                    problems.append(
                        "the page hides other cells than the rules answer for the same answers: page only "
                        f"{sorted(page.hidden - said_hidden)[:8]}, rules only {sorted(said_hidden - page.hidden)[:8]}")
                required = verdict["required"]
                outcome.append(f"rules {len(verdict['hidden'])} hidden/{len(required)} required")

    # 3. The Update button without JavaScript.
    status, location, again = server.post(page.action, untouched + [("_update", "1")], multipart)
    if status != 200:
        problems.append(f"Update (_update=1) answered {status}: {location or again[:300]}")
    else:
        updated = XFormPage(again)
        if updated.summary_links or "fw-error-summary" in again:
            problems.append(f"Update answered with an error summary: {updated.summary_links[:8]}")
        if updated.hidden != page.hidden:
            problems.append(f"Update hides other cells than the create view: {sorted(updated.hidden ^ page.hidden)[:8]}")
    if not page.has_update and page.data_rules:
        problems.append("create view: data-rules but no Update button (_update)")

    # 4. The untouched create.
    sent = dict(untouched)
    empty_required = [name for name in required if not sent.get(name) and not any(k.startswith(name + ".") and v for k, v in untouched)]
    status, location, answer = server.post(page.action, untouched, multipart)
    web_refused = status == 422
    if status == 422:
        refused = FormPage(answer)
        if not refused.summary_links:
            problems.append("the untouched create answered 422 without an error summary linking to the fields")
        missing_ids = [link for link in refused.summary_links if link not in refused.ids]
        if missing_ids:
            problems.append(f"the error summary links to ids not on the page: {', '.join('#' + m for m in missing_ids[:8])}")
        in_error = names(summary_fields(refused), fields)
        unnamed = [name for name in empty_required if name not in in_error]
        if unnamed:
            problems.append(f"required (by the rules answer) and empty, yet not in the error summary: {', '.join(unnamed[:8])}")
        outcome.append(f"untouched create 422 ({count(len(refused.summary_links), 'error')})")
    elif status == 303 and location:
        if empty_required:
            problems.append(f"the untouched create was stored though the rules answer requires {', '.join(empty_required[:8])}")
        detail_status, _, _ = server.get(location)
        if detail_status != 200:
            problems.append(f"the detail page {location} answered {detail_status}")
        else:
            status_edit, _, edit_html = server.get(location + "/edit")
            if status_edit != 200:
                problems.append(f"the edit view {location}/edit answered {status_edit}")
            else:
                edit = XFormPage(edit_html)
                unlabelled = edit.unlabelled()
                if unlabelled:
                    problems.append(f"edit view: controls without a label: {', '.join(unlabelled[:10])}")
                if edit.data_rules:
                    rs, kind, ra = server.rules(edit.data_rules, list(edit.fields))
                    if rs != 200 or "json" not in kind:
                        problems.append(f"POST {edit.data_rules} (edit view, untouched) answered {rs}: {ra[:200]}")
                save, _, saved = server.post(edit.action, list(edit.fields), edit.enctype == "multipart/form-data")
                if save != 303:
                    errors = re.findall(r'<a href="#([^"]+)">([^<]*)</a>', saved)
                    problems.append(f"saving the edit view untouched answered {save}: {errors[:6] or saved[:200]}")
        outcome.append("untouched create 303, detail and edit 200")
    else:
        problems.append(f"the untouched create answered {status}: {location or answer[:300]}")

    # 5. The JSON API, with nothing sent.
    status, answer = server.api_create(form_id, {})
    if status == 422:
        try:
            errors = json.loads(answer)["errors"]
            codes = {e["code"] for e in errors}
            bad = codes - API_CODES
            if bad:
                problems.append(f"API 422 with undocumented codes {sorted(bad)}")
            for error in errors:
                shown = [v for k, v in untouched if k == error["field"]]
                if error["code"] == "choice" and shown and set(shown) <= page.offered.get(error["field"], set()):
                    problems.append(f"the untouched create refuses {error['field']} as no option offered (choice), "
                                    f"though the page offers and checks {shown}")
            counts = [f"{code} {sum(e['code'] == code for e in errors)}" for code in sorted(codes)]
            outcome.append(f"API 422 ({', '.join(counts)})")
        except (ValueError, KeyError, TypeError):
            problems.append(f"API 422 without errors[{{code, field, message}}]: {answer[:200]}")
    elif status == 201:
        outcome.append("API 201")
    else:
        problems.append(f"POST /api/forms/{form_id}/objects {{}} answered {status}: {answer[:300]}")
    if status in (201, 422) and web_refused != (status == 422):
        problems.append(f"the browser's untouched create was {'refused' if web_refused else 'stored'}, the API's {{}} "
                        f"{'refused' if status == 422 else 'stored'}")

    # 6. Items.
    if lists:
        outcome += check_items(server, form_id, schema, fields, page, multipart, problems)
    return ", ".join(outcome), problems


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: python3 scripts/corpus_xforms.py ADMIN_PASSWORD ADMIN_TOKEN < 'BASE_URL FILE: ID version N' lines")
    password, token = sys.argv[1], sys.argv[2]
    servers: dict[str, Server] = {}
    forms: list[tuple[str, str, str]] = []
    for line in sys.stdin:
        match = re.fullmatch(r"(\S+) (\S+): (\S+) version \d+", line.strip())
        if match:
            forms.append(match.groups())
    failures = known_seen = 0
    for base, source, form_id in forms:
        if base not in servers:
            servers[base] = Server(base, password, token)
        server = servers[base]
        server.statuses = []
        try:
            line, problems = check_form(server, form_id)
        except (OSError, http.client.HTTPException, ValueError, KeyError) as error:
            # A hang (the client's timeout), a dropped connection or an answer that is no JSON.
            line, problems = "", [f"{server.current}: {type(error).__name__}: {error}"]
        errors = [f"{method} {path} answered {status}" for method, path, status in server.statuses if status >= 500]
        problems += [e for e in errors if not any(e in p for p in problems)]
        expected = KNOWN.get(os.path.basename(source), [])
        known = [p for p in problems if any(p.startswith(k) for k in expected)]
        new = [p for p in problems if p not in known]
        gone = [k for k in expected if not any(p.startswith(k) for p in problems)]
        mark = "FAIL" if new or gone else ("known" if known else "ok")
        print(f"{mark:5} {form_id} ({os.path.basename(source)}): {line}")
        for problem in new:
            print(f"        {problem}")
        for problem in known:
            print(f"        known server bug: {problem}")
        for problem in gone:
            print(f"        known failure no longer seen (take it off KNOWN in scripts/corpus_xforms.py): {problem}")
        failures += bool(new or gone)
        known_seen += bool(known)
    print(f"corpus_xforms: {len(forms) - failures} of {len(forms)} XForms render, answer their rules route and "
          f"Update button, and judge the untouched create in the browser and the JSON API alike"
          + (f" ({known_seen} with a known server bug)" if known_seen else ""))
    sys.exit(1 if failures or not forms else 0)


if __name__ == "__main__":
    main()
