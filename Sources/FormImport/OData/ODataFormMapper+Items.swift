import FormModel

/// An entity's compositions as item lists (`../shared/spec/items.md`, "Where item lists come
/// from"): a navigation property to a collection that is a composition of the entity (V4
/// `ContainsTarget="true"`, `Common.Composition`, or a child set marked `Common.DraftNode` under a
/// `Common.DraftRoot` or another draft node; V2 the navigation the entity's `UI.Facets` show as
/// `to_X/@UI.LineItem` whose target set is creatable). Its items' fields are the child's by the
/// usual mapping (its own form, when its set gives one), without the keys the service computes
/// and without the properties that hold the parent's key.
extension ODataFormMapper {
    /// A composition of an entity type, found in the metadata.
    struct Composition {
        let navigation: String
        let childSet: EntitySetDecl
        /// The child's properties that hold the parent's key (the referential constraint).
        let parentKey: Set<String>
        /// The `Label` of the facet that shows the items as a table, if any.
        let facetLabel: String?
    }

    /// A form's mapped outcome by entity set name, for the compositions to take their items from.
    typealias Mapped = [String: (schema: FormSchema, binding: ServiceBinding)]

    /// The form of `set` with its compositions as item lists, three levels deep at most; other
    /// navigation properties stay out.
    func withItems(
        _ schema: FormSchema, binding: ServiceBinding, set: EntitySetDecl, mapped: Mapped, depth: Int = 1,
        visiting: Set<String> = []
    ) -> (FormSchema, ServiceBinding) {
        var schema = schema
        var binding = binding
        guard depth <= ItemList.maxDepth else { return (schema, binding) }
        var taken = Set(schema.allFields.map(\.name))
        // A composition of the set itself, or of a set above it, would nest without end.
        let above = visiting.union([set.name])
        for composition in compositions(of: set) where !above.contains(composition.childSet.name) {
            let child = mapped[composition.childSet.name] ?? childForm(composition.childSet)
            guard let child else { continue }
            let (itemSchema, itemBinding) = withItems(
                child.schema, binding: child.binding, set: composition.childSet, mapped: mapped, depth: depth + 1,
                visiting: above)
            let name = ImportNames.unique(ImportNames.valid(composition.navigation), taken: taken)
            taken.insert(name)
            guard var list = itemList(name: name, from: itemSchema, binding: itemBinding, composition: composition)
            else { continue }
            // The child's option lists join the form's, renamed where an id is taken.
            var renamed: [String: String] = [:]
            for optionList in itemSchema.lists {
                let id = ImportNames.unique(optionList.id, taken: Set(schema.lists.map(\.id)))
                renamed[optionList.id] = id
                var copy = optionList
                copy.id = id
                schema.lists.append(copy)
            }
            list.groups = list.groups.editingWithinItems { groups in
                for g in groups.indices {
                    for f in groups[g].fields.indices {
                        if let id = groups[g].fields[f].list { groups[g].fields[f].list = renamed[id] ?? id }
                    }
                }
            }
            if let index = schema.sections.firstIndex(where: { $0.kind == .properties }) {
                schema.sections[index].groups.append(FieldGroup(items: list))
            } else {
                let at = schema.sections.firstIndex { $0.kind == .accessory } ?? schema.sections.endIndex
                schema.sections.insert(FormSection(kind: .properties, groups: [FieldGroup(items: list)]), at: at)
            }
            binding.compositions = (binding.compositions ?? [:]).merging(
                [name: ServiceComposition(navigation: composition.navigation, binding: itemBinding)]
            ) { _, new in new }
        }
        return (schema, binding)
    }

    /// The fields of an item from the child's form: every field of its sections, groups kept,
    /// but the keys the service computes, the properties holding the parent's key, attachments
    /// and prefills; nil when none is left.
    private func itemList(
        name: String, from child: FormSchema, binding: ServiceBinding, composition: Composition
    ) -> ItemList? {
        let computedKeys = Set(binding.keys.filter(\.computed).map(\.name))
        var groups: [FieldGroup] = []
        for section in child.sections {
            for group in section.groups {
                if group.items != nil {
                    groups.append(group)
                    continue
                }
                var kept = group
                kept.fields = group.fields.compactMap { field in
                    guard field.kind != .attachments else { return nil }
                    if let property = binding.fields[field.name]?.name,
                        composition.parentKey.contains(property) || computedKeys.contains(property)
                    {
                        return nil
                    }
                    var field = field
                    field.prefill = nil
                    return field
                }
                if !kept.fields.isEmpty { groups.append(kept) }
            }
        }
        guard groups.contains(where: { !$0.fields.isEmpty }) else { return nil }
        let header = index.table(composition.childSet.entityType).flatMap { index.peek($0, Term.headerInfo) }
        let plural = header?.value.record?["TypeNamePlural"]?.string
        let label =
            self.label(composition.facetLabel, plural)
            ?? Words.fromIdentifier(
                String(composition.navigation.drop { $0 == "_" }).replacingOccurrences(of: "to_", with: ""))
        return ItemList(
            name: name, label: label, object: child.object ?? label, maxCount: ItemList.maxItems, groups: groups,
            location: SourceLocation(line: composition.childSet.line))
    }

    /// The child set's form when its set gives none of its own (an entity created only through
    /// its parent: RAP's create-by-association), mapped as a form would be.
    private func childForm(_ set: EntitySetDecl) -> (schema: FormSchema, binding: ServiceBinding)? {
        guard case .form(let schema, let binding) = form(for: set, id: set.name, asItems: true) else { return nil }
        return (schema, binding)
    }

    /// The compositions of an entity set's type, in declaration order.
    func compositions(of set: EntitySetDecl) -> [Composition] {
        guard let type = metadata.types[set.entityType] else { return [] }
        let setTarget = set.container + "/" + set.name
        // Looked at, not taken: `Common.DraftRoot` stays reported as the binding leaves it.
        let isDraft =
            index.table(setTarget).map {
                index.peek($0, Term.draftRoot) != nil || index.peek($0, Term.draftNode) != nil
            } ?? false
        let lineItems = lineItemFacets(of: set.entityType)
        var found: [Composition] = []
        for navigation in type.navigations {
            if let typeName = navigation.type {
                // V4: a collection composed into the entity.
                guard navigation.isCollection, let child = childSet(of: navigation, type: typeName, in: set) else {
                    continue
                }
                let composed =
                    navigation.containsTarget
                    || index.take(set.entityType + "/" + navigation.name, Term.composition) != nil
                    || (isDraft && index.take(child.container + "/" + child.name, Term.draftNode) != nil)
                guard composed else { continue }
                var parentKey = Set(navigation.constraints.map(\.referenced))
                if let partner = navigation.partner,
                    let back = metadata.types[typeName]?.navigations.first(where: { $0.name == partner })
                {
                    parentKey.formUnion(back.constraints.map(\.property))
                }
                found.append(
                    Composition(
                        navigation: navigation.name, childSet: child, parentKey: parentKey,
                        facetLabel: lineItems[navigation.name] ?? nil))
            } else if let relationship = navigation.relationship, let toRole = navigation.toRole,
                let association = metadata.associations[relationship], let end = association.ends[toRole],
                end.multiplicity == "*", lineItems.keys.contains(navigation.name)
            {
                // V2: a table of the entity's facets whose set takes creates.
                guard let child = metadata.entitySets.first(where: { $0.entityType == end.type }),
                    child.sap.creatable != "false",
                    case .insertable = insertRestrictions(of: child, target: child.container + "/" + child.name)
                else { continue }
                let parentKey = association.dependent.map { $0.role == toRole ? Set($0.properties) : [] } ?? []
                found.append(
                    Composition(
                        navigation: navigation.name, childSet: child, parentKey: parentKey,
                        facetLabel: lineItems[navigation.name] ?? nil))
            }
        }
        return found
    }

    /// The entity set a navigation leads to: its binding on the set, else the first set of its type.
    private func childSet(of navigation: NavigationDecl, type: String, in set: EntitySetDecl) -> EntitySetDecl? {
        if let target = set.navigationBindings[navigation.name] {
            let name = String(target.split(separator: "/").last ?? Substring(target))
            if let bound = metadata.entitySets.first(where: { $0.name == name }) { return bound }
        }
        return metadata.entitySets.first { $0.entityType == type }
    }

    /// The navigations the type's `UI.Facets` show as a table (`nav/@UI.LineItem`), with the
    /// facet's label, however deep the facets nest.
    private func lineItemFacets(of typeName: String) -> [String: String?] {
        guard let table = index.table(typeName), let facets = index.peek(table, Term.facets)?.value.collection else {
            return [:]
        }
        var found: [String: String?] = [:]
        func walk(_ items: [AnnotationValue]) {
            for item in items {
                guard let record = item.record else { continue }
                if let nested = record["Facets"]?.collection {
                    walk(nested)
                    continue
                }
                guard case .annotationPath(let path)? = record["Target"], let slash = path.firstIndex(of: "/") else {
                    continue
                }
                let term = path[path.index(after: slash)...].dropFirst().prefix { $0 != "#" }
                guard term == Term.lineItem || term.hasSuffix(".LineItem") else { continue }
                let navigation = String(path[..<slash])
                if found[navigation] == nil { found[navigation] = nonEmpty(record["Label"]?.string) }
            }
        }
        walk(facets)
        return found
    }
}
