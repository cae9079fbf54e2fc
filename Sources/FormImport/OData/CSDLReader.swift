import FormXML

/// Reads one EDMX document (V2 metadata, V4 metadata or a V4 annotation document) into a
/// `CSDLDocument` in one walk over the tree.
///
/// Elements are recognised by namespace URI (either EDMX namespace, any EDM namespace), never
/// by prefix. Aliases are collected first, from `edmx:Include` and `Schema Alias`, so that terms,
/// record types, enumeration members, targets and annotation paths resolve to full names as they
/// are read. Nothing a reference names is ever fetched.
struct CSDLReader {
    var document: CSDLDocument
    var report = ODataReport()
    var index: AnnotationIndex
    var tags = IdentityCache<Tag>()
    var attributeTags = IdentityCache<AttributeTag>()
    var namespaces = IdentityCache<Family>()
    var sapNames = IdentityCache<SAPName>()
    /// Terms as written → resolved, so each spelling is resolved (and reported) once and every
    /// annotation of a term shares one string.
    var terms = TextCache<(resolved: String, undeclared: Bool, readsValue: Bool)>()
    var enumMembers = TextCache<(values: [EnumValue], reported: Bool)>()
    /// Leading qualified names of targets as written → resolved.
    var heads = TextCache<String>()
    /// Property types as written → resolved (per schema: an unqualified name is the schema's).
    var types = TextCache<String>()
    var currentNamespace = "" {
        didSet { if currentNamespace != oldValue { types = TextCache() } }
    }
    var enumProblems = 0
    var undeclaredUses = 0

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

    init(document: CSDLDocument, index: AnnotationIndex) {
        self.document = document
        self.index = index
    }

    // MARK: Recognising elements

    /// `assumed`: a namespace (or none) that a sloppy document uses for its EDM or EDMX elements;
    /// its elements are recognised by local name alone.
    enum Family { case edmx, edm, sap, metadata, entityFramework, assumed, other }

    /// The family of elements written in no namespace: `assumed` once a `Schema` or
    /// `DataServices` in no namespace was met.
    var noNamespace = Family.other

    enum Tag: String {
        // EDMX
        case reference = "Reference", include = "Include", dataServices = "DataServices"
        // Model
        case schema = "Schema", entityType = "EntityType", complexType = "ComplexType", enumType = "EnumType"
        case member = "Member", typeDefinition = "TypeDefinition", property = "Property"
        case navigationProperty = "NavigationProperty", key = "Key", propertyRef = "PropertyRef"
        case entityContainer = "EntityContainer", entitySet = "EntitySet", singleton = "Singleton"
        case functionImport = "FunctionImport", actionImport = "ActionImport", action = "Action", function = "Function"
        case parameter = "Parameter", term = "Term", association = "Association", associationSet = "AssociationSet"
        case referentialConstraint = "ReferentialConstraint", end = "End", principal = "Principal"
        case dependent = "Dependent", navigationPropertyBinding = "NavigationPropertyBinding"
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
    enum AttributeTag: String {
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

    mutating func family(_ key: XMLNamespaceKey?) -> Family {
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
    mutating func tag(_ element: XMLNode) -> Tag {
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

    mutating func attributeTag(_ attribute: XMLAttributeRef) -> AttributeTag {
        let key = attribute.localNameKey.identity
        if let known = attributeTags[key] { return known }
        let tag = AttributeTag(rawValue: attribute.localName) ?? .other
        attributeTags[key] = tag
        return tag
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
