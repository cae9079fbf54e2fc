import FormModel

/// The service binding of a form (`ServiceBinding`): the entity set, the key, each field's
/// property and type, the value helps, the draft actions and whether the entity is a media entity.
///
/// Read from the model and from the annotation index by target, per form, once the form is made:
/// nothing walks the documents again. Annotations are only looked at (`peek`, `peekAll`), never
/// marked read, so the binding changes nothing in the report: the value-list terms were read for
/// every field already, and `Common.DraftRoot` and `Common.Text`, which no form reads, are still
/// reported unused.
extension ODataFormMapper {
    /// The binding of the form made for an entity set, from the positions (in the type's
    /// layout) of the properties that are its fields and the annotation table of the set.
    func binding(
        for set: EntitySetDecl, form: FormSchema, positions: [Int], layout: TypeLayout,
        setTable: AnnotationIndex.Table?
    ) -> ServiceBinding {
        let typeName = set.entityType
        // A field is computed only through `sap:creatable`: `Core.Computed` makes none.
        var fields: [String: ServiceProperty] = Dictionary(minimumCapacity: positions.count)
        for i in positions {
            fields[layout.fieldNames[i]] = serviceProperty(
                layout.properties[i], entityType: typeName, readsComputed: false)
        }
        let keys = model.keys(of: typeName).compactMap { name in
            layout.properties.first { $0.name == name }.map {
                serviceProperty($0, entityType: typeName, readsComputed: true)
            }
        }
        var valueHelps: [String: ValueHelp] = [:]
        // A value-list field names the list of its own name (`ODataFieldMapper.offerOptions`).
        let lists = form.lists.filter(\.external).map(\.id)
        if !lists.isEmpty {
            var fieldOfProperty: [String: String] = [:]
            for i in positions { fieldOfProperty[layout.properties[i].name] = layout.fieldNames[i] }
            for i in positions where lists.contains(layout.fieldNames[i]) {
                valueHelps[layout.fieldNames[i]] = valueHelp(
                    of: layout.properties[i], entityType: typeName, set: set, fieldOfProperty: fieldOfProperty)
            }
        }
        var binding = ServiceBinding(
            version: metadata.version == .v2 ? .v2 : .v4, entitySet: set.name, entityType: typeName, keys: keys,
            fields: fields, valueHelps: valueHelps, draft: setTable.flatMap { draftActions(in: $0) },
            mediaEntity: layout.chain.contains { metadata.types[$0]?.hasStream == true },
            namespace: set.schemaNamespace)
        // Every property, fields or not: a connection test compares them with the served metadata's.
        binding.declared = layout.properties.map { serviceProperty($0, entityType: typeName, readsComputed: false) }
        return binding
    }

    // MARK: Properties

    /// A property as the service declares it: its primitive type through its type definition or
    /// enumeration, the facets (the property's own first), and whether the service fills it in
    /// (`Core.Computed` read only when `readsComputed`: a property that is a field has none).
    func serviceProperty(_ property: PropertyDecl, entityType: String, readsComputed: Bool) -> ServiceProperty {
        let primitive = isUndeclaredPrimitive(property.type)
        let definition = primitive ? nil : metadata.typeDefinitions[property.type]
        let enumType = primitive ? nil : metadata.enums[definition?.underlyingType ?? property.type]
        let type = enumType?.underlyingType ?? definition?.underlyingType ?? property.type
        var computed = isFalse(property.sap.creatable)
        if let pattern = property.storeGeneratedPattern, pattern == "Identity" || pattern == "Computed" {
            computed = true
        }
        if !computed && readsComputed {
            var owners: [String] = []
            if index.annotatesMembers(of: entityType) { owners.append(entityType) }
            if property.declaringType != entityType, index.annotatesMembers(of: property.declaringType) {
                owners.append(property.declaringType)
            }
            for owner in owners {
                guard let table = index.table(owner + "/" + property.name),
                    let entry = index.peek(table, Term.computed)
                else { continue }
                computed = entry.value.staticBool == true
                break
            }
        }
        return ServiceProperty(
            name: property.name, type: type,
            precision: (property.precision ?? definition?.precision).flatMap { Int($0) },
            // `variable` and `floating` are no number of places.
            scale: (property.scale ?? definition?.scale).flatMap { Int($0) },
            maxLength: (property.maxLength ?? definition?.maxLength).flatMap { Int($0) }, nullable: property.nullable,
            computed: computed, enumType: enumType?.name)
    }

    // MARK: Value helps

    /// The value help of a value-list field: its `Common.ValueList` (the unqualified one, else the
    /// first in document order), else a `Common.ValueListMapping` written in this metadata, else
    /// its `Common.ValueListReferences` (a value help in a service of its own, whose mapping the
    /// connector reads there). Nil when the documents name no collection (a V2 `sap:value-list`
    /// whose annotation was not imported, `ValueListWithFixedValues` alone).
    func valueHelp(
        of property: PropertyDecl, entityType: String, set: EntitySetDecl, fieldOfProperty: [String: String]
    ) -> ValueHelp? {
        var targets = [entityType + "/" + property.name]
        if property.declaringType != entityType { targets.append(property.declaringType + "/" + property.name) }
        let fixed =
            property.sap.valueList == "fixed-values"
            || targets.contains { target in
                index.table(target).flatMap { index.peek($0, Term.valueListWithFixedValues) }?.value.staticBool == true
            }
        for term in [Term.valueList, Term.valueListMapping] {
            for target in targets {
                let entries = index.peekAll(target, term)
                guard let entry = entries.first(where: { $0.qualifier == nil }) ?? entries.first,
                    let record = entry.value.record
                else { continue }
                return valueHelp(record, fixed: fixed, container: set.container, fieldOfProperty: fieldOfProperty)
            }
        }
        for target in targets {
            let entries = index.peekAll(target, Term.valueListReferences)
            let urls = ((entries.first { $0.qualifier == nil } ?? entries.first)?.value.collection ?? [])
                .compactMap { $0.string?.trimmingASCIIWhitespace }.filter { !$0.isEmpty }
            guard let url = urls.first else { continue }
            return ValueHelp(
                collectionPath: "", collectionRoot: Self.serviceRoot(ofMetadata: url), fixedValues: fixed,
                searchSupported: !fixed, parameters: [], references: urls)
        }
        return nil
    }

    /// A value-list reference (`../i_companycodevh/0001/$metadata`) as the root of its service
    /// (`../i_companycodevh/0001/`); a URL that does not end in `$metadata` as written.
    static func serviceRoot(ofMetadata url: String) -> String {
        guard url.hasSuffix("$metadata") else { return url }
        return String(url.dropLast("$metadata".count))
    }

    /// A `Common.ValueListType` (or `ValueListMappingType`) record as a value help; its collection
    /// is looked up among the entity sets of `container` first.
    func valueHelp(
        _ record: AnnotationRecord, fixed: Bool, container: String, fieldOfProperty: [String: String]
    ) -> ValueHelp {
        let collectionPath = record["CollectionPath"]?.literalText?.trimmingASCIIWhitespace ?? ""
        let collectionRoot = nonEmpty(record["CollectionRoot"]?.literalText?.trimmingASCIIWhitespace)
        var parameters: [ValueHelp.Parameter] = []
        for item in record["Parameters"]?.collection ?? [] {
            guard let parameter = item.record, let kind = parameterKind(parameter.type),
                let listProperty = Self.pathText(parameter["ValueListProperty"])
            else { continue }
            let local = Self.pathText(parameter["LocalDataProperty"])
            parameters.append(
                ValueHelp.Parameter(
                    kind: kind, listProperty: listProperty,
                    field: kind == .in || kind == .out || kind == .inOut ? local.flatMap { fieldOfProperty[$0] } : nil,
                    constant: kind == .constant ? parameter["Constant"]?.literalText : nil))
        }
        // `SearchSupported` is true unless written false (the vocabulary's default).
        var searchSupported = true
        if case .bool(false)? = record["SearchSupported"] { searchSupported = false }
        let listType = collectionRoot == nil ? listEntityType(collectionPath, container: container) : nil
        var listTypes: [String: String] = [:]
        var textProperty: String?
        if let listType {
            listTypes = self.listTypes(of: listType)
            let value =
                parameters.first { ($0.kind == .inOut || $0.kind == .out) && $0.field != nil }
                ?? parameters.first { $0.kind == .inOut || $0.kind == .out }
            if let value { textProperty = self.textProperty(of: value.listProperty, in: listType) }
        }
        return ValueHelp(
            collectionPath: collectionPath, collectionRoot: collectionRoot,
            label: label(record["Label"]?.string), fixedValues: fixed, searchSupported: searchSupported,
            parameters: parameters, listTypes: listTypes, textProperty: textProperty)
    }

    private func parameterKind(_ type: String?) -> ValueHelp.Parameter.Kind? {
        switch type {
        case Vocabulary.common + ".ValueListParameterInOut": .inOut
        case Vocabulary.common + ".ValueListParameterIn": .in
        case Vocabulary.common + ".ValueListParameterOut": .out
        case Vocabulary.common + ".ValueListParameterDisplayOnly": .displayOnly
        case Vocabulary.common + ".ValueListParameterConstant": .constant
        case Vocabulary.common + ".ValueListParameterFilterOnly": .filterOnly
        default: nil
        }
    }

    /// A property path written as `PropertyPath`, `Path` or, as some services do, `String`.
    private static func pathText(_ value: AnnotationValue?) -> String? {
        switch value {
        case .propertyPath(let path)?, .path(let path)?, .string(let path)?:
            let path = path.trimmingASCIIWhitespace
            return path.isEmpty ? nil : path
        default: return nil
        }
    }

    /// The entity type of the collection a value help names, when it is an entity set of this
    /// metadata (the form's container first).
    private func listEntityType(_ collectionPath: String, container: String) -> String? {
        listSet(collectionPath, container: container)?.entityType
    }

    /// The entity set a value help names, when it is one of this metadata (`container`'s first).
    func listSet(_ collectionPath: String, container: String) -> EntitySetDecl? {
        guard !collectionPath.isEmpty else { return nil }
        let sets = metadata.entitySets.filter { $0.name == collectionPath }
        return sets.first { $0.container == container } ?? sets.first
    }

    /// The primitive type of each property of a value help's collection, by name.
    private func listTypes(of typeName: String) -> [String: String] {
        if let known = listTypesByType[typeName] { return known }
        var types: [String: String] = [:]
        for property in model.properties(of: typeName) where !property.isCollection {
            let type = serviceProperty(property, entityType: typeName, readsComputed: false).type
            if type.hasPrefix("Edm.") { types[property.name] = type }
        }
        listTypesByType[typeName] = types
        return types
    }

    /// `Common.Text` (V2 `sap:text`) of a collection's property, when it names a property of the
    /// collection rather than a path through a navigation property.
    private func textProperty(of listProperty: String, in typeName: String) -> String? {
        let property = model.properties(of: typeName).first { $0.name == listProperty }
        var targets = [typeName + "/" + listProperty]
        if let declaring = property?.declaringType, declaring != typeName {
            targets.append(declaring + "/" + listProperty)
        }
        var path = property?.sap.text
        for target in targets {
            guard let table = index.table(target), let written = index.peek(table, Term.text)?.value.anyPath else {
                continue
            }
            path = written
            break
        }
        guard let path, !path.isEmpty, !path.contains(ascii: UInt8(ascii: "/")) else { return nil }
        return path
    }

    // MARK: Drafts

    /// `Common.DraftRoot` in the entity set's annotations: its actions, V4 by qualified name (aliases
    /// resolved), V2 by function import name (SAP writes `Namespace.Container/Import`). Nil
    /// without an `ActivationAction` (a draft node, which is created through its root).
    func draftActions(in table: AnnotationIndex.Table) -> DraftActions? {
        guard let record = index.peek(table, Term.draftRoot)?.value.record else { return nil }
        func action(_ name: String) -> String? {
            guard let written = nonEmpty(record[name]?.literalText)?.trimmingASCIIWhitespace else { return nil }
            if metadata.version == .v2 {
                return written.lastIndex(of: "/").map { String(written[written.index(after: $0)...]) } ?? written
            }
            guard let dot = written.lastIndex(of: "."), let namespace = metadata.aliases[String(written[..<dot])]
            else { return written }
            return namespace + written[dot...]
        }
        guard let activate = action("ActivationAction") else { return nil }
        return DraftActions(
            activate: activate, prepare: action("PreparationAction"), discard: action("DiscardAction"),
            edit: action("EditAction"))
    }
}
