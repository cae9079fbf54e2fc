import FormXML

/// Reads one EDMX document (V2 metadata, V4 metadata or a V4 annotation document) into a
/// `CSDLDocument` in one walk over the tree.
///
/// Elements are recognised by namespace URI (either EDMX namespace, any EDM namespace), never
/// by prefix. Aliases are collected first, from `edmx:Include` and `Schema Alias`, so that terms,
/// record types, enumeration members, targets and annotation paths resolve to full names as they
/// are read. Nothing a reference names is ever fetched.
struct CSDLReader {
    private var document: CSDLDocument
    private var report = ODataReport()
    private var index: AnnotationIndex
    private var tags = IdentityCache<Tag>()
    private var attributeTags = IdentityCache<AttributeTag>()
    private var namespaces = IdentityCache<Family>()
    private var sapNames = IdentityCache<SAPName>()
    /// Terms as written → resolved, so each spelling is resolved (and reported) once and every
    /// annotation of a term shares one string.
    private var terms = TextCache<(resolved: String, undeclared: Bool, readsValue: Bool)>()
    private var enumMembers = TextCache<(values: [EnumValue], reported: Bool)>()
    /// Leading qualified names of targets as written → resolved.
    private var heads = TextCache<String>()
    /// Property types as written → resolved (per schema: an unqualified name is the schema's).
    private var types = TextCache<String>()
    private var currentNamespace = "" {
        didSet { if currentNamespace != oldValue { types = TextCache() } }
    }
    private var enumProblems = 0
    private var undeclaredUses = 0

    /// Reads a document whose root has been recognised as `edmx:Edmx`, adding its annotations to `index`.
    static func read(
        _ root: XMLNode, file: String, version: CSDLDocument.Version, role: EDMXRole, report: inout ODataReport,
        index: inout AnnotationIndex
    ) -> CSDLDocument {
        var reader = CSDLReader(document: CSDLDocument(file: file, version: version), index: index)
        // The reader owns the index while it reads, so adding to it never copies it.
        index = AnnotationIndex()
        reader.document.role = role
        // A root in no namespace or in one of no OData version (`EDMXRecognizer.version(of:)`).
        if reader.family(root.namespaceKey) != .edmx { reader.assumeEDM(root, expected: "EDMX") }
        reader.readDeclarations(root)
        reader.readModel(root)
        report.append(reader.report)
        index = reader.index
        return reader.document
    }

    private init(document: CSDLDocument, index: AnnotationIndex) {
        self.document = document
        self.index = index
    }

    // MARK: Recognising elements

    /// `assumed`: a namespace (or none) that a sloppy document uses for its EDM or EDMX elements;
    /// its elements are recognised by local name alone.
    private enum Family { case edmx, edm, sap, metadata, entityFramework, assumed, other }

    /// The family of elements written in no namespace: `assumed` once a `Schema` or
    /// `DataServices` in no namespace was met.
    private var noNamespace = Family.other

    private enum Tag: String {
        // EDMX
        case reference = "Reference", include = "Include", dataServices = "DataServices"
        // Model
        case schema = "Schema", entityType = "EntityType", complexType = "ComplexType", enumType = "EnumType"
        case member = "Member", typeDefinition = "TypeDefinition", property = "Property"
        case navigationProperty = "NavigationProperty", key = "Key", propertyRef = "PropertyRef"
        case entityContainer = "EntityContainer", entitySet = "EntitySet", singleton = "Singleton"
        case functionImport = "FunctionImport", actionImport = "ActionImport", action = "Action", function = "Function"
        case parameter = "Parameter", term = "Term", association = "Association", associationSet = "AssociationSet"
        // Annotations
        case annotations = "Annotations", annotation = "Annotation", record = "Record", propertyValue = "PropertyValue"
        case collection = "Collection", string = "String", bool = "Bool", int = "Int", decimal = "Decimal", float =
            "Float"
        case date = "Date", dateTimeOffset = "DateTimeOffset", timeOfDay = "TimeOfDay", duration = "Duration"
        case guid = "Guid", binary = "Binary", enumMember = "EnumMember", path = "Path", propertyPath = "PropertyPath"
        case navigationPropertyPath = "NavigationPropertyPath", annotationPath = "AnnotationPath"
        case modelElementPath = "ModelElementPath", null = "Null"
        case other

        var isEDMX: Bool { self == .reference || self == .include || self == .dataServices }
    }

    /// Attribute names that carry an annotation's value or identity.
    private enum AttributeTag: String {
        case term = "Term", qualifier = "Qualifier", property = "Property", type = "Type"
        case name = "Name", nullable = "Nullable", maxLength = "MaxLength", precision = "Precision", scale = "Scale"
        case defaultValue = "DefaultValue"
        case string = "String", bool = "Bool", int = "Int", decimal = "Decimal", float = "Float"
        case date = "Date", dateTimeOffset = "DateTimeOffset", timeOfDay = "TimeOfDay", duration = "Duration"
        case guid = "Guid", binary = "Binary", enumMember = "EnumMember", path = "Path", propertyPath = "PropertyPath"
        case navigationPropertyPath = "NavigationPropertyPath", annotationPath = "AnnotationPath"
        case modelElementPath = "ModelElementPath", urlRef = "UrlRef"
        case other
    }

    private mutating func family(_ key: XMLNamespaceKey?) -> Family {
        guard let key else { return noNamespace }
        if let known = namespaces[key.identity] { return known }
        let uri = key.uri
        let family: Family =
            ODataNamespace.edm.contains(uri)
            ? .edm
            : ODataNamespace.edmx.contains(uri)
                ? .edmx
                : uri == ODataNamespace.sap
                    ? .sap
                    : uri == ODataNamespace.metadata
                        ? .metadata
                        : uri == ODataNamespace.entityFramework
                            ? .entityFramework
                            : .other
        namespaces[key.identity] = family
        return family
    }

    /// What an element is, by namespace family and local name.
    private mutating func tag(_ element: XMLNode) -> Tag {
        let family = family(element.namespaceKey)
        guard family == .edm || family == .edmx || family == .assumed else { return .other }
        let key = element.localNameKey.identity
        let tag: Tag
        if let known = tags[key] {
            tag = known
        } else {
            tag = Tag(rawValue: element.localName) ?? .other
            tags[key] = tag
        }
        return family == .assumed || tag.isEDMX == (family == .edmx) ? tag : .other
    }

    private mutating func attributeTag(_ attribute: XMLAttributeRef) -> AttributeTag {
        let key = attribute.localNameKey.identity
        if let known = attributeTags[key] { return known }
        let tag = AttributeTag(rawValue: attribute.localName) ?? .other
        attributeTags[key] = tag
        return tag
    }

    // MARK: Declarations

    /// First pass: aliases and namespaces, from references and schemas, before anything uses them.
    /// A `DataServices` or `Schema` written in the wrong namespace is recognised here, once, with
    /// a warning that says what was assumed; the second pass reads it as any other.
    private mutating func readDeclarations(_ root: XMLNode) {
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
    private var expectedEDMNamespace: String {
        document.version == .v4 ? ODataNamespace.edmV4 : "http://schemas.microsoft.com/ado/2008/09/edm"
    }

    /// Reads an element that has an EDM or EDMX name in no namespace, or in a namespace of no
    /// OData version, as that element: its namespace is assumed to be the one meant.
    private mutating func assumeEDM(_ element: XMLNode, expected: String) {
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
    private mutating func checkEDMVersion(_ schema: XMLNode) {
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

    private mutating func declare(namespace: String, alias: String?) {
        document.namespaces.insert(namespace)
        if let alias, !alias.isEmpty { document.aliases[alias] = namespace }
    }

    // MARK: Model

    private mutating func readModel(_ root: XMLNode) {
        root.forEachChild { child in
            guard tag(child) == .dataServices else { return }
            child.forEachChild { schema in
                if tag(schema) == .schema { readSchema(schema) }
            }
        }
    }

    private mutating func readSchema(_ schema: XMLNode) {
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
            default:
                break
            }
        }
    }

    private mutating func readStructuredType(_ element: XMLNode, namespace: String, isComplex: Bool) {
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
                readInlineAnnotations(child, target: name + "/" + navigation)
            case .annotation:
                readAnnotation(child, target: name)
            default:
                break
            }
        }
        document.types[name] = type
    }

    private mutating func readProperty(_ element: XMLNode, typeName: String) -> PropertyDecl {
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
    private mutating func propertyType(_ written: UnsafeBufferPointer<UInt8>, line: Int) -> String {
        let (key, known) = types.lookup(written)
        if let known { return known }
        let text = String(decoding: written, as: UTF8.self).trimmingASCIIWhitespace
        let resolved = text.hasPrefix("Edm.") || text.hasPrefix("Collection(") ? text : qualifiedType(text, line: line)
        types.store(key, text: String(decoding: written, as: UTF8.self), value: resolved)
        return resolved
    }

    private mutating func readEnumType(_ element: XMLNode, namespace: String) {
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

    private mutating func readTypeDefinition(_ element: XMLNode, namespace: String) {
        let name = namespace + "." + (element.attribute("Name") ?? "")
        document.typeDefinitions[name] = TypeDefinitionDecl(
            name: name, underlyingType: element.attribute("UnderlyingType") ?? "",
            maxLength: element.attribute("MaxLength"), precision: element.attribute("Precision"),
            scale: element.attribute("Scale"))
        readInlineAnnotations(element, target: name)
    }

    private mutating func readContainer(_ element: XMLNode, namespace: String) {
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
                document.entitySets.append(
                    EntitySetDecl(
                        name: setName, entityType: qualifiedType(child.attribute("EntityType") ?? "", line: child.line),
                        container: name, schemaNamespace: namespace, sap: extras.sap, line: child.line))
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
    private mutating func extensionAttributes(
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

    private mutating func extensionAttribute(
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

    private enum SAPName: String {
        case label, quickinfo, creatable, updatable, visible, semantics, unit, required, text
        case displayFormat = "display-format", valueList = "value-list", fieldControl = "field-control"
        case known, unknown
    }

    private mutating func sapName(_ attribute: XMLAttributeRef) -> SAPName {
        let key = attribute.localNameKey.identity
        if let known = sapNames[key] { return known }
        let name = attribute.localName
        let kind =
            SAPName(rawValue: name).flatMap { $0 == .known || $0 == .unknown ? nil : $0 }
            ?? (SAPAttributes.known.contains(name) ? .known : .unknown)
        sapNames[key] = kind
        return kind
    }

    private mutating func reportUnknownSAPAttribute(_ name: String, line: Int) {
        let suggestion = SAPAttributes.suggestion(for: name)
        report.tally(.unknownSAPAttribute, key: name, file: document.file, line: line) { count in
            let hint = suggestion.map { " (did you mean sap:\($0)?)" } ?? ""
            return "sap:\(name)\(hint) is not an SAP annotation attribute; it is ignored\(ODataReport.times(count))."
        }
    }

    // MARK: Annotations

    /// The annotations written inside a model element; the target is built only if there are any.
    private mutating func readInlineAnnotations(_ element: XMLNode, target: @autoclosure () -> String) {
        var table: AnnotationIndex.Table?
        element.forEachChild { child in
            guard tag(child) == .annotation else { return }
            if table == nil { table = index.table(forAdding: target()) }
            readAnnotation(child, table: table!, blockQualifier: nil)
        }
    }

    private mutating func readAnnotationsBlock(_ element: XMLNode) {
        var target = ""
        var qualifier: String?
        element.forEachAttribute { attribute in
            guard attribute.namespaceKey == nil else { return }
            switch attribute.localName {
            case "Target": target = attribute.withValueBytes { canonicalTarget($0, line: element.line) }
            case "Qualifier": qualifier = attribute.value
            default: break
            }
        }
        let table = index.table(forAdding: target)
        element.forEachChild { child in
            if tag(child) == .annotation { readAnnotation(child, table: table, blockQualifier: qualifier) }
        }
    }

    /// An annotation written directly in a schema, container or type, outside any `<Annotations>`.
    private mutating func readAnnotation(_ element: XMLNode, target: String) {
        readAnnotation(element, table: index.table(forAdding: target), blockQualifier: nil)
    }

    private mutating func readAnnotation(_ element: XMLNode, table: AnnotationIndex.Table, blockQualifier: String?) {
        guard let (term, qualifier, value) = annotationParts(element) else { return }
        var nested: [NestedAnnotation] = []
        element.forEachChild { child in
            if tag(child) == .annotation, let (term, qualifier, value) = annotationParts(child) {
                nested.append(NestedAnnotation(term: term, qualifier: qualifier, value: value))
            }
        }
        index.add(
            to: table,
            AnnotationEntry(
                term: term, qualifier: qualifier ?? blockQualifier, target: index.target(of: table), value: value,
                annotations: nested,
                file: document.file, line: element.line))
    }

    /// Term, qualifier and value of an `<Annotation>`; nil without a term.
    private mutating func annotationParts(_ element: XMLNode) -> (String, String?, AnnotationValue)? {
        var term: String?
        var readsValue = true
        var qualifier: String?
        var value = AnnotationValue.absent
        element.forEachAttribute { attribute in
            guard attribute.namespaceKey == nil else { return }
            switch attributeTag(attribute) {
            case .term:
                let resolved = attribute.withValueBytes { resolveTerm($0, line: element.line) }
                term = resolved.name
                readsValue = resolved.readsValue
            case .qualifier: qualifier = attribute.value
            case .enumMember: value = .enumMember(attribute.withValueBytes { enumValues($0, line: element.line) })
            case .property, .type, .name, .nullable, .maxLength, .precision, .scale, .defaultValue, .other: break
            case let constant: value = self.constant(constant, attribute.value, line: element.line)
            }
        }
        guard let term, !term.isEmpty else { return nil }
        if case .absent = value {
            if readsValue {
                value = childValue(element)
            } else if element.firstChildElement != nil {
                // A term the mapping never reads: only its enumeration members are checked.
                scanEnumMembers(element)
                value = .notRead
            }
        }
        return (term, qualifier, value)
    }

    /// Checks the enumeration members inside a value that is not otherwise read.
    private mutating func scanEnumMembers(_ element: XMLNode) {
        element.forEachChild { child in
            if tag(child) == .enumMember {
                _ = enumValues(child.ownText, line: child.line)
                return
            }
            child.forEachAttribute { attribute in
                if attribute.namespaceKey == nil, attributeTag(attribute) == .enumMember {
                    _ = attribute.withValueBytes { enumValues($0, line: child.line) }
                }
            }
            scanEnumMembers(child)
        }
    }

    /// The value written as an attribute: `String="..."`, `Bool="true"`, `Path="..."`, ...
    private mutating func constant(_ tag: AttributeTag, _ text: String, line: Int) -> AnnotationValue {
        switch tag {
        case .string: .string(text)
        case .bool: .bool(isTrue(text))
        case .int: .int(text.trimmingASCIIWhitespace)
        case .decimal, .float: .decimal(text.trimmingASCIIWhitespace)
        case .date, .dateTimeOffset, .timeOfDay, .duration, .guid, .binary: .literal(text.trimmingASCIIWhitespace)
        case .enumMember: .enumMember(enumValues(text, line: line))
        case .path: .path(resolvePath(text, line: line))
        case .propertyPath: .propertyPath(resolvePath(text, line: line))
        case .navigationPropertyPath: .navigationPropertyPath(resolvePath(text, line: line))
        case .annotationPath: .annotationPath(resolvePath(text, line: line))
        case .modelElementPath: .modelElementPath(resolvePath(text, line: line))
        case .urlRef: .expression("UrlRef")
        case .term, .qualifier, .property, .type, .name, .nullable, .maxLength, .precision, .scale, .defaultValue,
            .other:
            .absent
        }
    }

    /// The value written as the first child element other than an annotation.
    private mutating func childValue(_ element: XMLNode) -> AnnotationValue {
        var value = AnnotationValue.absent
        var child = element.firstChildElement
        while let current = child {
            let currentTag = tag(current)
            if currentTag != .annotation {
                value = elementValue(current, currentTag)
                break
            }
            child = current.nextSiblingElement
        }
        return value
    }

    private mutating func elementValue(_ element: XMLNode, _ elementTag: Tag) -> AnnotationValue {
        switch elementTag {
        case .string: return .string(element.ownText)
        case .bool: return .bool(isTrue(element.ownText.trimmingASCIIWhitespace))
        case .int: return .int(element.ownText.trimmingASCIIWhitespace)
        case .decimal, .float: return .decimal(element.ownText.trimmingASCIIWhitespace)
        case .date, .dateTimeOffset, .timeOfDay, .duration, .guid, .binary:
            return .literal(element.ownText.trimmingASCIIWhitespace)
        case .enumMember: return .enumMember(enumValues(element.ownText, line: element.line))
        case .path: return .path(resolvePath(element.ownText, line: element.line))
        case .propertyPath: return .propertyPath(resolvePath(element.ownText, line: element.line))
        case .navigationPropertyPath: return .navigationPropertyPath(resolvePath(element.ownText, line: element.line))
        case .annotationPath: return .annotationPath(resolvePath(element.ownText, line: element.line))
        case .modelElementPath: return .modelElementPath(resolvePath(element.ownText, line: element.line))
        case .null: return .null
        case .record: return .record(record(element))
        case .collection:
            var items: [AnnotationValue] = []
            element.forEachChild { item in
                let itemTag = tag(item)
                if itemTag != .annotation { items.append(elementValue(item, itemTag)) }
            }
            return .collection(items)
        default:
            return .expression(element.localName)
        }
    }

    private mutating func record(_ element: XMLNode) -> AnnotationRecord {
        var record = AnnotationRecord()
        element.forEachAttribute { attribute in
            if attribute.namespaceKey == nil, attributeTag(attribute) == .type {
                record.type = attribute.withValueBytes { resolveTerm($0, line: element.line).name }
            }
        }
        element.forEachChild { child in
            switch tag(child) {
            case .propertyValue:
                var name = ""
                var value = AnnotationValue.absent
                child.forEachAttribute { attribute in
                    guard attribute.namespaceKey == nil else { return }
                    switch attributeTag(attribute) {
                    case .property: name = attribute.value
                    case .enumMember: value = .enumMember(attribute.withValueBytes { enumValues($0, line: child.line) })
                    case .term, .qualifier, .type, .name, .nullable, .maxLength, .precision, .scale, .defaultValue,
                        .other:
                        break
                    case let constant: value = self.constant(constant, attribute.value, line: child.line)
                    }
                }
                if case .absent = value { value = childValue(child) }
                if record.properties.isEmpty { record.properties.reserveCapacity(4) }
                record.properties.append((name, value))
            case .annotation:
                if let (term, qualifier, value) = annotationParts(child) {
                    record.annotations.append(NestedAnnotation(term: term, qualifier: qualifier, value: value))
                }
            default:
                break
            }
        }
        return record
    }

    // MARK: Names

    /// A qualified name with its alias resolved: `UI.FieldGroup` → `com.sap.vocabularies.UI.v1.FieldGroup`.
    ///
    /// A namespace part that is neither a declared alias nor a declared or well-known namespace is
    /// reported when `warn` is set (terms, record types, enumerations); one that is the usual alias
    /// of a well-known vocabulary (`Core`, `SAP__common`) is read as that vocabulary.
    private mutating func resolve(_ qualified: String, line: Int, warn: Bool) -> String {
        guard let dot = qualified.lastIndex(ofASCII: UInt8(ascii: ".")) else { return qualified }
        let prefix = String(qualified[..<dot])
        if let namespace = document.aliases[prefix] { return namespace + qualified[dot...] }
        if document.namespaces.contains(prefix) || prefix == "Edm" || Vocabulary.knownNamespaces.contains(prefix) {
            return qualified
        }
        guard warn else { return qualified }
        undeclaredUses += 1
        let guess = Vocabulary.conventionalNamespace(forAlias: prefix)
        report.tally(.undeclaredAlias, key: prefix, file: document.file, line: line) { count in
            let reading = guess.map { "read as \($0)" } ?? "the names using it are not recognised"
            return
                "The alias \(prefix) is used without an edmx:Reference or Schema declaring it\(ODataReport.times(count)); \(reading)."
        }
        return guess.map { $0 + qualified[dot...] } ?? qualified
    }

    /// A term as written → its full name, and whether the mapping reads its values.
    private mutating func resolveTerm(
        _ written: UnsafeBufferPointer<UInt8>, line: Int
    ) -> (name: String, readsValue: Bool) {
        let (key, known) = terms.lookup(written)
        if let known {
            // Every use of an undeclared alias counts in the report.
            if known.undeclared { _ = resolve(String(decoding: written, as: UTF8.self), line: line, warn: true) }
            return (known.resolved, known.readsValue)
        }
        let text = String(decoding: written, as: UTF8.self)
        let before = undeclaredUses
        let resolved = resolve(text, line: line, warn: true)
        let readsValue = Term.valued.contains(resolved)
        terms.store(key, text: text, value: (resolved, undeclaredUses != before, readsValue))
        return (resolved, readsValue)
    }

    private mutating func enumValues(_ written: UnsafeBufferPointer<UInt8>, line: Int) -> [EnumValue] {
        let (key, known) = enumMembers.lookup(written)
        if let known {
            // Problems are counted per use, as the first use counted them.
            if known.reported { _ = enumValues(String(decoding: written, as: UTF8.self), line: line) }
            return known.values
        }
        let text = String(decoding: written, as: UTF8.self)
        let before = enumProblems
        let values = enumValues(text, line: line)
        enumMembers.store(key, text: text, value: (values, enumProblems != before))
        return values
    }

    /// A type named by a model element: qualified and alias-resolved; a name written without a
    /// namespace (as some V2 services do) is read in the schema being read.
    private mutating func qualifiedType(_ written: String, line: Int) -> String {
        let name = written.trimmingASCIIWhitespace
        guard name.contains(ascii: UInt8(ascii: ".")) else {
            return currentNamespace.isEmpty ? name : currentNamespace + "." + name
        }
        return resolve(name, line: line, warn: false)
    }

    /// A path with the terms of its `@Term#Qualifier` segments resolved.
    private mutating func resolvePath(_ raw: String, line: Int) -> String {
        let path = raw.trimmingASCIIWhitespace
        guard path.contains(ascii: UInt8(ascii: "@")) else { return path }
        return path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            let segment = String(segment)
            guard let at = segment.firstIndex(ofASCII: UInt8(ascii: "@")) else { return segment }
            let term = String(segment[segment.index(after: at)...])
            let hash = term.firstIndex(ofASCII: UInt8(ascii: "#")) ?? term.endIndex
            return String(segment[..<at]) + "@" + resolve(String(term[..<hash]), line: line, warn: true)
                + String(term[hash...])
        }.joined(separator: "/")
    }

    /// A target in canonical form: its leading qualified name (and an overload's parameter
    /// types) alias-resolved, `@Term` segments resolved. The leading names repeat (one per
    /// property of a type), so they are resolved once per document.
    private mutating func canonicalTarget(_ raw: UnsafeBufferPointer<UInt8>, line: Int) -> String {
        var start = 0
        var end = raw.count
        while start < end && isASCIIWhitespace(raw[start]) { start += 1 }
        while end > start && isASCIIWhitespace(raw[end - 1]) { end -= 1 }
        var split = start
        while split < end && raw[split] != UInt8(ascii: "/") && raw[split] != UInt8(ascii: "(") { split += 1 }
        if split < end && raw[split] == UInt8(ascii: "(") {
            return canonicalOperationTarget(
                String(decoding: UnsafeBufferPointer(rebasing: raw[start..<end]), as: UTF8.self), line: line)
        }
        let headBytes = UnsafeBufferPointer(rebasing: raw[start..<split])
        let (key, known) = heads.lookup(headBytes)
        let head: String
        if let known {
            head = known
        } else {
            let text = String(decoding: headBytes, as: UTF8.self)
            head = resolve(text, line: line, warn: false)
            heads.store(key, text: text, value: head)
        }
        guard split < end else { return head }
        let rest = String(decoding: UnsafeBufferPointer(rebasing: raw[split..<end]), as: UTF8.self)
        return head + (rest.contains(ascii: UInt8(ascii: "@")) ? resolvePath(rest, line: line) : rest)
    }

    /// An operation target: `Namespace.Action(Namespace.Type)/parameter`.
    private mutating func canonicalOperationTarget(_ target: String, line: Int) -> String {
        guard let open = target.firstIndex(ofASCII: UInt8(ascii: "(")),
            let close = target.lastIndex(ofASCII: UInt8(ascii: ")")), open < close
        else { return resolve(target, line: line, warn: false) }
        let head = resolve(String(target[..<open]), line: line, warn: false)
        let parameters = target[target.index(after: open)..<close].split(separator: ",").map { parameter -> String in
            var text = String(parameter).trimmingASCIIWhitespace
            var wrap = false
            if text.hasPrefix("Collection("), text.hasSuffix(")") {
                wrap = true
                text = String(text.dropFirst("Collection(".count).dropLast())
            }
            let resolved = resolve(text, line: line, warn: false)
            return wrap ? "Collection(\(resolved))" : resolved
        }
        return head + "(" + parameters.joined(separator: ",") + ")"
            + resolvePath(String(target[target.index(after: close)...]), line: line)
    }

    /// Members written `Namespace.Type/Member`, several separated by spaces.
    private mutating func enumValues(_ text: String, line: Int) -> [EnumValue] {
        text.asciiWords.map { word in
            let token = String(word)
            guard let slash = token.firstIndex(ofASCII: UInt8(ascii: "/")) else {
                enumProblems += 1
                let member = String(token)
                report.tally(.unqualifiedEnumValue, key: member, file: document.file, line: line) { count in
                    "The enumeration member \"\(member)\" is written without its type\(ODataReport.times(count)); write it as Namespace.Type/\(member)."
                }
                return EnumValue(type: nil, member: member)
            }
            let type = resolve(String(token[..<slash]), line: line, warn: true)
            let member = String(token[token.index(after: slash)...])
            if let members = KnownEnums.members[type], !members.contains(member) {
                enumProblems += 1
                let shown = Vocabulary.displayName(ofTerm: type)
                report.tally(.unknownEnumValue, key: type + "/" + member, file: document.file, line: line) { count in
                    "\(shown) has no member \"\(member)\"\(ODataReport.times(count)); it is ignored. Members: \(members.sorted().joined(separator: ", "))."
                }
            }
            return EnumValue(type: type, member: member)
        }
    }
}

/// XML Schema booleans as real files write them (`true`, and V2's `True`).
func isTrue(_ text: String?) -> Bool { text == "true" || text == "True" || text == "1" }

func isFalse(_ text: String?) -> Bool { text == "false" || text == "False" || text == "0" }

/// `isFalse` on a value's bytes in place.
func isFalse(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    switch bytes.count {
    case 1: bytes[0] == UInt8(ascii: "0")
    case 5:
        (bytes[0] == UInt8(ascii: "f") || bytes[0] == UInt8(ascii: "F")) && bytes[1] == UInt8(ascii: "a")
            && bytes[2] == UInt8(ascii: "l")
            && bytes[3] == UInt8(ascii: "s") && bytes[4] == UInt8(ascii: "e")
    default: false
    }
}
