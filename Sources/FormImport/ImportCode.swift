import FormModel

/// The stable code of an ``ImportError`` or ``ImportWarning``: part of the JSON API, the admin
/// report and the command line's output, so never renamed.
///
/// The constants are every code the importers give, except that a native spec breaking a rule
/// of ``FormModel/FormSchema/ruleViolations()`` is refused under the rule's own code
/// (``FormModel/SchemaIssue/Code``, through ``init(_:)``).
public struct ImportCode: ErrorCode, Codable {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A schema rule's code, unchanged.
    public init(_ rule: SchemaIssue.Code) {
        rawValue = rule.rawValue
    }

    // MARK: Refusals (ImportError)

    /// An attribute value outside its list or shape (XSD).
    public static let badValue = ImportCode("bad-value")
    public static let badInteger = ImportCode("bad-integer")
    /// A max-size that is not a number of bytes, KB or MB.
    public static let badSize = ImportCode("bad-size")
    public static let badAccept = ImportCode(SchemaIssue.Code.badAccept)
    public static let badID = ImportCode(SchemaIssue.Code.badID)
    public static let badName = ImportCode(SchemaIssue.Code.badName)
    /// A document with a DOCTYPE, refused before anything in it is read.
    public static let doctype = ImportCode("doctype")
    /// Two forms with one id: refused between native specs; between entity sets of one OData
    /// service a warning (the second form's id gets `-2`).
    public static let duplicateFormID = ImportCode("duplicate-form-id")
    public static let groupNotAllowed = ImportCode(SchemaIssue.Code.groupNotAllowed)
    /// libxml2 or the bundled XSD failed: not the document's fault.
    public static let `internal` = ImportCode("internal")
    /// An attribute value the XSD refuses for a reason not rewritten more precisely.
    public static let invalidAttribute = ImportCode("invalid-attribute")
    public static let malformedXML = ImportCode("malformed-xml")
    /// An element where the XSD allows it nowhere.
    public static let misplacedElement = ImportCode("misplaced-element")
    public static let missingAttribute = ImportCode("missing-attribute")
    /// An element that lacks a child it needs.
    public static let missingElement = ImportCode("missing-element")
    /// Native specs and OData documents in one import.
    public static let mixedFormats = ImportCode("mixed-formats")
    public static let nestedSwitch = ImportCode(SchemaIssue.Code.nestedSwitch)
    public static let noDocuments = ImportCode("no-documents")
    /// A value-help service's `$metadata` (`Common.ValueListReferences`) that gives the referring
    /// property no `Common.ValueListMapping`, or speaks another OData version.
    public static let noValueListMapping = ImportCode("no-value-list-mapping")
    /// Any other way a native spec breaks the XSD; the message is libxml2's own, cleaned.
    public static let schema = ImportCode("schema")
    public static let sectionOrder = ImportCode(SchemaIssue.Code.sectionOrder)
    /// Nested deeper than the parser's limit.
    public static let tooDeep = ImportCode("too-deep")
    /// A document over the size limit.
    public static let tooLarge = ImportCode("too-large")
    public static let unexpectedElement = ImportCode("unexpected-element")
    public static let unexpectedText = ImportCode("unexpected-text")
    public static let unknownAttribute = ImportCode("unknown-attribute")
    public static let unknownElement = ImportCode("unknown-element")
    /// A root element that is neither a native `<form>`, `edmx:Edmx` nor an XForm's `h:html`.
    public static let unknownFormat = ImportCode("unknown-format")
    /// An `h:html` document without what makes it an XForm (`h:head`, an XForms `model`, a
    /// primary instance); the message says which is missing.
    public static let notAnXForm = ImportCode("not-an-xform")
    /// An XForm expression that does not parse, calls a function with arguments it does not take
    /// or under an undeclared prefix, or reads an absolute path to no node.
    public static let badExpression = ImportCode("bad-expression")
    /// An XForm expression that needs more than the operation limit of one evaluation on the
    /// form's own defaults: refused at import, never at submission.
    public static let expressionOverLimit = ImportCode("expression-over-limit")
    /// An XForm with no question left to show.
    public static let noQuestions = ImportCode("no-questions")
    /// XForm calculates that read each other in a cycle.
    public static let calculateCycle = ImportCode("calculate-cycle")
    /// An XForm's bind `nodeset` or control `ref` that matches no node of the primary instance.
    public static let unknownNode = ImportCode("unknown-node")
    /// A native `<form>` in another namespace than `urn:fieldwork:form:1`.
    public static let wrongNamespace = ImportCode("wrong-namespace")
    public static let wrongRoot = ImportCode("wrong-root")

    // MARK: Warnings (ImportWarning)

    /// The field control of fields is a path evaluated at run time (per form).
    public static let dynamicFieldControl = ImportCode("dynamic-field-control")
    /// A form id that an earlier import of the same batch gave too: this one is its next version.
    public static let formIDAgain = ImportCode("form-id-again")
    /// UI.Hidden of fields is a path evaluated at run time (per form).
    public static let dynamicHidden = ImportCode("dynamic-hidden")
    /// A second document declaring types is read for its annotations only.
    public static let extraMetadata = ImportCode("extra-metadata")
    /// Part of a field or form that could not be mapped and was left out.
    public static let mappingDropped = ImportCode("mapping-dropped")
    /// A metadata document that gives no form (no creatable entity set).
    public static let noForms = ImportCode("no-forms")
    /// A property whose name is not a valid field name, renamed.
    public static let renamedField = ImportCode("renamed-field")
    /// A form with no required field gets its first field made required.
    public static let requiredAdded = ImportCode("required-added")
    /// An OData field left out because it broke a schema rule.
    public static let ruleViolation = ImportCode("rule-violation")
    /// An alias used without a declaration (counted per alias).
    public static let undeclaredAlias = ImportCode("undeclared-alias")
    /// A required, read-only field without default or prefill: nobody can fill it in.
    public static let unfillableField = ImportCode("unfillable-field")
    /// An enumeration member that its type does not have (counted).
    public static let unknownEnumValue = ImportCode("unknown-enum-value")
    /// A layout path that names no property of the entity type (per form).
    public static let unknownPath = ImportCode("unknown-path")
    /// An `sap:` attribute Fieldwork does not know, likely misspelt (counted per name).
    public static let unknownSAPAttribute = ImportCode("unknown-sap-attribute")
    /// Annotation targets naming nothing in the metadata (per document).
    public static let unknownTarget = ImportCode("unknown-target")
    /// An enumeration member written without its type (counted).
    public static let unqualifiedEnumValue = ImportCode("unqualified-enum-value")
    /// Properties of types that cannot be fields yet (per form).
    public static let unsupportedType = ImportCode("unsupported-type")
    /// Annotations in effect that no form read, one warning per term with the count.
    public static let unusedAnnotation = ImportCode("unused-annotation")
    /// A native list that no value list names.
    public static let unusedList = ImportCode("unused-list")
    /// A warning libxml2 reported while parsing.
    public static let xmlWarning = ImportCode("xml-warning")

    // MARK: XForms warnings (ImportWarning, per form)

    /// An action left out: `setvalue` on an event other than `odk-instance-first-load`,
    /// `odk:setgeopoint`, a `submission`.
    public static let actionUnsupported = ImportCode("action-unsupported")
    /// An appearance treated as presentation only, or not supported: the kind rule stands.
    public static let appearanceIgnored = ImportCode("appearance-ignored")
    /// A date in a non-Gregorian calendar (`ethiopian`, `persian`...), taken as a Gregorian date.
    public static let calendarUnsupported = ImportCode("calendar-unsupported")
    /// A control left out (`odk:rank`, `secret`, `textarea`, an external app, `select-contact`).
    public static let controlUnsupported = ImportCode("control-unsupported")
    /// A secondary instance loaded from a file (`src`), never fetched: its options wait for an upload.
    public static let externalInstance = ImportCode("external-instance")
    /// A geopoint, geotrace or geoshape, entered as text: no map.
    public static let geoAsText = ImportCode("geo-as-text")
    /// A function the server does not evaluate (`pulldata`, CHT's extensions): the rule is not enforced.
    public static let functionUnsupported = ImportCode("function-unsupported")
    /// An XForm expression reading a relative path to no node (it reads as empty), or a path that
    /// cannot be resolved before a submission (`//`, `*`).
    public static let unknownReference = ImportCode("unknown-reference")
    /// Itext media (`image`, `audio`, `video`, `big-image`) left out: media files are not supplied.
    public static let mediaLeftOut = ImportCode("media-left-out")
    /// A text id (`jr:itext('id')`) that no translation has.
    public static let missingText = ImportCode("missing-text")
    /// A form without `h:title`: the form id is its title.
    public static let missingTitle = ImportCode("missing-title")
    /// A primary instance root without an `id`: the form id comes from the root's name.
    public static let missingFormID = ImportCode("missing-form-id")
    /// A preload the server does not fill (`property deviceid`, `patient`...): the node stays empty.
    public static let preloadNotFilled = ImportCode("preload-not-filled")
    /// A repeat, left out with its questions: not supported yet.
    public static let repeatUnsupported = ImportCode("repeat-unsupported")
}
