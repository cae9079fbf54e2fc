"""An OData V2 test service that stands for an SAP Gateway service.

pyslet 0.7.20170805 serves the corpus metadata file as it is, over an in-memory store seeded from a
JSON file. A thin WSGI layer in front of it does what SAP Gateway does and pyslet does not:

- basic auth (when --user is given), the CSRF token protocol (X-CSRF-Token: Fetch, a session
  cookie, 403 + X-CSRF-Token: Required), the X-HTTP-Method tunnel;
- MERGE/PATCH as a real merge (pyslet replaces the whole entity, and answers PATCH 400);
- ETags (W/"...") on entity sets that can be changed, If-Match required on MERGE/PUT/DELETE
  there (428 missing, 412 stale);
- keys the server computes, and the draft protocol of a Common.DraftRoot set (POST creates a
  draft with a new DraftUUID and IsActiveEntity=false; the activation function import makes
  it active and assigns the semantic key; the edit and preparation function imports);
- the service's own checks at activation (a product ID that already exists), answered as
  SAP does: {"error":{"code","message":{"lang","value"},"innererror":{"errordetails":[...]}}};
- pyslet's own errors re-shaped the same way; /Date(ms)/ literals parsed as SAP does;
- boolean eq/ne in $filter (pyslet 0.7 refuses them);
- a request log at GET /_log (and --log FILE).

Run with the venv python made by setup-venv:
  python v2_service.py --port 8402 --metadata ../shared/corpus/odata-v2/fts__myfioriapp.SEPMRA_PROD_MAN.metadata.xml \
      --seed scripts/odata-services/seeds/sepmra_prod_man.json
"""

import argparse
import datetime
import decimal
import hashlib
import http.cookies
import io
import json
import logging
import re
import secrets
import sys
import threading
import urllib.parse
import uuid
import xml.etree.ElementTree as ET

import fw_common
from pyslet.odata2 import core as pcore
from pyslet.odata2 import csdl as edm
from pyslet.odata2 import memds
from pyslet.odata2 import metadata as edmx
from pyslet.odata2 import server as pserver

SAP = "{http://www.sap.com/Protocols/SAPData}"
ZERO_GUID = "00000000-0000-0000-0000-000000000000"
DATE_LITERAL = re.compile(r"^/Date\((-?\d+)(?:([+-])(\d+))?\)/$")


# ---------------------------------------------------------------------------------------------
# pyslet 0.7 cannot compare two booleans in $filter (IsActiveEntity eq false answers 500).
_orig_eq = pcore.BinaryExpression.EvalMethod[pcore.Operator.eq]
_orig_ne = pcore.BinaryExpression.EvalMethod[pcore.Operator.ne]


def _both_boolean(l, r):
    return (isinstance(l, edm.SimpleValue) and isinstance(r, edm.SimpleValue)
            and l.type_code == edm.SimpleType.Boolean and r.type_code == edm.SimpleType.Boolean)


def _eq(self, l, r):
    if _both_boolean(l, r):
        v = edm.EDMValue.from_type(edm.SimpleType.Boolean)
        v.set_from_value(l.value == r.value)
        return v
    return _orig_eq(self, l, r)


def _ne(self, l, r):
    if _both_boolean(l, r):
        v = edm.EDMValue.from_type(edm.SimpleType.Boolean)
        v.set_from_value(l.value != r.value)
        return v
    return _orig_ne(self, l, r)


pcore.BinaryExpression.EvalMethod[pcore.Operator.eq] = _eq
pcore.BinaryExpression.EvalMethod[pcore.Operator.ne] = _ne


# pyslet refuses an insert into a set that is the dependent end of an association whose principal
# has Multiplicity="1" and no navigation property back ("unbound principal": most value-help sets
# of SAP files), or whose required navigation property is not bound in the same request. SAP
# Gateway checks neither; the service's own checks (below) decide.
def _check_navigation_constraints(self, ignore_end=None):
    if self.exists:
        raise edm.EntityExists("check_navigation_constraints: entity %s already exists" % self.get_location())


edm.Entity.check_navigation_constraints = _check_navigation_constraints


# ---------------------------------------------------------------------------------------------
class Model:
    """What the layer needs to know of the metadata, read with ElementTree (namespaces by URI)."""

    def __init__(self, raw):
        root = ET.fromstring(raw)
        self.types = {}  # qualified type name -> {keys, props{name: {type, creatable, updatable}}, navs}
        self.sets = {}  # set name -> {type, creatable, updatable, deletable}
        self.functions = {}  # function import name -> {method, params[], entity_set}
        self.draft = {}  # set name -> {activation, edit, preparation} (function import names)
        for schema in root.iter():
            if not schema.tag.endswith("}Schema"):
                continue
            ns = schema.get("Namespace")
            for et in schema:
                if et.tag.endswith("}EntityType"):
                    keys = [r.get("Name") for k in et if k.tag.endswith("}Key") for r in k]
                    props, navs = {}, set()
                    for p in et:
                        if p.tag.endswith("}Property"):
                            props[p.get("Name")] = {
                                "type": p.get("Type"),
                                "creatable": p.get(SAP + "creatable") != "false",
                                "updatable": p.get(SAP + "updatable") != "false",
                            }
                        elif p.tag.endswith("}NavigationProperty"):
                            navs.add(p.get("Name"))
                    self.types["%s.%s" % (ns, et.get("Name"))] = {"keys": keys, "props": props, "navs": navs}
                elif et.tag.endswith("}EntityContainer"):
                    for es in et:
                        if es.tag.endswith("}EntitySet"):
                            self.sets[es.get("Name")] = {
                                "type": es.get("EntityType"),
                                "creatable": es.get(SAP + "creatable") != "false",
                                "updatable": es.get(SAP + "updatable") != "false",
                                "deletable": es.get(SAP + "deletable") != "false",
                            }
                        elif es.tag.endswith("}FunctionImport"):
                            self.functions[es.get("Name")] = {
                                "method": es.get("{http://schemas.microsoft.com/ado/2007/08/dataservices/metadata}HttpMethod", "GET"),
                                "params": [p.get("Name") for p in es if p.tag.endswith("}Parameter")],
                                "entity_set": es.get("EntitySet"),
                            }
        for ann in root.iter():
            if not ann.tag.endswith("}Annotations"):
                continue
            target = ann.get("Target", "")
            for a in ann:
                if a.tag.endswith("}Annotation") and a.get("Term", "").endswith("DraftRoot"):
                    names = {}
                    for pv in a.iter():
                        if pv.tag.endswith("}PropertyValue"):
                            names[pv.get("Property")] = (pv.get("String") or "").split("/")[-1]
                    set_name = target.split("/")[-1]
                    self.draft[set_name] = {
                        "activation": names.get("ActivationAction"),
                        "edit": names.get("EditAction"),
                        "preparation": names.get("PreparationAction"),
                    }

    def type_of(self, set_name):
        return self.types[self.sets[set_name]["type"]]

    def has_etag(self, set_name):
        s = self.sets.get(set_name)
        return bool(s) and (s["updatable"] or s["deletable"])


# ---------------------------------------------------------------------------------------------
def sap_error(status, code, message, details=(), target=""):
    """An SAP Gateway error body."""
    body = {"error": {
        "code": code,
        "message": {"lang": "en", "value": message},
        "innererror": {
            "transactionid": uuid.uuid4().hex.upper(),
            "timestamp": datetime.datetime.utcnow().strftime("%Y%m%d%H%M%S.%f")[:21],
            "Error_Resolution": {
                "SAP_Transaction": "Run transaction /IWFND/ERROR_LOG on SAP Gateway hub system",
                "SAP_Note": "See SAP Note 1797736 for error analysis (https://service.sap.com/sap/support/notes/1797736)",
            },
            "errordetails": [
                {"code": c, "message": m, "propertyref": "", "severity": "error",
                 "target": t, "transition": False} for c, m, t in details],
        },
    }}
    if target:
        body["error"]["target"] = target
    return status, {"Content-Type": "application/json"}, json.dumps(body).encode()


REASONS = {200: "OK", 201: "Created", 204: "No Content", 400: "Bad Request", 401: "Unauthorized",
           403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 409: "Conflict",
           412: "Precondition Failed", 428: "Precondition Required", 500: "Internal Server Error",
           501: "Not Implemented"}


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def fix_date_literals(obj):
    """/Date(ms)/ and /Date(ms+offset)/ to ISO, which pyslet parses (it reads /Date(ms)/ as 1970)."""
    for k, v in list(obj.items()):
        if isinstance(v, str):
            m = DATE_LITERAL.match(v)
            if m:
                t = datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=int(m.group(1)))
                s = t.strftime("%Y-%m-%dT%H:%M:%S.%f")[:23]
                if m.group(2):
                    mins = int(m.group(3))
                    s += "%s%02d:%02d" % (m.group(2), mins // 60, mins % 60)
                obj[k] = s
    return obj


def plain(entity):
    """An entity's JSON without __metadata and deferred navigation properties."""
    return {k: v for k, v in entity.items()
            if k != "__metadata" and not (isinstance(v, dict) and "__deferred" in v)}


def etag_of(entity):
    digest = hashlib.sha1(json.dumps(plain(entity), sort_keys=True).encode()).hexdigest()[:20]
    return 'W/"%s"' % digest


def key_literal(type_name, value):
    if value is None:
        return "null"
    if type_name == "Edm.Guid":
        return "guid'%s'" % value
    if type_name == "Edm.Boolean":
        return "true" if value else "false"
    if type_name in ("Edm.Int16", "Edm.Int32", "Edm.Byte", "Edm.SByte"):
        return str(value)
    return "'%s'" % str(value).replace("'", "''")


def to_pyslet_value(type_name, v):
    if v is None:
        return None
    if type_name == "Edm.Guid":
        return uuid.UUID(v)
    if type_name == "Edm.Decimal":
        return decimal.Decimal(str(v))
    if type_name in ("Edm.Double", "Edm.Single"):
        return float(v)
    if type_name in ("Edm.Byte", "Edm.SByte", "Edm.Int16", "Edm.Int32", "Edm.Int64"):
        return int(v)
    return v


class Service:
    def __init__(self, args, port):
        raw = open(args.metadata, "rb").read()
        self.model = Model(raw)
        doc = edmx.Document()
        doc.read(src=raw)
        self.container = doc.root.DataServices.defaultContainer
        memds.InMemoryEntityContainer(self.container)
        self.root = "/" + args.root.strip("/") + "/"
        self.pyslet = pserver.Server(serviceRoot="http://127.0.0.1:%d%s" % (port, self.root))
        self.pyslet.set_model(doc)
        self.creds = fw_common.credentials(args)
        self.csrf = args.csrf
        self.log = fw_common.RequestLog(args.log)
        self.sessions = {}  # session cookie -> CSRF token
        self.write_lock = threading.RLock()  # one change at a time: check-then-act stays atomic
        self.seed(json.load(open(args.seed, encoding="utf-8")))

    # -- seeding ---------------------------------------------------------------------------
    def seed(self, data):
        for set_name, rows in data.items():
            props = self.model.type_of(set_name)["props"]
            with self.container[set_name].open() as coll:
                for row in rows:
                    e = coll.new_entity()
                    for k, v in row.items():
                        e[k].set_from_value(to_pyslet_value(props[k]["type"], v))
                    coll.insert_entity(e)

    # -- calling pyslet --------------------------------------------------------------------
    def inner(self, environ, method, path, query="", body=None):
        """One request to pyslet, as JSON. Returns (status, headers, body bytes)."""
        data = json.dumps(body).encode() if body is not None else b""
        env = {
            "REQUEST_METHOD": method, "SCRIPT_NAME": self.root.rstrip("/"), "PATH_INFO": path,
            "QUERY_STRING": query, "SERVER_NAME": environ.get("SERVER_NAME", "127.0.0.1"),
            "SERVER_PORT": environ.get("SERVER_PORT", "80"), "HTTP_HOST": environ.get("HTTP_HOST", ""),
            "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.url_scheme": environ.get("wsgi.url_scheme", "http"),
            "wsgi.input": io.BytesIO(data), "wsgi.errors": sys.stderr, "CONTENT_LENGTH": str(len(data)),
            "CONTENT_TYPE": "application/json", "HTTP_ACCEPT": "application/json",
            "HTTP_DATASERVICEVERSION": "2.0",
        }
        return self.call_pyslet(env)

    def call_pyslet(self, env):
        captured = {}

        def start(status, headers, exc_info=None):
            captured["status"] = int(status.split()[0])
            captured["headers"] = headers

        out = b"".join(self.pyslet(env, start))
        return captured["status"], dict(captured["headers"]), out

    def get_entity(self, environ, path):
        st, _, body = self.inner(environ, "GET", path)
        if st != 200:
            return None
        return json.loads(body)["d"]

    def path_of(self, entity):
        """The resource path of an entity from its __metadata.uri."""
        return "/" + urllib.parse.unquote(entity["__metadata"]["uri"].split(self.root, 1)[1])

    def entity_path(self, set_name, values):
        t = self.model.type_of(set_name)
        return "/%s(%s)" % (set_name, ",".join(
            "%s=%s" % (k, key_literal(t["props"][k]["type"], values.get(k))) for k in t["keys"]))

    # -- the WSGI entry --------------------------------------------------------------------
    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        if path == "/_log":
            return self.log.app(environ, start_response)
        method = environ["REQUEST_METHOD"].upper()
        if method == "POST" and environ.get("HTTP_X_HTTP_METHOD", "").upper() in ("MERGE", "PATCH", "PUT", "DELETE"):
            method = environ["HTTP_X_HTTP_METHOD"].upper()
        extra = []
        if not (path + "/").startswith(self.root):
            status, headers, body = 404, {"Content-Type": "text/plain"}, b"Not found: the service root is %s\n" % self.root.encode()
        elif not fw_common.auth_ok(environ, self.creds):
            status, headers, body = 401, {"Content-Type": "text/plain",
                                          "WWW-Authenticate": 'Basic realm="SAP NetWeaver Application Server [FWK/001]"'}, b"Logon failed\n"
        else:
            status, headers, body, extra = self.handle(environ, method, path[len(self.root) - 1:] or "/")
        if method in fw_common.CHANGING:
            self.log.add(dict(environ, REQUEST_METHOD=method), str(status))
        headers = dict(headers)
        headers["Content-Length"] = str(len(body))
        headers.pop("content-length", None)
        start_response("%d %s" % (status, REASONS.get(status, "Status")), list(headers.items()) + extra)
        return [b"" if method == "HEAD" else body]

    def handle(self, environ, method, sub):
        extra = []
        cookies = http.cookies.SimpleCookie(environ.get("HTTP_COOKIE", ""))
        sid = cookies["SAP_SESSIONID_FWK_100"].value if "SAP_SESSIONID_FWK_100" in cookies else None
        token_header = environ.get("HTTP_X_CSRF_TOKEN", "")
        if method in ("GET", "HEAD") and token_header.lower() == "fetch":
            if sid is None or sid not in self.sessions:
                sid = secrets.token_urlsafe(24)
                extra.append(("Set-Cookie", "SAP_SESSIONID_FWK_100=%s; path=/; HttpOnly" % sid))
                self.sessions[sid] = secrets.token_urlsafe(18) + "=="
            extra.append(("X-CSRF-Token", self.sessions[sid]))
        elif method in fw_common.CHANGING and self.csrf:
            if not token_header or sid is None or self.sessions.get(sid) != token_header:
                st, h, b = sap_error(403, "/IWFND/CM_BEC/026", "CSRF token validation failed")
                h["X-CSRF-Token"] = "Required"
                return st, h, b, extra
        try:
            if method in fw_common.CHANGING:
                with self.write_lock:
                    st, h, b = self.change(environ, method, sub)
            else:
                st, h, b = self.read(environ, "GET" if method == "HEAD" else method, sub)
        except Exception as e:  # the service's own fault, answered as SAP does
            logging.exception("internal error")
            st, h, b = sap_error(500, "/IWBEP/CM_MGW_RT/000", "Internal error: %s" % e)
        return st, h, self.reshape_error(st, h, b), extra

    # -- reads -----------------------------------------------------------------------------
    def search_as_filter(self, set_name, query):
        """SAP Gateway's `search=` custom query option (the free search of a value help whose
        annotation says SearchSupported), which pyslet does not know: the same match SAP's search
        of a value-help view makes, a substring of any of its string properties, as `$filter`."""
        parts, rest = [], []
        term = None
        for part in query.split("&"):
            name, _, value = part.partition("=")
            if name == "search":
                term = urllib.parse.unquote_plus(value)
            else:
                rest.append(part)
        if set_name not in self.model.sets:
            return query
        if term is None:
            if "$filter=" in query:
                return "&".join(p for p in query.split("&") if not p.startswith("$select="))
            return query
        strings = [n for n, p in self.model.type_of(set_name)["props"].items() if p["type"] == "Edm.String"]
        # SAP's search ignores case.
        quoted = term.lower().replace("'", "''")
        if strings and term:
            parts = ["substringof('%s',tolower(%s))" % (quoted, n) for n in strings]
            search = "(" + " or ".join(parts) + ")"
            out = []
            merged = False
            for part in rest:
                name, _, value = part.partition("=")
                if name == "$filter":
                    part = "$filter=" + urllib.parse.quote("(%s) and %s" % (urllib.parse.unquote(value), search))
                    merged = True
                out.append(part)
            if not merged:
                out.append("$filter=" + urllib.parse.quote(search))
            rest = out
        # pyslet answers nothing when $select meets $filter (it pages the selection first); SAP
        # answers the selected properties. All of them do as well.
        rest = [p for p in rest if not p.startswith("$select=")]
        return "&".join(p for p in rest if p)

    def read(self, environ, method, sub):
        env = dict(environ, REQUEST_METHOD=method, SCRIPT_NAME=self.root.rstrip("/"), PATH_INFO=sub)
        env["QUERY_STRING"] = self.search_as_filter(sub.strip("/").split("(")[0], env.get("QUERY_STRING", ""))
        if sub.strip("/") in self.model.functions:
            return self.function(environ, method, sub.strip("/"))
        st, h, b = self.call_pyslet(env)
        set_name = sub.strip("/").split("(")[0]
        if st == 200 and self.model.has_etag(set_name) and b[:1] == b"{" and "/" not in sub.strip("/"):
            doc = json.loads(b)
            d = doc.get("d", {})
            rows = d.get("results") if isinstance(d.get("results"), list) else None
            for e in (rows if rows is not None else [d]):
                if isinstance(e, dict) and "__metadata" in e:
                    full = e
                    if "$select" in env.get("QUERY_STRING", "") or "$expand" in env.get("QUERY_STRING", ""):
                        full = self.get_entity(environ, self.path_of(e)) or e
                    e["__metadata"]["etag"] = etag_of(full)
            if rows is None and "__metadata" in d:
                h["ETag"] = d["__metadata"]["etag"]
            b = json.dumps(doc).encode()
        return st, h, b

    # -- changes ---------------------------------------------------------------------------
    def change(self, environ, method, sub):
        segment = sub.strip("/")
        name = segment.split("(")[0]
        if name in self.model.functions and "(" not in segment:
            return self.function(environ, method, name)
        if name not in self.model.sets:
            return sap_error(404, "/IWBEP/CM_MGW_RT/021", "Resource not found for segment '%s'" % name)
        raw = fw_common.read_body(environ)
        body = None
        if raw.strip():
            try:
                body = json.loads(raw)
            except ValueError:
                return sap_error(400, "/IWBEP/CM_MGW_RT/004", "Malformed JSON in the request body")
            if isinstance(body, dict) and set(body) == {"d"} and isinstance(body["d"], dict):
                body = body["d"]
            if not isinstance(body, dict):
                return sap_error(400, "/IWBEP/CM_MGW_RT/004", "The request body must be a JSON object")
            fix_date_literals(body)
        t = self.model.type_of(name)
        if body is not None:
            for k in body:
                if k != "__metadata" and k not in t["props"] and k not in t["navs"]:
                    return sap_error(400, "/IWBEP/CM_MGW_RT/022", "Property '%s' is invalid" % k,
                                     [("/IWBEP/CM_MGW_RT/022", "Property '%s' is invalid" % k, k)], target=k)
        if method == "POST" and "(" not in segment:
            return self.create(environ, name, t, body or {})
        if "(" not in segment or "/" in segment:
            return self.call_pyslet(dict(environ, REQUEST_METHOD=method, SCRIPT_NAME=self.root.rstrip("/"),
                                         PATH_INFO=sub, **{"wsgi.input": io.BytesIO(raw)}))
        existing = self.get_entity(environ, "/" + segment)
        if existing is None:
            return sap_error(404, "/IWBEP/CM_MGW_RT/020", "Resource not found for segment '%s'" % segment)
        if self.model.has_etag(name):
            given = environ.get("HTTP_IF_MATCH")
            if not given:
                return sap_error(428, "/IWBEP/CM_MGW_RT/190", "Precondition required: send If-Match with the entity's ETag")
            if given.strip() != "*" and etag_of(existing) not in [g.strip() for g in given.split(",")]:
                return sap_error(412, "/IWBEP/CM_MGW_RT/191",
                                 "The entity has been changed since it was read (ETag mismatch)")
        if method == "DELETE":
            st, h, b = self.inner(environ, "DELETE", "/" + segment)
            if st == 204 and name in self.model.draft and existing.get("IsActiveEntity") is False and existing.get("HasActiveEntity"):
                active = self.get_entity(environ, self.entity_path(name, dict(existing, DraftUUID=ZERO_GUID, IsActiveEntity=True)))
                if active:
                    self.inner(environ, "PUT", self.entity_path(name, active), body=fix_date_literals(dict(plain(active), HasDraftEntity=False)))
            return st, h, b
        # MERGE, PATCH (SAP reads it as MERGE) and PUT
        new = fix_date_literals(plain(existing)) if method in ("MERGE", "PATCH") else {}
        for k, v in (body or {}).items():
            if k in t["props"] and t["props"][k]["updatable"] and k not in t["keys"]:
                new[k] = v
        for k in t["keys"]:
            new[k] = existing[k]
        if name in self.model.draft and existing.get("IsActiveEntity") is False and "DraftEntityLastChangeDateTime" in t["props"]:
            new["DraftEntityLastChangeDateTime"] = now_iso()
        st, h, b = self.inner(environ, "PUT", "/" + segment, body=new)
        if st == 204:
            after = self.get_entity(environ, "/" + segment)
            if after is not None and self.model.has_etag(name):
                h["ETag"] = etag_of(after)
        return st, h, b

    def create(self, environ, name, t, body):
        if not self.model.sets[name]["creatable"]:
            return sap_error(405, "/IWBEP/CM_MGW_RT/050", "Entity set '%s' cannot be created" % name)
        new = {k: v for k, v in body.items()
               if k in t["props"] and t["props"][k]["creatable"] and k not in t["keys"]}
        for k in t["keys"]:
            p = t["props"][k]
            if k in body and p["creatable"]:
                new[k] = body[k]
            elif p["type"] == "Edm.Guid":
                new[k] = str(uuid.uuid4())  # pyslet cannot make up a Guid key (405)
            elif p["type"] == "Edm.String" and not p["creatable"]:
                new[k] = ""  # assigned at activation (draft) as SAP does with a semantic key
        if name in self.model.draft:
            self.draft_defaults(t, new, active=False)
            new["HasActiveEntity"] = False
        st, h, b = self.inner(environ, "POST", "/" + name, body=new)
        if st == 201 and self.model.has_etag(name):
            d = json.loads(b)["d"]
            d["__metadata"]["etag"] = h["ETag"] = etag_of(d)
            b = json.dumps({"d": d}).encode()
        return st, h, b

    def draft_defaults(self, t, e, active):
        props = t["props"]
        if "DraftUUID" in props and (active or not e.get("DraftUUID")):
            e["DraftUUID"] = ZERO_GUID if active else str(uuid.uuid4())
        for k, v in (("IsActiveEntity", active), ("HasDraftEntity", False)):
            if k in props:
                e[k] = v
        stamp = None if active else now_iso()
        for k in ("DraftEntityCreationDateTime", "DraftEntityLastChangeDateTime"):
            if k in props:
                e[k] = stamp
        for k, p in props.items():
            if k.endswith("_fc") and p["type"] == "Edm.Byte":
                e[k] = 1 if active else 7  # 1 read-only, 7 mandatory
            elif k.endswith("_ac") and p["type"] == "Edm.Boolean":
                draft_only = k in ("Activation_ac", "Preparation_ac", "Validation_ac")
                e[k] = (not draft_only) if active else (draft_only or k == "Delete_ext_ac")

    # -- function imports ------------------------------------------------------------------
    def function(self, environ, method, name):
        f = self.model.functions[name]
        if method != f["method"]:
            return sap_error(405, "/IWBEP/CM_MGW_RT/039", "Function import '%s' must be called with %s" % (name, f["method"]))
        set_name = f["entity_set"]
        role = None
        if set_name in self.model.draft:
            for r, n in self.model.draft[set_name].items():
                if n == name:
                    role = r
        if role is None:
            return self.call_pyslet(dict(environ, REQUEST_METHOD=method, SCRIPT_NAME=self.root.rstrip("/"),
                                         PATH_INFO="/" + name))
        params = {}
        for part in environ.get("QUERY_STRING", "").split("&"):
            if "=" in part:
                k, v = part.split("=", 1)
                params[urllib.parse.unquote(k)] = urllib.parse.unquote_plus(v) if "%" in v or "+" in v else v
        t = self.model.type_of(set_name)
        missing = [k for k in t["keys"] if k not in params]
        if missing:
            return sap_error(400, "/IWBEP/CM_MGW_RT/040", "Parameter '%s' is missing" % missing[0])
        path = "/%s(%s)" % (set_name, ",".join("%s=%s" % (k, params[k]) for k in t["keys"]))
        entity = self.get_entity(environ, path)
        if entity is None:
            return sap_error(404, "/IWBEP/CM_MGW_RT/020", "Resource not found for segment '%s'" % path.strip("/"))
        if role == "preparation":
            return self.answer_entity(environ, set_name, entity, 200)
        if role == "edit":
            return self.edit(environ, set_name, t, entity)
        return self.activate(environ, set_name, t, entity)

    def answer_entity(self, environ, set_name, entity, status):
        entity = dict(entity)
        entity["__metadata"] = dict(entity["__metadata"], etag=etag_of(entity))
        return status, {"Content-Type": "application/json", "ETag": entity["__metadata"]["etag"],
                        "DataServiceVersion": "2.0"}, json.dumps({"d": entity}).encode()

    def edit(self, environ, set_name, t, active):
        if active.get("IsActiveEntity") is not True:
            return sap_error(400, "SEPMRA_PROD/010", "Only an active document can be edited")
        if active.get("HasDraftEntity"):
            return sap_error(409, "SEPMRA_PROD/011", "The document is already being edited (a draft exists)")
        draft = fix_date_literals(plain(active))
        self.draft_defaults(t, draft, active=False)
        draft["HasActiveEntity"] = True
        st, h, b = self.inner(environ, "POST", "/" + set_name, body=draft)
        if st != 201:
            return st, h, b
        self.inner(environ, "PUT", self.entity_path(set_name, active),
                   body=fix_date_literals(dict(plain(active), HasDraftEntity=True)))
        return self.answer_entity(environ, set_name, json.loads(b)["d"], 200)

    def activate(self, environ, set_name, t, draft):
        if draft.get("IsActiveEntity") is not False:
            return sap_error(400, "SEPMRA_PROD/012", "Only a draft can be activated")
        refused = self.check(environ, set_name, draft)
        if refused:
            return refused
        active = fix_date_literals(plain(draft))
        semantic = [k for k in t["keys"] if k not in ("DraftUUID", "IsActiveEntity")]
        for k in semantic:
            if not active.get(k) and (k + "ForEdit") in active:
                active[k] = (active[k + "ForEdit"] or "").upper()
        self.draft_defaults(t, active, active=True)
        active["HasActiveEntity"] = False
        if draft.get("HasActiveEntity"):
            st, h, b = self.inner(environ, "PUT", self.entity_path(set_name, active), body=active)
        else:
            st, h, b = self.inner(environ, "POST", "/" + set_name, body=active)
        if st not in (201, 204):
            return st, h, b
        self.inner(environ, "DELETE", self.entity_path(set_name, draft))
        return self.answer_entity(environ, set_name, self.get_entity(environ, self.entity_path(set_name, active)), 200)

    def check(self, environ, set_name, draft):
        """The service's own checks at activation: what SEPMRA's product BO refuses."""
        if set_name != "SEPMRA_C_PD_Product":
            return None
        wanted = (draft.get("ProductForEdit") or "").strip().upper()
        if not wanted:
            msg = "Enter a product ID"
            return sap_error(400, "SEPMRA_PROD/001", msg, [("SEPMRA_PROD/001", msg, "ProductForEdit")])
        if draft.get("HasActiveEntity"):
            return None  # an edit draft keeps its product ID
        q = "$filter=" + urllib.parse.quote("Product eq '%s' and IsActiveEntity eq true" % wanted.replace("'", "''")) + "&$inlinecount=allpages&$top=0"
        st, _, b = self.inner(environ, "GET", "/" + set_name, query=q)
        if st == 200 and int(json.loads(b)["d"]["__count"]) > 0:
            msg = "Product %s already exists" % wanted
            return sap_error(400, "SEPMRA_PROD/002", msg, [("SEPMRA_PROD/002", msg, "ProductForEdit")])
        return None

    # -- errors ----------------------------------------------------------------------------
    @staticmethod
    def reshape_error(status, headers, body):
        """pyslet's {"error":{"code":"PythonError","message":"text"}} in SAP's shape."""
        if status < 400 or body[:1] != b"{":
            return body
        try:
            doc = json.loads(body)
        except ValueError:
            return body
        err = doc.get("error")
        if not isinstance(err, dict) or not isinstance(err.get("message"), str):
            return body
        _, _, b = sap_error(status, "/IWBEP/CM_MGW_RT/%03d" % (status % 1000), err["message"])
        return b


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    fw_common.add_common_args(parser, "/sap/opu/odata/sap/SEPMRA_PROD_MAN/")
    parser.add_argument("--csrf", dest="csrf", action="store_true", default=True,
                        help="require the CSRF token on changes (default)")
    parser.add_argument("--no-csrf", dest="csrf", action="store_false")
    args = parser.parse_args()
    logging.disable(logging.ERROR)  # pyslet's complaints about the file's association sets

    def make(port):
        service = Service(args, port)
        logging.disable(logging.NOTSET)
        logging.getLogger().setLevel(logging.ERROR)
        return service

    fw_common.serve(make, args.port, "v2_service")


if __name__ == "__main__":
    main()
