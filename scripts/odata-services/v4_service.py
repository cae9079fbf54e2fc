"""An OData V4 test service that stands for a CAP / SAP RAP service with drafts.

odatapy 5.3.0 serves the corpus CSDL file as it is (service version pinned to 4.0, strict
deserialization) over its in-memory store, seeded from a JSON file. A processor subclass adds
what the real service does and odatapy does not:

- ETags on every entity set (CustomETagSupport): PATCH/DELETE need If-Match (428 / 412);
- keys and values the server fills: a Guid key, the draft columns, createdAt/modifiedAt,
  DefaultValue from the metadata;
- the draft protocol of a Common.DraftRoot set: POST creates a draft (IsActiveEntity=false);
  the bound actions its DraftRoot names (CAP: draftActivate, draftEdit, draftPrepare; RAP:
  Activate, Edit, Prepare, Discard);
- a draft-enabled entity (draft root or Common.DraftNode) is changed through a draft only, as
  CAP and RAP do: PATCH/PUT of an active instance is refused (400 DRAFT_ACTIVE_NOT_CHANGEABLE,
  "use the action Edit"; --bypass-draft allows it); DELETE of an active root deletes it with
  its children;
- the compositions of a draft, read from the metadata (a navigation property of a draft root or
  node bound to a draft node, OnDelete Cascade or a collection with a partner: RAP's
  Travel._Booking, Booking._BookSupplement): POST to a draft's composition creates a draft child
  (its Guid key made, its ReferentialConstraint properties and the parent's keys taken from the
  parent, related both ways so that GET …/_Booking and $expand list it); POST to an active
  parent's is refused (400 CREATE_BY_ASSOCIATION_NEEDS_DRAFT); Edit copies the children into
  the draft, recursively; activation makes the draft children the active ones (changed, new,
  and deleted ones); DELETE of a draft root discards its children too, of a draft child
  removes it from the draft;
- the service's own checks at activation (an incident identifier that is missing or already
  used; a booking whose flight date lies outside its travel's dates), refused with
  ODataApplicationException(message, 400, code, target, details) as CAP and RAP answer; targets
  of a bound action's errors start with the binding parameter: "in/identifier",
  "in/_Booking(BookingUUID=…,IsActiveEntity=false)/FlightDate"; a refused draft is kept as it is;
- seed rows may hold their composition children (a Travel's "_Booking": [rows]);
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
import threading
import urllib.parse
import uuid
import xml.etree.ElementTree as ET

import fw_common
from odatapy.data import Entity, ValueType
from odatapy.edm.json_value import format_key_literal, primitive_from_json
from odatapy.edm.xml_io import XmlEdmProvider
from odatapy.errors import ODataApplicationException, ODataErrorDetail
from odatapy.http.header import HttpHeader
from odatapy.http.status import HttpStatusCode
from odatapy.server.adapters import ODataWSGIApp
from odatapy.server.inmemory import InMemoryDataStore, InMemoryProcessor
from odatapy.server.odata import OData
from odatapy.server.processor import ActionProcessor, CustomETagSupport
from odatapy.server.serializer.json_serializer import EntitySerializerOptions
from odatapy.server.support import ETagHelper


DRAFT_ROLES = {"ActivationAction": "activate", "EditAction": "edit", "PreparationAction": "prepare",
               "DiscardAction": "discard"}
DRAFT_FLAGS = ("IsActiveEntity", "HasActiveEntity", "HasDraftEntity")


class Model:
    """Property types, defaults, navigation properties and their bindings, draft roots and nodes,
    their actions and compositions, and the value-list references, read from the file with
    ElementTree."""

    def __init__(self, path):
        root = ET.parse(path).getroot()
        aliases = {s.get("Alias"): s.get("Namespace") for s in root.iter()
                   if s.tag.endswith("}Schema") and s.get("Alias")}

        def qualify(name):
            name = name[len("Collection("):-1] if name.startswith("Collection(") else name
            ns, _, local = name.rpartition(".")
            return "%s.%s" % (aliases.get(ns, ns), local)

        self.types = {}  # "Namespace.Type" -> {keys, props{name: {type, default}}}
        self.navs = {}  # "Namespace.Type" -> {nav: {type, collection, partner, cascade, constraints}}
        self.sets = {}  # set name -> qualified type
        self.bindings = {}  # set name -> {navigation property: target set}
        for schema in root.iter():
            if not schema.tag.endswith("}Schema"):
                continue
            ns = schema.get("Namespace")
            for el in schema:
                if el.tag.endswith("}EntityType"):
                    keys = [r.get("Name") for k in el if k.tag.endswith("}Key") for r in k]
                    props = {p.get("Name"): {"type": p.get("Type"), "default": p.get("DefaultValue")}
                             for p in el if p.tag.endswith("}Property")}
                    name = "%s.%s" % (ns, el.get("Name"))
                    self.types[name] = {"keys": keys, "props": props}
                    self.navs[name] = {
                        n.get("Name"): {
                            "type": qualify(n.get("Type")), "collection": n.get("Type").startswith("Collection("),
                            "partner": n.get("Partner"),
                            "cascade": any(c.tag.endswith("}OnDelete") and c.get("Action") == "Cascade" for c in n),
                            "constraints": [(c.get("Property"), c.get("ReferencedProperty"))
                                            for c in n if c.tag.endswith("}ReferentialConstraint")],
                        } for n in el if n.tag.endswith("}NavigationProperty")}
                elif el.tag.endswith("}EntityContainer"):
                    for es in el:
                        if es.tag.endswith("}EntitySet"):
                            self.sets[es.get("Name")] = qualify(es.get("EntityType"))
                            self.bindings[es.get("Name")] = {
                                b.get("Path"): b.get("Target").split("/")[-1]
                                for b in es if b.tag.endswith("}NavigationPropertyBinding")}
        # Common.DraftRoot / DraftNode sets; the draft actions by their short names (CAP:
        # draftActivate; RAP: Activate), by role, and each root's qualified action names.
        self.draft_roots, self.draft_nodes = set(), set()
        self.draft_actions = {}
        self.root_actions = {}  # root set -> {role: qualified action name}
        self.references = []  # Common.ValueListReferences URLs, as written
        for ann in root.iter():
            if ann.tag.endswith("}Annotations"):
                for a in ann:
                    term = a.get("Term", "")
                    if term.endswith("common.DraftRoot") or term.endswith("Common.DraftRoot"):
                        set_name = ann.get("Target", "").split("/")[-1]
                        self.draft_roots.add(set_name)
                        for pv in a.iter():
                            role = DRAFT_ROLES.get(pv.get("Property"))
                            if role and pv.get("String"):
                                self.draft_actions[pv.get("String").split(".")[-1]] = role
                                self.root_actions.setdefault(set_name, {})[role] = pv.get("String")
                    elif term.endswith("common.DraftNode") or term.endswith("Common.DraftNode"):
                        self.draft_nodes.add(ann.get("Target", "").split("/")[-1])
                    elif term.endswith("ValueListReferences"):
                        self.references += [el.text.strip() for el in a.iter() if el.tag.endswith("}String") and el.text]
        self.draft_nodes -= self.draft_roots
        self.draft_sets = self.draft_roots | self.draft_nodes
        # The compositions of the draft: a navigation property of a draft root or node, bound to
        # a draft node (not the set itself: SiblingEntity), that deletes its targets with it
        # (OnDelete Cascade) or is a collection with a partner (the to-parent navigation).
        self.compositions = {}  # parent set -> [(navigation property, child set)]
        self.parents = {}  # child set -> [(parent set, navigation property)]
        for set_name in sorted(self.draft_sets):
            for nav, info in sorted(self.navs.get(self.sets.get(set_name), {}).items()):
                child = self.bindings.get(set_name, {}).get(nav)
                if (child in self.draft_nodes and child != set_name
                        and (info["cascade"] or (info["collection"] and info["partner"]))):
                    self.compositions.setdefault(set_name, []).append((nav, child))
                    self.parents.setdefault(child, []).append((set_name, nav))

    def type_of(self, set_name):
        return self.types[self.sets[set_name]]

    def nav(self, set_name, nav):
        return self.navs.get(self.sets.get(set_name), {}).get(nav)

    def composition(self, set_name, nav):
        """The child set of a composition of set_name, or None."""
        return next((child for n, child in self.compositions.get(set_name, []) if n == nav), None)

    def root_of(self, set_name, depth=0):
        if set_name in self.draft_roots or not self.parents.get(set_name) or depth > 8:
            return set_name
        return self.root_of(self.parents[set_name][0][0], depth + 1)

    def fills(self, parent_set, nav, depth=0):
        """What a child made through a composition takes from its parent: {child property: parent
        property}. The composition's ReferentialConstraint (Property on the parent, ReferencedProperty
        on the child: Travel._Booking TravelUUID = Booking.TravelUUID) and its partner's; then the
        parent's keys and what the parent itself took from its parent, where the child has a
        property of the same name (BookingSupplement.BookingUUID and .TravelUUID)."""
        child_set = self.composition(parent_set, nav)
        info = self.nav(parent_set, nav)
        child_props = self.type_of(child_set)["props"]
        parent_t = self.type_of(parent_set)
        pairs = {}
        for prop, ref in info["constraints"]:
            if ref in child_props and prop in parent_t["props"]:
                pairs[ref] = prop
        partner = self.nav(child_set, info["partner"] or "")
        for prop, ref in (partner or {}).get("constraints", []):
            if prop in child_props and ref in parent_t["props"]:
                pairs.setdefault(prop, ref)
        taken = set()
        if depth < 8:
            for grand, grand_nav in self.parents.get(parent_set, []):
                taken |= set(self.fills(grand, grand_nav, depth + 1))
        for name in parent_t["keys"] + sorted(taken):
            if name not in DRAFT_FLAGS and name in child_props and name in parent_t["props"]:
                pairs.setdefault(name, name)
        return pairs


def now():
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)


def default_value(type_name, text):
    if type_name == "Edm.Boolean":
        return text == "true"
    if type_name in ("Edm.Int32", "Edm.Int16", "Edm.Int64", "Edm.Byte"):
        return int(text)
    return text


def iso(value):
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def clone(entity):
    """A new entity with the same values: no id, ETag or navigation links (the links mirror the
    relation table, and a copy must not take its source's children along)."""
    return Entity(type=entity.type, properties=copy.deepcopy(entity.properties),
                  annotations=copy.deepcopy(entity.annotations))


class Processor(InMemoryProcessor, ActionProcessor):
    def __init__(self, store, model, user, bypass_draft=False):
        super().__init__(store)
        self.model = model
        self.user = user
        self.bypass_draft = bypass_draft
        self._local = threading.local()  # the parents of the entities being created (a stack)

    # -- helpers over the store -----------------------------------------------------------
    def _set(self, name):
        return self.service_metadata.edm.get_entity_set(name)

    def _key(self, set_name, entity):
        return self._key_of(self._set(set_name), entity)

    def _predicate(self, set_name, entity):
        """The key predicate as in a URL: BookingUUID=…,IsActiveEntity=false."""
        props = self.model.type_of(set_name)["props"]
        keys = self.model.type_of(set_name)["keys"]
        literals = [format_key_literal(entity.get_value(k), props[k]["type"]) for k in keys]
        return ",".join("%s=%s" % kv for kv in zip(keys, literals)) if len(keys) > 1 else literals[0]

    def _children(self, set_name, entity, nav):
        return self.store.relation(set_name, self._key(set_name, entity), nav) or []

    def _stack(self):
        if not hasattr(self._local, "stack"):
            self._local.stack = []
        return self._local.stack

    def _parent(self, set_name, entity):
        """(parent set, parent) of a draft node's instance, or None."""
        for parent_set, nav in self.model.parents.get(set_name, []):
            partner = self.model.nav(parent_set, nav)["partner"]
            found = self.store.relation(set_name, self._key(set_name, entity), partner) if partner else None
            if found:
                return parent_set, found[0]
            for parent in self.store.entities(parent_set):
                if any(child is entity for child in self._children(parent_set, parent, nav)):
                    return parent_set, parent
        return None

    def _ancestors(self, set_name, entity):
        found, seen = self._parent(set_name, entity), 0
        while found is not None and seen < 8:
            yield found
            found, seen = self._parent(*found), seen + 1

    def _descendants(self, set_name, entity):
        """Every instance below entity through the compositions, children before theirs."""
        for nav, child_set in self.model.compositions.get(set_name, []):
            for child in self._children(set_name, entity, nav):
                yield child_set, child
                yield from self._descendants(child_set, child)

    def _fill_from_parent(self, child_set, child, parent_set, parent, nav):
        props = self.model.type_of(child_set)["props"]
        for prop, source in self.model.fills(parent_set, nav).items():
            child.set_property(prop, parent.get_value(source), ValueType.PRIMITIVE, props[prop]["type"])

    def _relate_up(self, child_set, child, parent_set, parent, nav):
        """The child's to-parent navigation (the composition's partner, Booking._Travel) and its
        other single-valued navigations into an ancestor's set (BookingSupplement._Travel)."""
        partner = self.model.nav(parent_set, nav)["partner"]
        key = self._key(child_set, child)
        if partner:
            self.store.set_relation(child_set, key, partner, [parent])
        ancestors = [(parent_set, parent)] + list(self._ancestors(parent_set, parent))
        for name, info in self.model.navs.get(self.model.sets[child_set], {}).items():
            target = self.model.bindings.get(child_set, {}).get(name)
            if name == partner or info["collection"] or target == child_set:
                continue
            above = next((e for s, e in ancestors if s == target), None)
            if above is not None:
                self.store.set_relation(child_set, key, name, [above])

    def _link(self, parent_set, parent, nav, children):
        """Records children as the composition's targets of parent (replacing what it had)."""
        child_set = self.model.composition(parent_set, nav)
        self.store.set_relation(parent_set, self._key(parent_set, parent), nav, children)
        self._sync_link(parent, self._set(parent_set).entity_type.get_navigation_property(nav), children)
        for child in children:
            self._relate_up(child_set, child, parent_set, parent, nav)

    def _bump_etag(self, entity_set, entity, *, create=False):
        """The next W/"n" also for an entity never read yet (a seeded one), whose ETag is made then."""
        if entity is not None and not create:
            self._etag_of(entity_set, entity)
        super()._bump_etag(entity_set, entity, create=create)

    def _insert(self, set_name, entity):
        self.store.insert_entity(set_name, entity)
        self._bump_etag(self._set(set_name), entity, create=True)
        self.store.record_change(set_name, entity, "changed")

    def _remove(self, set_name, entity):
        self.store.remove_entity(set_name, entity)
        self.store.drop_relations_for(set_name, self._key(set_name, entity))
        self.store.record_change(set_name, entity, "deleted")

    def _flags(self, entity, active, has_active, has_draft):
        for name, value in zip(DRAFT_FLAGS, (active, has_active, has_draft)):
            entity.set_property(name, value, ValueType.PRIMITIVE, "Edm.Boolean")

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
        if name in self.model.draft_sets:
            self._flags(entity, False, False, False)
        stack, under = self._stack(), None
        if stack and name in self.model.draft_nodes:
            # Made through a composition (POST …/_Booking, or inline in a deep insert): the
            # referential constraint's properties come from the parent, and the draft state.
            parent_set, parent, nav = stack[-1]
            nav = nav or next((n for n, child in self.model.compositions.get(parent_set, []) if child == name), None)
            if nav is not None and self.model.composition(parent_set, nav) == name:
                under = (parent_set, parent, nav)
                self._fill_from_parent(name, entity, parent_set, parent, nav)
                if parent.get_value("IsActiveEntity") is True:  # only with --bypass-draft
                    self._flags(entity, True, False, False)
        self._stamp(t, entity, created=True)
        super()._assign_keys(entity_set, entity)
        if under is not None:
            self._relate_up(name, entity, *under)

    def _process_deep_insert(self, request, entity_set, entity, owner=None):
        stack = self._stack()
        stack.append((entity_set.name, owner if owner is not None else entity, None))
        try:
            super()._process_deep_insert(request, entity_set, entity, owner)
        finally:
            stack.pop()

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

    def check_items(self, set_name, root, prefix="in/"):
        """The checks of the draft's items at activation, every failing one a detail, each
        targeted by its path from the binding parameter: in/_Booking(BookingUUID=…,IsActiveEntity=false)/FlightDate."""
        details = []

        def walk(parent_set, parent, path, depth):
            for nav, child_set in self.model.compositions.get(parent_set, []):
                for child in self._children(parent_set, parent, nav):
                    child_path = "%s%s(%s)/" % (path, nav, self._predicate(child_set, child))
                    details.extend(self.item_errors(child_set, child, parent_set, parent, child_path))
                    if depth < 8:
                        walk(child_set, child, child_path, depth + 1)

        walk(set_name, root, prefix, 0)
        if details:
            first = details[0]
            raise ODataApplicationException(first.message, HttpStatusCode.BAD_REQUEST, code=first.code,
                                            target=first.target, details=details)

    def item_errors(self, set_name, entity, parent_set, parent, path):
        """RAP's travel: a booking's flight date lies within its travel's begin and end dates."""
        props, parent_props = self.model.type_of(set_name)["props"], self.model.type_of(parent_set)["props"]
        if not ("FlightDate" in props and "BeginDate" in parent_props and "EndDate" in parent_props):
            return []
        flight, begin, end = entity.get_value("FlightDate"), parent.get_value("BeginDate"), parent.get_value("EndDate")
        if flight is None or not ((begin is not None and iso(flight) < iso(begin)) or (end is not None and iso(flight) > iso(end))):
            return []
        msg = "Flight date %s must lie within the travel's dates (%s to %s)." % (
            iso(flight), iso(begin) if begin is not None else "open", iso(end) if end is not None else "open")
        code = "FLIGHT_DATE_OUTSIDE_TRAVEL"
        return [ODataErrorDetail(code=code, message=msg, target=path + "FlightDate")]

    # -- a draft-enabled entity's active instances are changed through a draft only ----------
    def _refuse_active_change(self, set_name, entity):
        root = self.model.root_of(set_name)
        edit = self.model.root_actions.get(root, {}).get("edit", "Edit")
        what = "%s(%s)" % (set_name, self._predicate(set_name, entity))
        how = ("Use the action %s to create a draft, change the draft and activate it." % edit if root == set_name
               else "Use the action %s of its %s to create a draft of the whole %s, change the draft and activate it."
               % (edit, root, root))
        raise ODataApplicationException(
            "%s is an active instance of a draft-enabled entity and cannot be changed directly. %s" % (what, how),
            HttpStatusCode.BAD_REQUEST, code="DRAFT_ACTIVE_NOT_CHANGEABLE")

    def _guard(self, request, uri_info):
        """Refuses a change of an active instance of a draft root or node (PATCH, PUT, a
        property's PUT/DELETE), unless --bypass-draft."""
        if self.bypass_draft:
            return
        target = self._resolve(request, uri_info, for_write=True)
        if target.entity_set is not None and target.entity_set.name in self.model.draft_sets \
                and target.entity is not None and target.entity.get_value("IsActiveEntity") is True:
            self._refuse_active_change(target.entity_set.name, target.entity)

    def create_entity(self, request, response, uri_info, request_ct, response_ct):
        with self.store.lock:
            target = self._resolve(request, uri_info, for_write=True)
            set_name = target.entity_set.name if target.entity_set is not None else None
            owner = target.owner if target.nav is not None else None
            context = None
            if owner is not None and target.owner_set_name in self.model.draft_sets:
                owner_set, nav = target.owner_set_name, target.nav.name
                if self.model.composition(owner_set, nav) == set_name:
                    if owner.get_value("IsActiveEntity") is True and not self.bypass_draft:
                        root = self.model.root_of(owner_set)
                        edit = self.model.root_actions.get(root, {}).get("edit", "Edit")
                        raise ODataApplicationException(
                            "%s(%s) is an active instance: a %s is created through %s of its draft "
                            "(create by association needs the draft). Use the action %s%s first, then POST "
                            "to %s of the draft (IsActiveEntity=false)." % (
                                owner_set, self._predicate(owner_set, owner), set_name, nav, edit,
                                "" if root == owner_set else " of its " + root, nav),
                            HttpStatusCode.BAD_REQUEST, code="CREATE_BY_ASSOCIATION_NEEDS_DRAFT")
                    context = (owner_set, owner, nav)
                elif set_name in self.model.draft_sets:
                    raise ODataApplicationException(
                        "%s of %s is no composition of the draft; a %s cannot be created through it." % (
                            nav, owner_set, set_name), HttpStatusCode.BAD_REQUEST, code="NOT_A_COMPOSITION")
            elif owner is None and set_name in self.model.draft_nodes and not self.bypass_draft:
                parent_set, nav = self.model.parents[set_name][0]
                raise ODataApplicationException(
                    "A %s is created through %s of its %s's draft (POST %s(…,IsActiveEntity=false)/%s), "
                    "not in %s directly." % (set_name, nav, parent_set, parent_set, nav, set_name),
                    HttpStatusCode.BAD_REQUEST, code="DRAFT_MODIFICATION_ONLY_VIA_ROOT")
            stack = self._stack()
            if context:
                stack.append(context)
            try:
                super().create_entity(request, response, uri_info, request_ct, response_ct)
            finally:
                if context:
                    stack.pop()

    def update_entity(self, request, response, uri_info, request_ct, response_ct):
        with self.store.lock:
            self._guard(request, uri_info)
            target = self._resolve(request, uri_info, for_write=True)
            existing = self._require_entity(target)
            set_name = target.entity_set.name if target.entity_set is not None else self._require_entity_set(uri_info).name
            if set_name in self.model.draft_roots or set_name == "Incidents":
                self._check_preconditions(request, target.entity_set, existing)
                try:
                    incoming = json.loads(request.body or b"{}")
                except ValueError:
                    incoming = {}
                if existing.get_value("IsActiveEntity") is not False and "identifier" in incoming:
                    probe = clone(existing)
                    probe.set_property("identifier", incoming["identifier"], ValueType.PRIMITIVE, "Edm.String")
                    self.check(set_name, probe, "")
            super().update_entity(request, response, uri_info, request_ct, response_ct)
            self._stamp(self.model.type_of(set_name), existing, created=False)

    def delete_entity(self, request, response, uri_info):
        """DELETE of a draft root discards the draft with its children; of a draft child removes it
        from the draft (its active copy goes at activation); of an active root deletes it with its
        children. An active child is deleted through a draft only."""
        with self.store.lock:
            target = self._resolve(request, uri_info, for_write=True)
            entity = target.entity
            set_name = target.entity_set.name if target.entity_set is not None else None
            if entity is None or set_name not in self.model.draft_sets:
                return super().delete_entity(request, response, uri_info)
            active = entity.get_value("IsActiveEntity") is not False
            if active and set_name in self.model.draft_nodes and not self.bypass_draft:
                self._refuse_active_change(set_name, entity)
            parent = self._parent(set_name, entity) if set_name in self.model.draft_nodes else None
            below = list(self._descendants(set_name, entity))
            super().delete_entity(request, response, uri_info)  # If-Match, then the entity itself
            self._dropped(set_name, entity, parent, below)

    def _dropped(self, set_name, entity, parent, below):
        """After entity left the store: its children go, its parent forgets it, and a discarded
        draft frees its active instances."""
        for child_set, child in below:
            self._remove(child_set, child)
        if parent is not None:
            parent_set, owner = parent
            for nav, child_set in self.model.compositions.get(parent_set, []):
                kids = self._children(parent_set, owner, nav)
                if child_set == set_name and any(k is entity for k in kids):
                    self.store.remove_relation(parent_set, self._key(parent_set, owner), nav, entity)
                    self._sync_link(owner, self._set(parent_set).entity_type.get_navigation_property(nav),
                                    self._children(parent_set, owner, nav))
        if entity.get_value("IsActiveEntity") is False and set_name in self.model.draft_roots:
            active = self._sibling(set_name, entity, True)
            if active is not None:  # discarding an edit draft frees the active entity
                for s, e in [(set_name, active)] + list(self._descendants(set_name, active)):
                    e.set_property("HasDraftEntity", False, ValueType.PRIMITIVE, "Edm.Boolean")

    def _discard(self, set_name, draft):
        """The DiscardAction: as DELETE of the draft, without If-Match."""
        below = list(self._descendants(set_name, draft))
        self._remove(set_name, draft)
        self._dropped(set_name, draft, None, below)

    # -- the draft actions -----------------------------------------------------------------
    def _sibling(self, set_name, entity, active):
        t = self.model.type_of(set_name)
        keys = [k for k in t["keys"] if k != "IsActiveEntity"]
        for other in self.store.entities(set_name):
            if other.get_value("IsActiveEntity") is active and all(other.get_value(k) == entity.get_value(k) for k in keys):
                return other
        return None

    def _same(self, set_name, a, b):
        return all(a.get_value(k) == b.get_value(k) for k in self.model.type_of(set_name)["keys"] if k != "IsActiveEntity")

    def _edit(self, set_name, active):
        """A draft of active and of its composition children, recursively (same keys,
        HasActiveEntity true), related as the active ones are."""
        draft = clone(active)
        self._flags(draft, False, True, False)
        active.set_property("HasDraftEntity", True, ValueType.PRIMITIVE, "Edm.Boolean")
        self._bump_etag(self._set(set_name), active)
        self._insert(set_name, draft)
        for nav, child_set in self.model.compositions.get(set_name, []):
            self._link(set_name, draft, nav, [self._edit(child_set, c) for c in self._children(set_name, active, nav)])
        return draft

    def _activate(self, set_name, draft, active):
        """The active instance made from draft (new, or active updated), then for every
        composition: each draft child activated onto its active copy (or a new one), active
        children without a draft copy deleted; the draft removed. Returns the active instance."""
        t = self.model.type_of(set_name)
        before = {}
        if active is None:
            active = clone(draft)
            self._flags(active, True, False, False)
            self._insert(set_name, active)
        else:
            for nav, child_set in self.model.compositions.get(set_name, []):
                before[nav] = self._children(set_name, active, nav)
            for p in draft.properties:
                if p.name not in DRAFT_FLAGS:
                    active.set_property(p.name, copy.deepcopy(p.value), p.value_type, getattr(p, "type", None))
            active.set_property("HasDraftEntity", False, ValueType.PRIMITIVE, "Edm.Boolean")
            self._stamp(t, active, created=False)
            self._bump_etag(self._set(set_name), active)
            self.store.record_change(set_name, active, "changed")
        for nav, child_set in self.model.compositions.get(set_name, []):
            old = before.get(nav, [])
            new = []
            for child in self._children(set_name, draft, nav):
                match = next((a for a in old if self._same(child_set, a, child)), None)
                if match is None and child.get_value("HasActiveEntity") is True:
                    match = self._sibling(child_set, child, True)
                new.append(self._activate(child_set, child, match))
            for gone in old:
                if not any(gone is n for n in new):
                    for s, e in [(child_set, gone)] + list(self._descendants(child_set, gone)):
                        self._remove(s, e)
            self._link(set_name, active, nav, new)
        self._remove(set_name, draft)
        return active

    def process_action_void(self, request, response, uri_info, request_ct):
        """RAP's Prepare returns nothing: the draft must exist; 204. RAP's Discard: as DELETE of
        the draft; 204."""
        with self.store.lock:
            parts = uri_info.resource_parts
            name = parts[-1].name.split(".")[-1]
            entity_set = self._require_entity_set(uri_info)
            action = self.model.draft_actions.get(name)
            if entity_set.name not in self.model.draft_roots or action not in ("prepare", "discard"):
                raise ODataApplicationException("The action %s is not implemented by this test service." % name,
                                                HttpStatusCode.NOT_IMPLEMENTED, code="501")
            entity = self._find_by_key(entity_set, parts[0])
            if action == "discard":
                if entity.get_value("IsActiveEntity") is not False:
                    raise ODataApplicationException("Only a draft can be discarded.", HttpStatusCode.BAD_REQUEST, code="400")
                self._discard(entity_set.name, entity)
            response.set_status(HttpStatusCode.NO_CONTENT)

    def process_action_entity(self, request, response, uri_info, request_ct, response_ct):
        with self.store.lock:
            parts = uri_info.resource_parts
            name = parts[-1].name.split(".")[-1]
            action = self.model.draft_actions.get(name)
            entity_set = self._require_entity_set(uri_info)
            set_name = entity_set.name
            if set_name not in self.model.draft_roots or action not in ("prepare", "edit", "activate"):
                raise ODataApplicationException("The action %s is not implemented by this test service." % name,
                                                HttpStatusCode.NOT_IMPLEMENTED, code="501")
            entity = self._find_by_key(entity_set, parts[0])
            if action in ("edit", "activate"):  # If-Match, when sent, as Fiori elements sends it
                ETagHelper.check_change_preconditions(self._etag_of(entity_set, entity), request.if_match, None)
            status = HttpStatusCode.OK
            if action == "prepare":
                result = entity
            elif action == "edit":
                if entity.get_value("IsActiveEntity") is not True:
                    raise ODataApplicationException("Only an active entity can be edited.", HttpStatusCode.BAD_REQUEST, code="400")
                if self._sibling(set_name, entity, False) is not None:
                    raise ODataApplicationException("A draft for this entity already exists.", HttpStatusCode.CONFLICT,
                                                    code="DRAFT_ALREADY_EXISTS")
                result = self._edit(set_name, entity)
            else:  # activate: every check first; a refused draft is kept as it is
                if entity.get_value("IsActiveEntity") is not False:
                    raise ODataApplicationException("Only a draft can be activated.", HttpStatusCode.BAD_REQUEST, code="400")
                self.check(set_name, entity, "in/")
                self.check_items(set_name, entity)
                result = self._activate(set_name, entity, self._sibling(set_name, entity, True))
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

    # -- seeding ---------------------------------------------------------------------------
    def seed(self, data):
        """{set: [rows]}; a row may hold its composition children under the navigation property
        (a Travel's "_Booking": [rows]), which take the parent's draft state and keys."""
        with self.store.lock:
            for set_name, rows in data.items():
                self.store.set_entities(set_name, [])
                for row in rows:
                    self._seed_row(set_name, row, None)

    def _seed_row(self, set_name, row, parent):
        navs = self.model.navs.get(self.model.sets[set_name], {})
        entity = entity_of(self.model, set_name, {k: v for k, v in row.items() if k not in navs})
        if parent is not None:
            parent_set, owner, nav = parent
            self._fill_from_parent(set_name, entity, parent_set, owner, nav)
            for flag, value in zip(DRAFT_FLAGS, (owner.get_value("IsActiveEntity"), False, False)):
                if flag not in row and flag in self.model.type_of(set_name)["props"]:
                    entity.set_property(flag, value, ValueType.PRIMITIVE, "Edm.Boolean")
        self.store.insert_entity(set_name, entity)
        for nav, rows in row.items():
            if nav in navs:
                child_set = self.model.composition(set_name, nav)
                if child_set is None:
                    raise SystemExit("seed: %s.%s is no composition of a draft" % (set_name, nav))
                self._link(set_name, entity, nav, [self._seed_row(child_set, r, (set_name, entity, nav)) for r in rows])
        return entity


def _guarded(name):
    def method(self, request, response, uri_info, *rest):
        with self.store.lock:
            self._guard(request, uri_info)
            return getattr(super(Processor, self), name)(request, response, uri_info, *rest)
    method.__name__ = name
    return method


for _name in ("update_primitive", "update_primitive_value", "delete_primitive", "update_primitive_collection",
              "delete_primitive_collection", "update_complex", "delete_complex", "update_complex_collection",
              "delete_complex_collection"):
    setattr(Processor, _name, _guarded(_name))


class AllSetsHaveETags(CustomETagSupport):
    def has_etag(self, entity_set_or_singleton):
        return True


def entity_of(model, set_name, row):
    props = model.type_of(set_name)["props"]
    e = Entity()
    for k, v in row.items():
        e.set_property(k, primitive_from_json(v, props[k]["type"]), ValueType.PRIMITIVE, props[k]["type"])
    return e


def seed(store, model, data):
    for set_name, rows in data.items():
        store.set_entities(set_name, [entity_of(model, set_name, row) for row in rows])


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
        self.processor = Processor(self.store, self.model, self.creds[0] if self.creds else "anonymous",
                                   bypass_draft=args.bypass_draft)
        handler.register(self.processor)
        handler.register(AllSetsHaveETags())
        self.odata_app = ODataWSGIApp(handler, mount_path=self.root.rstrip("/"))
        self.log = fw_common.RequestLog(args.log)
        self.seed(json.load(open(args.seed, encoding="utf-8")))
        self.value_helps = {}
        if args.value_helps:
            seeds = json.load(open(args.value_help_seed, encoding="utf-8")) if args.value_help_seed else {}
            self.value_helps = self.value_help_services(args.value_helps, seeds)

    def seed(self, data):
        self.processor.seed(data)

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
    parser.add_argument("--bypass-draft", action="store_true",
                        help="allow PATCH/PUT/DELETE of active instances of draft-enabled entities (CAP's "
                             "cds.fiori.bypass_draft); by default they are changed through a draft only")
    args = parser.parse_args()
    fw_common.serve(lambda port: App(args, port), args.port, "v4_service")


if __name__ == "__main__":
    main()
