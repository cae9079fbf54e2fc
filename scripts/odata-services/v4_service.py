"""An OData V4 test service that stands for a CAP / SAP RAP service with drafts.

odatapy 5.3.0 serves the corpus CSDL file as it is (service version pinned to 4.0, strict
deserialization) over its in-memory store, seeded from a JSON file. A processor subclass adds
what the real service does and odatapy does not:

- ETags on every entity set (CustomETagSupport): PATCH/DELETE need If-Match (428 / 412);
- keys and values the server fills: a Guid key, the draft columns, createdAt/modifiedAt,
  DefaultValue from the metadata;
- the draft protocol of a Common.DraftRoot set: POST creates a draft (IsActiveEntity=false);
  the bound actions its DraftRoot names (CAP: draftActivate, draftEdit, draftPrepare; RAP:
  Activate, Edit, Prepare);
- the service's own checks (an incident identifier that is missing or already used), refused
  with ODataApplicationException(message, 400, code, target, details) as CAP and RAP answer;
  targets of a bound action's errors start with the binding parameter: "in/identifier";
- basic auth (when --user is given) and a request log at GET /_log (and --log FILE);
- with --value-helps, the value-help services of their own that the metadata's
  Common.ValueListReferences name (SAP RAP's srvd_f4 services), each at the path its reference
  resolves to, read only, behind the same basic auth.

  python v4_service.py --port 8404 --metadata ../shared/corpus/odata-v4/fts__incident-management.cap.metadata.xml \
      --seed scripts/odata-services/seeds/incident_management.json
"""

import argparse
import copy
import datetime
import json
import os
import re
import urllib.parse
import uuid
import xml.etree.ElementTree as ET

import fw_common
from odatapy.data import Entity, ValueType
from odatapy.edm.json_value import primitive_from_json
from odatapy.edm.xml_io import XmlEdmProvider
from odatapy.errors import ODataApplicationException, ODataErrorDetail
from odatapy.http.header import HttpHeader
from odatapy.http.status import HttpStatusCode
from odatapy.server.adapters import ODataWSGIApp
from odatapy.server.inmemory import InMemoryDataStore, InMemoryProcessor
from odatapy.server.odata import OData
from odatapy.server.processor import ActionProcessor, CustomETagSupport
from odatapy.server.serializer.json_serializer import EntitySerializerOptions


DRAFT_ROLES = {"ActivationAction": "activate", "EditAction": "edit", "PreparationAction": "prepare"}


class Model:
    """Property types, defaults, draft roots and their actions, and the value-list references,
    read from the file with ElementTree."""

    def __init__(self, path):
        root = ET.parse(path).getroot()
        self.types = {}  # "Namespace.Type" -> {keys, props{name: {type, default}}}
        self.sets = {}  # set name -> qualified type
        self.draft_roots = set()
        for schema in root.iter():
            if not schema.tag.endswith("}Schema"):
                continue
            ns = schema.get("Namespace")
            for el in schema:
                if el.tag.endswith("}EntityType"):
                    keys = [r.get("Name") for k in el if k.tag.endswith("}Key") for r in k]
                    props = {p.get("Name"): {"type": p.get("Type"), "default": p.get("DefaultValue")}
                             for p in el if p.tag.endswith("}Property")}
                    self.types["%s.%s" % (ns, el.get("Name"))] = {"keys": keys, "props": props}
                elif el.tag.endswith("}EntityContainer"):
                    for es in el:
                        if es.tag.endswith("}EntitySet"):
                            self.sets[es.get("Name")] = es.get("EntityType")
        # The draft actions by their short names (CAP: draftActivate; RAP: Activate), by role.
        self.draft_actions = {}
        self.references = []  # Common.ValueListReferences URLs, as written
        for ann in root.iter():
            if ann.tag.endswith("}Annotations"):
                for a in ann:
                    term = a.get("Term", "")
                    if term.endswith("common.DraftRoot") or term.endswith("Common.DraftRoot"):
                        self.draft_roots.add(ann.get("Target", "").split("/")[-1])
                        for pv in a.iter():
                            role = DRAFT_ROLES.get(pv.get("Property"))
                            if role and pv.get("String"):
                                self.draft_actions[pv.get("String").split(".")[-1]] = role
                    elif term.endswith("ValueListReferences"):
                        self.references += [el.text.strip() for el in a.iter() if el.tag.endswith("}String") and el.text]

    def type_of(self, set_name):
        return self.types[self.sets[set_name]]


def now():
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)


def default_value(type_name, text):
    if type_name == "Edm.Boolean":
        return text == "true"
    if type_name in ("Edm.Int32", "Edm.Int16", "Edm.Int64", "Edm.Byte"):
        return int(text)
    return text


class Processor(InMemoryProcessor, ActionProcessor):
    def __init__(self, store, model, user):
        super().__init__(store)
        self.model = model
        self.user = user

    # -- values the server fills on create ------------------------------------------------
    def _assign_keys(self, entity_set, entity):
        name = entity_set.name
        t = self.model.type_of(name)
        for k, p in t["props"].items():
            if entity.get_property(k) is None and p["default"] is not None:
                entity.set_property(k, default_value(p["type"], p["default"]), ValueType.PRIMITIVE, p["type"])
        for k in t["keys"]:
            if t["props"][k]["type"] == "Edm.Guid":
                entity.set_property(k, uuid.uuid4(), ValueType.PRIMITIVE, "Edm.Guid")  # Core.Computed
        if name in self.model.draft_roots:
            for k, v in (("IsActiveEntity", False), ("HasActiveEntity", False), ("HasDraftEntity", False)):
                entity.set_property(k, v, ValueType.PRIMITIVE, "Edm.Boolean")
        self._stamp(t, entity, created=True)
        return super()._assign_keys(entity_set, entity)

    def _stamp(self, t, entity, created):
        fields = (("createdAt", "createdBy"), ("modifiedAt", "modifiedBy")) if created else (("modifiedAt", "modifiedBy"),)
        for at, by in fields:
            if at in t["props"]:
                entity.set_property(at, now(), ValueType.PRIMITIVE, "Edm.DateTimeOffset")
            if by in t["props"]:
                entity.set_property(by, self.user, ValueType.PRIMITIVE, "Edm.String")

    # -- the service's own checks ---------------------------------------------------------
    def check(self, set_name, entity, prefix):
        """Incidents: the identifier is mandatory (identifierFieldControl 7) and unique."""
        if set_name != "Incidents":
            return
        target = prefix + "identifier"
        ident = (entity.get_value("identifier") or "").strip()
        if not ident:
            msg = "Provide an identifier for the incident."
            raise ODataApplicationException(msg, HttpStatusCode.BAD_REQUEST, code="ASSERT_NOT_NULL", target=target,
                                            details=[ODataErrorDetail(code="ASSERT_NOT_NULL", message=msg, target=target)])
        for other in self.store.entities(set_name):
            if (other.get_value("IsActiveEntity") is True and other.get_value("ID") != entity.get_value("ID")
                    and (other.get_value("identifier") or "").strip().lower() == ident.lower()):
                msg = "An incident with identifier %s already exists." % ident
                raise ODataApplicationException(msg, HttpStatusCode.BAD_REQUEST, code="IDENTIFIER_NOT_UNIQUE", target=target,
                                                details=[ODataErrorDetail(code="IDENTIFIER_NOT_UNIQUE", message=msg, target=target)])

    def update_entity(self, request, response, uri_info, request_ct, response_ct):
        with self.store.lock:
            set_name = self._require_entity_set(uri_info).name
            if set_name in self.model.draft_roots or set_name == "Incidents":
                target = self._resolve(request, uri_info, for_write=True)
                existing = self._require_entity(target)
                self._check_preconditions(request, target.entity_set, existing)
                try:
                    incoming = json.loads(request.body or b"{}")
                except ValueError:
                    incoming = {}
                if existing.get_value("IsActiveEntity") is not False and "identifier" in incoming:
                    probe = copy.deepcopy(existing)
                    probe.set_property("identifier", incoming["identifier"], ValueType.PRIMITIVE, "Edm.String")
                    self.check(set_name, probe, "")
            super().update_entity(request, response, uri_info, request_ct, response_ct)
            target = self._resolve(request, uri_info)
            if target.entity is not None:
                self._stamp(self.model.type_of(set_name), target.entity, created=False)

    def delete_entity(self, request, response, uri_info):
        with self.store.lock:
            set_name = self._require_entity_set(uri_info).name
            target = self._resolve(request, uri_info, for_write=True)
            entity = target.entity
            super().delete_entity(request, response, uri_info)
            if set_name in self.model.draft_roots and entity is not None and entity.get_value("IsActiveEntity") is False:
                active = self._sibling(set_name, entity, True)
                if active is not None:  # discarding an edit draft frees the active entity
                    active.set_property("HasDraftEntity", False, ValueType.PRIMITIVE, "Edm.Boolean")

    # -- the draft actions -----------------------------------------------------------------
    def _sibling(self, set_name, entity, active):
        t = self.model.type_of(set_name)
        keys = [k for k in t["keys"] if k != "IsActiveEntity"]
        for other in self.store.entities(set_name):
            if other.get_value("IsActiveEntity") is active and all(other.get_value(k) == entity.get_value(k) for k in keys):
                return other
        return None

    def process_action_void(self, request, response, uri_info, request_ct):
        """RAP's Prepare returns nothing: the draft must exist; 204."""
        with self.store.lock:
            parts = uri_info.resource_parts
            name = parts[-1].name.split(".")[-1]
            entity_set = self._require_entity_set(uri_info)
            if entity_set.name not in self.model.draft_roots or self.model.draft_actions.get(name) != "prepare":
                raise ODataApplicationException("The action %s is not implemented by this test service." % name,
                                                HttpStatusCode.NOT_IMPLEMENTED, code="501")
            self._find_by_key(entity_set, parts[0])
            response.set_status(HttpStatusCode.NO_CONTENT)

    def process_action_entity(self, request, response, uri_info, request_ct, response_ct):
        with self.store.lock:
            parts = uri_info.resource_parts
            name = parts[-1].name.split(".")[-1]
            action = self.model.draft_actions.get(name)
            entity_set = self._require_entity_set(uri_info)
            set_name = entity_set.name
            if set_name not in self.model.draft_roots or action is None:
                raise ODataApplicationException("The action %s is not implemented by this test service." % name,
                                                HttpStatusCode.NOT_IMPLEMENTED, code="501")
            entity = self._find_by_key(entity_set, parts[0])
            t = self.model.type_of(set_name)
            status = HttpStatusCode.OK
            if action == "prepare":
                result = entity
            elif action == "edit":
                if entity.get_value("IsActiveEntity") is not True:
                    raise ODataApplicationException("Only an active entity can be edited.", HttpStatusCode.BAD_REQUEST, code="400")
                if self._sibling(set_name, entity, False) is not None:
                    raise ODataApplicationException("A draft for this entity already exists.", HttpStatusCode.CONFLICT,
                                                    code="DRAFT_ALREADY_EXISTS")
                result = copy.deepcopy(entity)
                result.id, result.etag = None, None
                result.set_property("IsActiveEntity", False, ValueType.PRIMITIVE, "Edm.Boolean")
                result.set_property("HasActiveEntity", True, ValueType.PRIMITIVE, "Edm.Boolean")
                entity.set_property("HasDraftEntity", True, ValueType.PRIMITIVE, "Edm.Boolean")
                self._bump_etag(entity_set, entity)
                self.store.insert_entity(set_name, result)
                self._bump_etag(entity_set, result, create=True)
            else:  # activate
                if entity.get_value("IsActiveEntity") is not False:
                    raise ODataApplicationException("Only a draft can be activated.", HttpStatusCode.BAD_REQUEST, code="400")
                self.check(set_name, entity, "in/")
                active = self._sibling(set_name, entity, True)
                if active is None:
                    result = copy.deepcopy(entity)
                    result.id, result.etag = None, None
                    result.set_property("IsActiveEntity", True, ValueType.PRIMITIVE, "Edm.Boolean")
                    result.set_property("HasActiveEntity", False, ValueType.PRIMITIVE, "Edm.Boolean")
                    self.store.insert_entity(set_name, result)
                    self._bump_etag(entity_set, result, create=True)
                else:
                    for p in entity.properties:
                        if p.name not in ("IsActiveEntity", "HasActiveEntity", "HasDraftEntity"):
                            active.set_property(p.name, p.value, p.value_type, getattr(p, "type", None))
                    active.set_property("HasDraftEntity", False, ValueType.PRIMITIVE, "Edm.Boolean")
                    self._stamp(t, active, created=False)
                    self._bump_etag(entity_set, active)
                    result = active
                self.store.remove_entity(set_name, entity)
                self.store.record_change(set_name, entity, "deleted")
            self._ensure_id(request, entity_set, result)
            etag = self._etag_of(entity_set, result)
            if etag:
                response.set_header(HttpHeader.ETAG, etag)
            serializer = self._serializer(response_ct, request)
            options = EntitySerializerOptions(
                context_url=self._context(request, "%s/$entity" % set_name),
                omit_values=self._omit_values(request, response),
                service_version=self._version(request),
            )
            body = serializer.entity(self.service_metadata.edm, entity_set.entity_type, result, options)
            self._write(request, response, body, response_ct, status=status)


class AllSetsHaveETags(CustomETagSupport):
    def has_etag(self, entity_set_or_singleton):
        return True


def seed(store, model, data):
    for set_name, rows in data.items():
        props = model.type_of(set_name)["props"]
        entities = []
        for row in rows:
            e = Entity()
            for k, v in row.items():
                e.set_property(k, primitive_from_json(v, props[k]["type"]), ValueType.PRIMITIVE, props[k]["type"])
            entities.append(e)
        store.set_entities(set_name, entities)


class ValueHelpService:
    """A value-help service of its own (SAP RAP's srvd_f4): its CSDL file served by odatapy over
    an in-memory store, read only, mounted inside the app at /_f4/<view>/."""

    def __init__(self, path, rows, view):
        self.mount = "/_f4/" + view
        provider = XmlEdmProvider.from_file(path)
        odata = OData.new_instance(strict_deserialization=True)
        handler = odata.create_handler(odata.create_service_metadata(provider, service_version="4.0"))
        store = InMemoryDataStore()
        handler.register(InMemoryProcessor(store))
        seed(store, Model(path), rows)
        self.app = ODataWSGIApp(handler, mount_path=self.mount)

    def __call__(self, environ, start_response, rest):
        environ = dict(environ, PATH_INFO=self.mount + "/" + rest)
        return self.app(environ, start_response)


class App:
    def __init__(self, args, port):
        self.root = "/" + args.root.strip("/") + "/"
        self.model = Model(args.metadata)
        provider = XmlEdmProvider.from_file(args.metadata)
        odata = OData.new_instance(strict_deserialization=True)
        handler = odata.create_handler(odata.create_service_metadata(provider, service_version="4.0"))
        self.store = InMemoryDataStore()
        self.creds = fw_common.credentials(args)
        handler.register(Processor(self.store, self.model, self.creds[0] if self.creds else "anonymous"))
        handler.register(AllSetsHaveETags())
        self.odata_app = ODataWSGIApp(handler, mount_path=self.root.rstrip("/"))
        self.log = fw_common.RequestLog(args.log)
        self.seed(json.load(open(args.seed, encoding="utf-8")))
        self.value_helps = {}
        if args.value_helps:
            seeds = json.load(open(args.value_help_seed, encoding="utf-8")) if args.value_help_seed else {}
            self.value_helps = self.value_help_services(args.value_helps, seeds)

    def seed(self, data):
        seed(self.store, self.model, data)

    def value_help_services(self, folder, seeds):
        """The value-help services the metadata's Common.ValueListReferences name, each at the path
        its reference resolves to (against this service's $metadata, as Fiori elements and
        Fieldwork resolve it) and found in `folder` as <view>.xml by the view in that path
        (.../srvd_f4/sap/i_currency/0001;ps=...;va=.../): resolved path -> service."""
        services, routes = {}, {}
        base = "http://service" + self.root + "$metadata"
        for reference in self.model.references:
            path = urllib.parse.urlsplit(urllib.parse.urljoin(base, reference)).path
            found = re.search(r"/srvd_f4/[^/]+/([^/;]+)/[^/]*/\$metadata$", path)
            if not found or not os.path.exists(os.path.join(folder, found.group(1) + ".xml")):
                continue
            view = found.group(1)
            if view not in services:
                services[view] = ValueHelpService(os.path.join(folder, view + ".xml"), seeds.get(view, {}), view)
            routes[path[:-len("$metadata")]] = services[view]
        return routes

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        if path == "/_log":
            return self.log.app(environ, start_response)
        method = environ["REQUEST_METHOD"].upper()
        captured = {}

        def start(status, headers, exc_info=None):
            captured["status"] = status
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)

        if not fw_common.auth_ok(environ, self.creds):
            body = json.dumps({"error": {"code": "401", "message": "Unauthorized"}}).encode()
            start("401 Unauthorized", [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                                       ("WWW-Authenticate", 'Basic realm="Users"')])
            out = [body]
        elif any(path.startswith(r) for r in self.value_helps):
            root = next(r for r in self.value_helps if path.startswith(r))
            out = [b"".join(self.value_helps[root](environ, start, path[len(root):]))]
        elif not (path + "/").startswith(self.root):
            body = b"Not found: the service root is " + self.root.encode() + b"\n"
            start("404 Not Found", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
            out = [body]
        else:
            out = [b"".join(self.odata_app(environ, start))]
        if method in fw_common.CHANGING:
            self.log.add(environ, captured.get("status", "500"))
        return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    fw_common.add_common_args(parser, "/odata/v4/incident/")
    parser.add_argument("--value-helps", default=None,
                        help="a folder of value-help services (<view>.xml) to serve where the metadata's "
                             "Common.ValueListReferences point")
    parser.add_argument("--value-help-seed", default=None, help="their rows: {view: {entity set: [rows]}}")
    args = parser.parse_args()
    fw_common.serve(lambda port: App(args, port), args.port, "v4_service")


if __name__ == "__main__":
    main()
