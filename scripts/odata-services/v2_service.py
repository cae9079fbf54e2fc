"""An OData V2 test service that stands for an SAP Gateway service.

pyslet 0.7.20170805 serves the corpus metadata file as it is, over an in-memory store seeded from a
JSON file. A thin WSGI layer in front of it does what SAP Gateway does and pyslet does not:

- basic auth (when --user is given), the CSRF token protocol (X-CSRF-Token: Fetch, a session
  cookie, 403 + X-CSRF-Token: Required), the X-HTTP-Method tunnel;
- MERGE/PATCH as a real merge (pyslet replaces the whole entity, and answers PATCH 400);
- ETags (W/"...") on entity sets that can be changed, on every entity of an answer (read
  through a navigation property or expanded inline too), If-Match required on MERGE/PUT/DELETE
  there (428 missing, 412 stale);
- keys the server computes, and the draft protocol of a Common.DraftRoot set (POST creates a
  draft with a new DraftUUID and IsActiveEntity=false; the activation function import makes
  it active and assigns the semantic key; the edit and preparation function imports);
- the service's own checks at activation (a product ID that already exists), answered as
  SAP does: {"error":{"code","message":{"lang","value"},"innererror":{"errordetails":[...]}}};
- SAP Gateway's deep insert, for any navigation property of a set into a set that takes creates
  (pyslet links the items itself; the layer fills their keys, checks, and undoes what pyslet
  kept when a part fails): POST Set with {"...", "to_Item": [{...}, ...]} (or
  {"to_Item": {"results": [...]}}) creates the entity and its items in one request, or nothing;
  201 with the items inline, {"to_Item": {"results": [{"__metadata": {"uri", "type", "etag"},
  ...}]}}. An item holds its parent's key (the association's referential constraint, else its
  key properties named as the parent's); an item's own string key left empty gets its position,
  the next multiple of 10 ("10", "20", ... in the order of the request, after the parent's items).
  Items may bring items of their own the same way. POST Set(key)/nav creates one item (with
  its own items, if any) of an existing parent the same way; items are changed
  (MERGE) and deleted (DELETE) at their own key, If-Match required; deleting a parent deletes
  its items;
- refusals of an item of a deep insert name it as SAP Gateway does, the navigation property and
  the item's key, then the property:
      to_Item(SalesOrder='<id or empty>',SalesOrderItem='<position>')/<Property>
  with the parent's key as sent (empty when the service numbers it) and the position the item
  has or would get; a refusal of the entity of the request (a POST, a POST through a navigation
  property, a MERGE) names the property alone. Every error of the request is in errordetails;
- specific to API_SALES_ORDER_SRV (S/4HANA's sales order API): the keys a number range fills
  when left empty (NUMBERED_KEYS: A_SalesOrder.SalesOrder, one more than the highest) and the
  checks (CHECKS): SoldToParty and an item's Material must be in the seed's "_master_data"
  (SLS_ORDER/001 "Sold-to party 17109999 does not exist", "Enter a sold-to party";
  SLS_ORDER/002 "Material TG99 does not exist", "Enter a material"), an item's
  RequestedQuantity must be greater than 0 (SLS_ORDER/003 "Enter a quantity greater than 0"),
  checked on a create, a deep insert and a MERGE/PUT;
- pyslet's own errors re-shaped the same way; /Date(ms)/ literals parsed as SAP does;
- boolean eq/ne in $filter (pyslet 0.7 refuses them);
- a request log at GET /_log (and --log FILE).

Run with the venv python made by setup-venv:
  python v2_service.py --port 8402 --metadata ../shared/corpus/odata-v2/fts__myfioriapp.SEPMRA_PROD_MAN.metadata.xml \
      --seed scripts/odata-services/seeds/sepmra_prod_man.json
  python v2_service.py --port 8403 --metadata ../shared/corpus/odata-v2/teched2020__API_SALES_ORDER_SRV.edmx \
      --seed scripts/odata-services/seeds/api_sales_order_srv.json --root /sap/opu/odata/sap/API_SALES_ORDER_SRV/
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

# What is specific to API_SALES_ORDER_SRV (S/4HANA's sales order API, the corpus file
# teched2020__API_SALES_ORDER_SRV.edmx); the deep insert and the requests on items are not.
# Keys SAP's number ranges fill when a create leaves them empty (the file marks them creatable:
# external numbers are allowed); an item's position is numbered for any set (ITEM_STEP).
NUMBERED_KEYS = {"A_SalesOrder": "SalesOrder"}
ITEM_STEP = 10
# The service's own checks: entity set -> [(property, kind, message code, what it names)]. "master":
# one of the seed's "_master_data" values for the property (S/4 checks the customer and product
# masters, which are other services); "positive": a number greater than 0.
CHECKS = {
    "A_SalesOrder": [("SoldToParty", "master", "SLS_ORDER/001", "sold-to party")],
    "A_SalesOrderItem": [("Material", "master", "SLS_ORDER/002", "material"),
                         ("RequestedQuantity", "positive", "SLS_ORDER/003", "quantity")],
}


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
        self.associations = {}  # qualified name -> {ends: {role: {type, many}}, principal, dependent}
        self.association_sets = []  # [(association, {role: set name})]
        for schema in root.iter():
            if not schema.tag.endswith("}Schema"):
                continue
            ns = schema.get("Namespace")
            for et in schema:
                if et.tag.endswith("}EntityType"):
                    keys = [r.get("Name") for k in et if k.tag.endswith("}Key") for r in k]
                    props, navs, nav_roles = {}, set(), {}
                    for p in et:
                        if p.tag.endswith("}Property"):
                            props[p.get("Name")] = {
                                "type": p.get("Type"),
                                "creatable": p.get(SAP + "creatable") != "false",
                                "updatable": p.get(SAP + "updatable") != "false",
                            }
                        elif p.tag.endswith("}NavigationProperty"):
                            navs.add(p.get("Name"))
                            nav_roles[p.get("Name")] = (p.get("Relationship"), p.get("FromRole"), p.get("ToRole"))
                    self.types["%s.%s" % (ns, et.get("Name"))] = {"keys": keys, "props": props, "navs": navs,
                                                                 "nav_roles": nav_roles}
                elif et.tag.endswith("}Association"):
                    a = {"ends": {}, "principal": None, "dependent": None}
                    for part in et:
                        if part.tag.endswith("}End"):
                            a["ends"][part.get("Role")] = {"type": part.get("Type"), "many": part.get("Multiplicity") == "*"}
                        elif part.tag.endswith("}ReferentialConstraint"):
                            for side in part:
                                refs = [r.get("Name") for r in side if r.tag.endswith("}PropertyRef")]
                                if side.tag.endswith("}Principal"):
                                    a["principal"] = (side.get("Role"), refs)
                                elif side.tag.endswith("}Dependent"):
                                    a["dependent"] = (side.get("Role"), refs)
                    self.associations["%s.%s" % (ns, et.get("Name"))] = a
                elif et.tag.endswith("}EntityContainer"):
                    for es in et:
                        if es.tag.endswith("}EntitySet"):
                            self.sets[es.get("Name")] = {
                                "type": es.get("EntityType"),
                                "creatable": es.get(SAP + "creatable") != "false",
                                "updatable": es.get(SAP + "updatable") != "false",
                                "deletable": es.get(SAP + "deletable") != "false",
                            }
                        elif es.tag.endswith("}AssociationSet"):
                            self.association_sets.append((es.get("Association"), {
                                end.get("Role"): end.get("EntitySet") for end in es if end.tag.endswith("}End")}))
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

    def navigation(self, set_name, nav):
        """Where a navigation property of an entity set leads: {target (set name), many, parent_keys
        {child property: parent property}} or None. The parent's keys an entity reached through it
        holds come from the association's referential constraint when the parent is its principal,
        else from the child's key properties named as the parent's keys (API_SALES_ORDER_SRV's
        to_Item: no constraint, the item's key is SalesOrder + SalesOrderItem)."""
        t = self.type_of(set_name)
        if nav not in t.get("nav_roles", {}):
            return None
        relationship, from_role, to_role = t["nav_roles"][nav]
        a = self.associations.get(relationship)
        if a is None or to_role not in a["ends"]:
            return None
        target = None
        for name, ends in self.association_sets:
            if name == relationship and ends.get(from_role) == set_name and ends.get(to_role) in self.sets:
                target = ends[to_role]
                break
        if target is None:  # an association without a set for it: the first set of the type
            target = next((n for n, s in self.sets.items() if s["type"] == a["ends"][to_role]["type"]), None)
        if target is None:
            return None
        child = self.type_of(target)
        if a["principal"] and a["dependent"] and a["principal"][0] == from_role and a["dependent"][0] == to_role:
            parent_keys = dict(zip(a["dependent"][1], a["principal"][1]))
        else:
            parent_keys = {k: k for k in t["keys"] if k in child["keys"]}
        return {"target": target, "many": a["ends"][to_role]["many"], "parent_keys": parent_keys}

    def compositions(self, set_name):
        """The navigation properties of a set whose entities are its items: to a collection in a
        set that takes creates, whose key holds the parent's key (deleting the parent deletes
        them, as SAP's business objects do)."""
        out = {}
        for nav in sorted(self.type_of(set_name).get("navs", ())):
            info = self.navigation(set_name, nav)
            if (info and info["many"] and info["parent_keys"] and self.sets[info["target"]]["creatable"]
                    and set(info["parent_keys"]) <= set(self.type_of(info["target"])["keys"])
                    and info["target"] != set_name):
                out[nav] = info
        return out

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
        seed = json.load(open(args.seed, encoding="utf-8"))
        self.master = seed.get("_master_data", {})  # property -> {value: description}
        self.seed(seed)

    # -- seeding ---------------------------------------------------------------------------
    def seed(self, data):
        """{entity set: [rows]}; a row may hold its items under a navigation property (a list of
        rows, linked as a deep insert links them, the parent's key filled in). Keys starting with
        "_" are no entity set: "_master_data" is read by the service's checks."""
        for set_name, rows in data.items():
            if set_name.startswith("_"):
                continue
            with self.container[set_name].open() as coll:
                for row in rows:
                    coll.insert_entity(self.seed_entity(coll, set_name, row))

    def seed_entity(self, coll, set_name, row):
        t = self.model.type_of(set_name)
        e = coll.new_entity()
        for k, v in row.items():
            if k not in t["navs"]:
                e[k].set_from_value(to_pyslet_value(t["props"][k]["type"], v))
        for nav in t["navs"]:
            info = self.model.navigation(set_name, nav)
            if nav not in row or info is None:
                continue
            with self.container[info["target"]].open() as children:
                for child in row[nav]:
                    child = dict(child, **{c: row[p] for c, p in info["parent_keys"].items() if p in row})
                    e[nav].bind_entity(self.seed_entity(children, info["target"], child))
        return e

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

    def set_of(self, entity):
        """The entity set of an entity of an answer, from its __metadata.uri (None if it has none)."""
        md = entity.get("__metadata") if isinstance(entity, dict) else None
        if not isinstance(md, dict) or self.root not in md.get("uri", ""):
            return None
        return urllib.parse.unquote(md["uri"].split(self.root, 1)[1]).split("(")[0]

    def etag(self, entity):
        """An entity's ETag: of its properties, its navigation properties left out whether
        deferred or expanded inline (etag_of of the entity as a plain GET answers it)."""
        md = entity.get("__metadata") or {}
        navs = self.model.types.get(md.get("type"), {}).get("navs", ())
        return etag_of({k: v for k, v in entity.items() if k not in navs})

    def add_etags(self, environ, d, refetch=False):
        """__metadata.etag on every entity of an answer (inline ones too) whose set has ETags;
        `refetch`: the answer holds only some properties ($select), the ETag is of the whole."""
        added = False
        if isinstance(d, list):
            for x in d:
                added = self.add_etags(environ, x, refetch) or added
            return added
        if not isinstance(d, dict):
            return False
        set_name = self.set_of(d)
        if set_name and self.model.has_etag(set_name):
            full = (self.get_entity(environ, self.path_of(d)) if refetch else None) or d
            d["__metadata"]["etag"] = self.etag(full)
            added = True
        for k, v in d.items():
            if k != "__metadata" and isinstance(v, (dict, list)):
                added = self.add_etags(environ, v, refetch) or added
        return added

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
        if st == 200 and b[:1] == b"{":
            # ETags on every entity of the answer whose set has them: of a set, through a
            # navigation property (SalesOrder('1')/to_Item), and expanded inline.
            doc = json.loads(b)
            d = doc.get("d")
            if isinstance(d, dict) and self.add_etags(environ, d, refetch="$select" in env.get("QUERY_STRING", "")):
                if "etag" in d.get("__metadata", {}):
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
        head, _, nav = segment.rpartition("/")
        if method == "POST" and head.endswith(")") and "/" not in head and nav in t["navs"]:
            return self.create_through(environ, name, "/" + head, nav, body or {})
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
            self.delete_items(environ, name, "/" + segment)
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
        refused = self.refusal(self.checks(name, new, ""))
        if refused:
            return refused
        st, h, b = self.inner(environ, "PUT", "/" + segment, body=new)
        if st == 204:
            after = self.get_entity(environ, "/" + segment)
            if after is not None and self.model.has_etag(name):
                h["ETag"] = etag_of(after)
        return st, h, b

    def create(self, environ, name, t, body):
        """POST to an entity set; with items under a navigation property, a deep insert."""
        if not self.model.sets[name]["creatable"]:
            return sap_error(405, "/IWBEP/CM_MGW_RT/050", "Entity set '%s' cannot be created" % name)
        errors = []
        node = self.plan(name, body, errors)
        if isinstance(node, tuple):
            return node
        if name in self.model.draft:
            self.draft_defaults(t, node["values"], active=False)
            node["values"]["HasActiveEntity"] = False
        refused = self.refusal(errors)
        if refused:
            return refused
        if not node["children"]:
            st, h, b = self.inner(environ, "POST", "/" + name, body=node["values"])
            if st == 201 and self.model.has_etag(name):
                d = json.loads(b)["d"]
                d["__metadata"]["etag"] = h["ETag"] = etag_of(d)
                b = json.dumps({"d": d}).encode()
            return st, h, b
        return self.commit(environ, node, "/" + name)

    def create_through(self, environ, parent_set, parent_path, nav, body):
        """POST SalesOrder('1')/to_Item: one item (and its own items, if any) for an existing
        parent, linked to it, the parent's key and the item's position filled in."""
        info = self.model.navigation(parent_set, nav)
        if info is None:
            return sap_error(404, "/IWBEP/CM_MGW_RT/021", "Resource not found for segment '%s'" % nav)
        if not self.model.sets[info["target"]]["creatable"]:
            return sap_error(405, "/IWBEP/CM_MGW_RT/050", "Entity set '%s' cannot be created" % info["target"])
        parent = self.get_entity(environ, parent_path)
        if parent is None:
            return sap_error(404, "/IWBEP/CM_MGW_RT/020", "Resource not found for segment '%s'" % parent_path.strip("/"))
        st, _, b = self.inner(environ, "GET", parent_path + "/" + nav)
        siblings = json.loads(b)["d"]["results"] if st == 200 else []
        inherited = {c: parent.get(p) for c, p in info["parent_keys"].items()}
        position = self.positions(info["target"], inherited, [body], siblings)[0]
        errors = []
        node = self.plan(info["target"], body, errors, inherited=inherited, shown=inherited, position=position)
        if isinstance(node, tuple):
            return node
        refused = self.refusal(errors)
        if refused:
            return refused
        return self.commit(environ, node, parent_path + "/" + nav)

    def plan(self, set_name, body, errors, inherited=None, shown=None, position=None, prefix=None):
        """What a create sends pyslet for one entity and the entities it brings under its
        navigation properties: {set, values, shown, children [(nav, [plans])], prefix}. `values`
        are the entity's creatable properties and its keys (the parent's key for an item, the
        item's position, a number from SAP's number range, a new Guid); `shown` its keys as the
        client knows them (the parent's key as sent, empty when the service numbers it) for the
        targets of refusals. The service's checks append (code, message, target) to `errors`; a
        request that cannot be read returns an error answer instead."""
        t = self.model.type_of(set_name)
        inherited, shown_in = inherited or {}, shown or {}
        values = {k: v for k, v in body.items()
                  if k in t["props"] and t["props"][k]["creatable"] and k not in t["keys"]}
        fix_date_literals(values)
        shown = {}
        own = [k for k in t["keys"] if k not in inherited and t["props"][k]["type"] == "Edm.String"]
        for k in t["keys"]:
            p = t["props"][k]
            if k in inherited:
                values[k], shown[k] = inherited[k], shown_in.get(k, inherited[k])
            elif k in body and p["creatable"] and body[k] not in (None, ""):
                values[k] = shown[k] = body[k]
            elif position is not None and own == [k]:
                values[k] = shown[k] = position
            elif NUMBERED_KEYS.get(set_name) == k:
                values[k], shown[k] = self.next_number(set_name, k), ""
            elif p["type"] == "Edm.Guid":
                values[k] = shown[k] = str(uuid.uuid4())  # pyslet cannot make up a Guid key (405)
            elif p["type"] == "Edm.String" and not p["creatable"]:
                values[k] = shown[k] = ""  # assigned at activation (draft) as SAP does with a semantic key
            elif k in body:
                values[k] = shown[k] = body[k]
        for k, v in inherited.items():  # a referential constraint onto properties that are no key
            values.setdefault(k, v)
        if prefix is not None:  # an item of a deep insert: to_Item(SalesOrder='',SalesOrderItem='20')/
            prefix = "%s(%s)/" % (prefix, ",".join(
                "%s=%s" % (k, key_literal(t["props"][k]["type"], shown.get(k, ""))) for k in t["keys"]))
        for k in body:
            if k != "__metadata" and k not in t["props"] and k not in t["navs"]:
                errors.append(("/IWBEP/CM_MGW_RT/022", "Property '%s' is invalid" % k, (prefix or "") + k))
        errors.extend(self.checks(set_name, values, prefix or ""))
        node = {"set": set_name, "values": values, "shown": shown, "children": [], "prefix": prefix or ""}
        for nav in sorted(k for k in body if k in t["navs"]):
            rows = body[nav]
            if rows is None or (isinstance(rows, dict) and "__deferred" in rows):
                continue
            if isinstance(rows, dict) and isinstance(rows.get("results"), list):
                rows = rows["results"]  # {"results": [...]}, as SAP writes a collection
            elif isinstance(rows, dict):
                rows = [rows]
            if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
                return sap_error(400, "/IWBEP/CM_MGW_RT/004",
                                 "Navigation property '%s' must hold an array of entities" % nav)
            info = self.model.navigation(set_name, nav)
            if info is None or not self.model.sets[info["target"]]["creatable"]:
                return sap_error(400, "/IWBEP/CM_MGW_RT/051", "Deep insert of '%s' is not supported" % nav)
            child_inherited = {c: values.get(p) for c, p in info["parent_keys"].items()}
            child_shown = {c: shown.get(p, values.get(p)) for c, p in info["parent_keys"].items()}
            positions = self.positions(info["target"], child_inherited, rows, [])
            children = []
            for row, pos in zip(rows, positions):
                child = self.plan(info["target"], {k: v for k, v in row.items() if k != "__metadata"}, errors,
                                  inherited=child_inherited, shown=child_shown, position=pos,
                                  prefix=node["prefix"] + nav)
                if isinstance(child, tuple):
                    return child
                children.append(child)
            node["children"].append((nav, children))
        return node

    def positions(self, set_name, inherited, rows, siblings):
        """The positions items get that do not bring their own, in the order of the request: the
        next multiple of ITEM_STEP after the highest position so far (the parent's items', then
        those before in the request): "10", "20", ... as SAP numbers items. None for an item set
        whose key has not exactly one string key of its own (besides the parent's) to number."""
        t = self.model.type_of(set_name)
        own = [k for k in t["keys"] if k not in inherited and t["props"][k]["type"] == "Edm.String"]
        if len(own) != 1:
            return [None] * len(rows)
        k = own[0]
        top = max([int(s[k]) for s in siblings if str(s.get(k) or "").isdigit()] + [0])
        out = []
        for r in rows:
            sent = str(r.get(k) or "")
            if sent:
                out.append(None)
                top = max(top, int(sent)) if sent.isdigit() else top
            else:
                top = (top // ITEM_STEP + 1) * ITEM_STEP
                out.append(str(top))
        return out

    def next_number(self, set_name, key):
        """The next number of SAP's number range for a key left empty: one more than the highest."""
        top = 0
        with self.container[set_name].open() as coll:
            for e in coll.itervalues():
                v = e[key].value
                if v and str(v).isdigit():
                    top = max(top, int(v))
        return str(top + 1)

    def checks(self, set_name, values, prefix):
        """The service's own checks (CHECKS) of an entity's values: [(code, message, target)]."""
        out = []
        for prop, kind, code, noun in CHECKS.get(set_name, ()):
            v = values.get(prop)
            if kind == "master":
                known = self.master.get(prop, {})
                if v in (None, ""):
                    out.append((code, "Enter a %s" % noun, prefix + prop))
                elif v not in known:
                    out.append((code, "%s %s does not exist" % (noun[:1].upper() + noun[1:], v), prefix + prop))
            elif kind == "positive":
                try:
                    ok = decimal.Decimal(str(v)) > 0
                except (decimal.InvalidOperation, ValueError):
                    ok = False
                if not ok:
                    out.append((code, "Enter a %s greater than 0" % noun, prefix + prop))
        return out

    @staticmethod
    def refusal(errors):
        """A 400 in SAP's shape naming every error in errordetails (the first is the message)."""
        if not errors:
            return None
        code, message, target = errors[0]
        return sap_error(400, code, message, errors, target=target if code == "/IWBEP/CM_MGW_RT/022" else "")

    def commit(self, environ, node, post_path):
        """Creates a planned entity with its items in one pyslet POST (pyslet links them: its own
        deep insert) and answers 201 with the items inline, each with its ETag, as SAP Gateway
        answers a deep insert. Nothing is kept when any part is refused."""
        planned = []

        def walk(n):
            planned.append(self.entity_path(n["set"], n["values"]))
            for _, children in n["children"]:
                for c in children:
                    walk(c)

        walk(node)
        if len(set(planned)) != len(planned):
            dup = next(p for p in planned if planned.count(p) > 1)
            return sap_error(400, "/IWBEP/CM_MGW_RT/052", "Entity '%s' is in the request twice" % dup.strip("/"))
        for path in planned:
            if self.get_entity(environ, path) is not None:
                return sap_error(409, "/IWBEP/CM_MGW_RT/053", "Entity '%s' already exists" % path.strip("/"))

        def body_of(n):
            d = dict(n["values"])
            for nav, children in n["children"]:
                d[nav] = [body_of(c) for c in children]
            return d

        st, h, b = self.inner(environ, "POST", post_path, body=body_of(node))
        if st != 201:
            for path in reversed(planned):  # pyslet keeps what it inserted before the failure
                if self.get_entity(environ, path) is not None:
                    self.inner(environ, "DELETE", path)
            return st, h, b
        expand = []

        def navs(n, at):
            for nav, children in n["children"]:
                expand.append(at + nav)
                for c in children:
                    navs(c, at + nav + "/")

        navs(node, "")
        query = "$expand=" + ",".join(sorted(set(expand))) if expand else ""
        st2, h2, b2 = self.inner(environ, "GET", planned[0], query=query)
        if st2 != 200:
            return st, h, b
        doc = json.loads(b2)
        self.add_etags(environ, doc["d"])
        headers = {"Content-Type": h2.get("Content-Type", "application/json"), "DataServiceVersion": "2.0"}
        if "etag" in doc["d"]["__metadata"]:
            headers["ETag"] = doc["d"]["__metadata"]["etag"]
        for k, v in h.items():
            if k.lower() == "location":
                headers["Location"] = v
        return 201, headers, json.dumps(doc).encode()

    def delete_items(self, environ, set_name, path):
        """Deleting an entity deletes its items (Model.compositions), theirs first."""
        for nav, info in self.model.compositions(set_name).items():
            st, _, b = self.inner(environ, "GET", path + "/" + nav)
            if st != 200:
                continue
            for item in json.loads(b)["d"]["results"]:
                item_path = self.path_of(item)
                self.delete_items(environ, info["target"], item_path)
                self.inner(environ, "DELETE", item_path)

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
            # As SAP Gateway does for an action on an entity with an ETag (Fiori elements sends
            # the active entity's): a stale one is refused before a draft is made.
            given = environ.get("HTTP_IF_MATCH")
            if given and given.strip() != "*" and etag_of(entity) not in [g.strip() for g in given.split(",")]:
                return sap_error(412, "/IWBEP/CM_MGW_RT/191",
                                 "The entity has been changed since it was read (ETag mismatch)")
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
