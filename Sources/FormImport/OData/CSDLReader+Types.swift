import FormXML

/// The reader's first pass (aliases and namespaces, before anything uses them) and its model:
/// schemas, entity and complex types, their properties, enumerations, type definitions and the
/// entity container, with SAP's extension attributes.
extension CSDLReader {
    /// First pass: aliases and namespaces, from references and schemas, before anything uses them.
    /// A `DataServices` or `Schema` written in the wrong namespace is recognised here, once, with
    /// a warning that says what was assumed; the second pass reads it as any other.
    mutating func readDeclarations(_ root: XMLNode) {
        root.forEachChild { child in
            var childTag = tag(child)
            if childTag == .other, child.hasLocalName("DataServices") {
                assumeEDM(child, expected: "EDMX")
                childTag = tag(child)
            }
            switch childTag {
            case .reference:
                child.forEachChild { include in
                    guard tag(include) == .include, let namespace = include.attribute("Namespace") else { return }
                    declare(namespace: namespace, alias: include.attribute("Alias"))
                }
            case .dataServices:
                child.forEachChild { schema in
                    if tag(schema) == .other, schema.hasLocalName("Schema") { assumeEDM(schema, expected: "EDM") }
                    guard tag(schema) == .schema else { return }
                    checkEDMVersion(schema)
                    guard let namespace = schema.attribute("Namespace") else { return }
                    declare(namespace: namespace, alias: schema.attribute("Alias"))
                    document.schemaNamespaces.append(namespace)
                }
            default:
                break
            }
        }
    }

    /// The EDM namespace that matches the document's EDMX version.
    var expectedEDMNamespace: String {
        document.version == .v4 ? ODataNamespace.edmV4 : "http://schemas.microsoft.com/ado/2008/09/edm"
    }

    /// Reads an element that has an EDM or EDMX name in no namespace, or in a namespace of no
    /// OData version, as that element: its namespace is assumed to be the one meant.
    mutating func assumeEDM(_ element: XMLNode, expected: String) {
        let name = element.localName
        let uri = element.namespaceURI
        if let key = element.namespaceKey {
            namespaces[key.identity] = .assumed
        } else {
            noNamespace = .assumed
        }
        let meant =
            expected == "EDMX"
            ? document.version == .v4 ? ODataNamespace.edmxV4 : ODataNamespace.edmxV2
            : expectedEDMNamespace
        let written = uri.map { "in the namespace \($0), which is no OData \(expected) namespace" } ?? "in no namespace"
        let fix = uri == nil ? "declare xmlns=\"\(meant)\" on it" : "bind its prefix to \(meant)"
        let version = document.version == .v4 ? "V4" : "V2"
        report.tally(.assumedNamespace, key: (uri ?? "") + "\u{0}" + name, file: document.file, line: element.line) {
            count in
            "<\(name)>\(ODataReport.times(count)) and the elements in it are \(written); they are read as OData \(version) \(expected) (\(meant)). To silence this, \(fix)."
        }
    }

    /// A schema in the EDM namespace of the other OData version than its EDMX root's.
    mutating func checkEDMVersion(_ schema: XMLNode) {
        guard family(schema.namespaceKey) == .edm, let uri = schema.namespaceURI else { return }
        let isV4 = uri == ODataNamespace.edmV4
        guard isV4 != (document.version == .v4) else { return }
        let root =
            document.version == .v4
            ? "V4 (edmx:Edmx in \(ODataNamespace.edmxV4))" : "V2 (edmx:Edmx in \(ODataNamespace.edmxV2))"
        let expected = expectedEDMNamespace
        report.tally(.assumedNamespace, key: uri + "\u{0}Schema", file: document.file, line: schema.line) { count in
            "<Schema>\(ODataReport.times(count)) is in the OData \(isV4 ? "V4" : "V2") EDM namespace \(uri), but the document is OData \(root); it is read as OData \(isV4 ? "V2" : "V4") metadata, as its root says. To silence this, use xmlns=\"\(expected)\" on the Schema."
        }
    }

    mutating func declare(namespace: String, alias: String?) {
        document.namespaces.insert(namespace)
        if let alias, !alias.isEmpty { document.aliases[alias] = namespace }
    }

    // MARK: Model

    mutating func readModel(_ root: XMLNode) {
        root.forEachChild { child in
            guard tag(child) == .dataServices else { return }
            child.forEachChild { schema in
                if tag(schema) == .schema { readSchema(schema) }
            }
        }
    }

    mutating func readSchema(_ schema: XMLNode) {
        let namespace = schema.attribute("Namespace") ?? ""
        currentNamespace = namespace
        _ = extensionAttributes(schema)
        schema.forEachChild { element in
            switch tag(element) {
            case .entityType: readStructuredType(element, namespace: namespace, isComplex: false)
            case .complexType: readStructuredType(element, namespace: namespace, isComplex: true)
            case .enumType: readEnumType(element, namespace: namespace)
            case .typeDefinition: readTypeDefinition(element, namespace: namespace)
            case .entityContainer: readContainer(element, namespace: namespace)
            case .action, .function, .term:
                let name = namespace + "." + (element.attribute("Name") ?? "")
                document.operations.insert(name)
                readInlineAnnotations(element, target: name)
            case .annotations: readAnnotationsBlock(element)
            case .annotation: readAnnotation(element, target: namespace)
            case .association:
                _ = extensionAttributes(element)
                readAssociation(element, namespace: namespace)
            default:
                break
            }
        }
    }

    mutating func readStructuredType(_ element: XMLNode, namespace: String, isComplex: Bool) {
        let name = namespace + "." + (element.attribute("Name") ?? "")
        let extras = extensionAttributes(element)
        var type = StructuredTypeDecl(
            name: name, isComplex: isComplex,
            baseType: element.attribute("BaseType").map { qualifiedType($0, line: element.line) },
            hasStream: isTrue(element.attribute("HasStream")) || extras.hasStream, keys: [], properties: [],
            navigationProperties: [], sap: extras.sap, line: element.line)
        element.forEachChild { child in
            switch tag(child) {
            case .key:
                child.forEachChild { ref in
                    if tag(ref) == .propertyRef, let key = ref.attribute("Name") { type.keys.append(key) }
                }
            case .property:
                type.properties.append(readProperty(child, typeName: name))
            case .navigationProperty:
                let navigation = child.attribute("Name") ?? ""
                _ = extensionAttributes(child)
                type.navigationProperties.append(navigation)
                type.navigations.append(readNavigation(child, name: navigation))
                readInlineAnnotations(child, target: name + "/" + navigation)
            case .annotation:
                readAnnotation(child, target: name)
            default:
                break
            }
        }
        document.types[name] = type
    }

    /// A navigation property: V4's `Type`, `ContainsTarget`, `Partner` and constraints; V2's roles.
    mutating func readNavigation(_ element: XMLNode, name: String) -> NavigationDecl {
        var navigation = NavigationDecl(name: name, line: element.line)
        if var type = element.attribute("Type") {
            if type.hasPrefix("Collection("), type.hasSuffix(")") {
                navigation.isCollection = true
                type = String(type.dropFirst("Collection(".count).dropLast())
            }
            navigation.type = qualifiedType(type, line: element.line)
        }
        navigation.containsTarget = isTrue(element.attribute("ContainsTarget"))
        navigation.partner = element.attribute("Partner")
        navigation.relationship = element.attribute("Relationship").map { qualifiedType($0, line: element.line) }
        navigation.fromRole = element.attribute("FromRole")
        navigation.toRole = element.attribute("ToRole")
        element.forEachChild { child in
            guard tag(child) == .referentialConstraint, let property = child.attribute("Property"),
                let referenced = child.attribute("ReferencedProperty")
            else { return }
            navigation.constraints.append((property, referenced))
        }
        return navigation
    }

    /// A V2 association: its ends and its referential constraint.
    mutating func readAssociation(_ element: XMLNode, namespace: String) {
        var association = AssociationDecl(name: namespace + "." + (element.attribute("Name") ?? ""))
        element.forEachChild { child in
            switch tag(child) {
            case .end:
                guard let role = child.attribute("Role"), let type = child.attribute("Type") else { return }
                association.ends[role] = (qualifiedType(type, line: child.line), child.attribute("Multiplicity") ?? "")
            case .referentialConstraint:
                child.forEachChild { side in
                    let sideTag = tag(side)
                    guard sideTag == .principal || sideTag == .dependent, let role = side.attribute("Role") else {
                        return
                    }
                    var properties: [String] = []
                    side.forEachChild { ref in
                        if tag(ref) == .propertyRef, let name = ref.attribute("Name") { properties.append(name) }
                    }
                    if sideTag == .principal {
                        association.principal = (role, properties)
                    } else {
                        association.dependent = (role, properties)
                    }
                }
            default:
                break
            }
        }
        document.associations[association.name] = association
    }

    mutating func readProperty(_ element: XMLNode, typeName: String) -> PropertyDecl {
        var name = ""
        var typeText = ""
        var nullable = true
        var maxLength: String?
        var precision: String?
        var scale: String?
        var defaultValue: String?
        // Separate variables, not a tuple, and consumed at the end: the SAP values then move into the declaration uncopied.
        var sap = SAPValues()
        var hasStream = false
        var storeGeneratedPattern: String?
        // One pass over the attributes, `sap:` ones included.
        element.forEachAttribute { attribute in
            if let namespace = attribute.namespaceKey {
                extensionAttribute(
                    attribute, namespace: namespace, sap: &sap, hasStream: &hasStream,
                    storeGeneratedPattern: &storeGeneratedPattern,
                    line: element.line)
                return
            }
            switch attributeTag(attribute) {
            case .name: name = attribute.value
            case .type: typeText = attribute.withValueBytes { propertyType($0, line: element.line) }
            case .nullable: nullable = !attribute.withValueBytes(isFalse)
            case .maxLength: maxLength = attribute.value
            case .precision: precision = attribute.value
            case .scale: scale = attribute.value
            case .defaultValue: defaultValue = attribute.value
            default: break
            }
        }
        var isCollection = false
        if typeText.hasPrefix("Collection("), typeText.hasSuffix(")") {
            isCollection = true
            typeText = String(typeText.dropFirst("Collection(".count).dropLast())
            if !typeText.hasPrefix("Edm.") { typeText = qualifiedType(typeText, line: element.line) }
        }
        let property = PropertyDecl(
            name: name, declaringType: typeName, type: typeText, isCollection: isCollection, nullable: nullable,
            maxLength: maxLength, precision: precision, scale: scale, defaultValue: defaultValue,
            sap: consume sap, storeGeneratedPattern: storeGeneratedPattern, line: element.line)
        readInlineAnnotations(element, target: typeName + "/" + name)
        return property
    }

    /// A property's type as written → resolved; the same few types repeat for every property.
    mutating func propertyType(_ written: UnsafeBufferPointer<UInt8>, line: Int) -> String {
        let (key, known) = types.lookup(written)
        if let known { return known }
        let text = String(decoding: written, as: UTF8.self).trimmingASCIIWhitespace
        let resolved = text.hasPrefix("Edm.") || text.hasPrefix("Collection(") ? text : qualifiedType(text, line: line)
        types.store(key, text: String(decoding: written, as: UTF8.self), value: resolved)
        return resolved
    }

    mutating func readEnumType(_ element: XMLNode, namespace: String) {
        let name = namespace + "." + (element.attribute("Name") ?? "")
        var decl = EnumTypeDecl(name: name, isFlags: isTrue(element.attribute("IsFlags")), members: [])
        if let underlying = element.attribute("UnderlyingType") { decl.underlyingType = underlying }
        element.forEachChild { child in
            switch tag(child) {
            case .member:
                let member = child.attribute("Name") ?? ""
                decl.members.append(member)
                readInlineAnnotations(child, target: name + "/" + member)
            case .annotation:
                readAnnotation(child, target: name)
            default:
                break
            }
        }
        document.enums[name] = decl
    }

    mutating func readTypeDefinition(_ element: XMLNode, namespace: String) {
        let name = namespace + "." + (element.attribute("Name") ?? "")
        document.typeDefinitions[name] = TypeDefinitionDecl(
            name: name, underlyingType: element.attribute("UnderlyingType") ?? "",
            maxLength: element.attribute("MaxLength"), precision: element.attribute("Precision"),
            scale: element.attribute("Scale"))
        readInlineAnnotations(element, target: name)
    }

    mutating func readContainer(_ element: XMLNode, namespace: String) {
        let name = namespace + "." + (element.attribute("Name") ?? "")
        _ = extensionAttributes(element)
        var children = Set<String>()
        element.forEachChild { child in
            let childTag = tag(child)
            switch childTag {
            case .entitySet:
                let setName = child.attribute("Name") ?? ""
                children.insert(setName)
                let extras = extensionAttributes(child)
                var bindings: [String: String] = [:]
                child.forEachChild { binding in
                    guard tag(binding) == .navigationPropertyBinding, let path = binding.attribute("Path"),
                        let target = binding.attribute("Target")
                    else { return }
                    bindings[path] = target
                }
                document.entitySets.append(
                    EntitySetDecl(
                        name: setName, entityType: qualifiedType(child.attribute("EntityType") ?? "", line: child.line),
                        container: name, schemaNamespace: namespace, sap: extras.sap, line: child.line,
                        navigationBindings: bindings))
                readInlineAnnotations(child, target: name + "/" + setName)
            case .singleton, .functionImport, .actionImport, .associationSet:
                let childName = child.attribute("Name") ?? ""
                children.insert(childName)
                _ = extensionAttributes(child)
                readInlineAnnotations(child, target: name + "/" + childName)
            case .annotation:
                readAnnotation(child, target: name)
            default:
                break
            }
        }
        document.containers[name, default: []].formUnion(children)
    }

    /// The V2 attributes in foreign namespaces: `sap:*` (unknown ones reported), `m:HasStream`
    /// and Entity Framework's `StoreGeneratedPattern`.
    mutating func extensionAttributes(
        _ element: XMLNode
    ) -> (sap: SAPValues, hasStream: Bool, storeGeneratedPattern: String?) {
        var extras: (sap: SAPValues, hasStream: Bool, storeGeneratedPattern: String?) = (SAPValues(), false, nil)
        element.forEachAttribute { attribute in
            guard let namespace = attribute.namespaceKey else { return }
            extensionAttribute(
                attribute, namespace: namespace, sap: &extras.sap, hasStream: &extras.hasStream,
                storeGeneratedPattern: &extras.storeGeneratedPattern, line: element.line)
        }
        return extras
    }

    mutating func extensionAttribute(
        _ attribute: XMLAttributeRef, namespace: XMLNamespaceKey, sap: inout SAPValues, hasStream: inout Bool,
        storeGeneratedPattern: inout String?, line: Int
    ) {
        switch family(namespace) {
        case .sap:
            switch sapName(attribute) {
            case .label: sap.label = attribute.value
            case .quickinfo: sap.quickinfo = attribute.value
            case .creatable: sap.creatable = attribute.value
            case .updatable: sap.updatable = attribute.value
            case .visible: sap.visible = attribute.value
            case .displayFormat: sap.displayFormat = attribute.value
            case .semantics: sap.semantics = attribute.value
            case .unit: sap.unit = attribute.value
            case .valueList: sap.valueList = attribute.value
            case .fieldControl: sap.fieldControl = attribute.value
            case .required: sap.required = attribute.value
            case .text: sap.text = attribute.value
            case .known: break
            case .unknown: reportUnknownSAPAttribute(attribute.localName, line: line)
            }
        case .metadata:
            if attribute.localName == "HasStream" { hasStream = isTrue(attribute.value) }
        case .entityFramework:
            if attribute.localName == "StoreGeneratedPattern" { storeGeneratedPattern = attribute.value }
        default:
            break
        }
    }

    enum SAPName: String {
        case label, quickinfo, creatable, updatable, visible, semantics, unit, required, text
        case displayFormat = "display-format", valueList = "value-list", fieldControl = "field-control"
        case known, unknown
    }

    mutating func sapName(_ attribute: XMLAttributeRef) -> SAPName {
        let key = attribute.localNameKey.identity
        if let known = sapNames[key] { return known }
        let name = attribute.localName
        let kind =
            SAPName(rawValue: name).flatMap { $0 == .known || $0 == .unknown ? nil : $0 }
            ?? (SAPAttributes.known.contains(name) ? .known : .unknown)
        sapNames[key] = kind
        return kind
    }

    mutating func reportUnknownSAPAttribute(_ name: String, line: Int) {
        let suggestion = SAPAttributes.suggestion(for: name)
        report.tally(.unknownSAPAttribute, key: name, file: document.file, line: line) { count in
            let hint = suggestion.map { " (did you mean sap:\($0)?)" } ?? ""
            return "sap:\(name)\(hint) is not an SAP annotation attribute; it is ignored\(ODataReport.times(count))."
        }
    }
}
