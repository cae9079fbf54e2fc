/// The namespaces, vocabularies and terms the OData importer knows by name.
enum ODataNamespace {
    /// The EDMX namespace of OData V2 (and V1/V3) service metadata.
    static let edmxV2 = "http://schemas.microsoft.com/ado/2007/06/edmx"
    /// The EDMX namespace of OData V4 service metadata.
    static let edmxV4 = "http://docs.oasis-open.org/odata/ns/edmx"
    /// EDMX namespaces: OData V1–V3 (`edmx` 2007/06) and V4 (OASIS).
    static let edmx: Set<String> = [edmxV2, edmxV4]

    /// EDM (CSDL) namespaces of every version; a V2 file mixes one of the old ones with the
    /// OASIS one for its inline `<Annotations>`.
    static let edm: Set<String> = [
        "http://schemas.microsoft.com/ado/2006/04/edm",
        "http://schemas.microsoft.com/ado/2007/05/edm",
        "http://schemas.microsoft.com/ado/2008/01/edm",
        "http://schemas.microsoft.com/ado/2008/09/edm",
        "http://schemas.microsoft.com/ado/2009/11/edm",
        "http://docs.oasis-open.org/odata/ns/edm",
    ]

    /// The OASIS EDM namespace of OData V4 and 4.01.
    static let edmV4 = "http://docs.oasis-open.org/odata/ns/edm"

    /// SAP's V2 annotation attributes (`sap:label`, `sap:creatable`, ...).
    static let sap = "http://www.sap.com/Protocols/SAPData"
    /// V2 data service metadata attributes (`m:HasStream`).
    static let metadata = "http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"
    /// Entity Framework annotations in V2 files (`StoreGeneratedPattern`).
    static let entityFramework = "http://schemas.microsoft.com/ado/2009/02/edm/annotation"
}

/// Vocabulary namespaces and the aliases people write for them.
enum Vocabulary {
    static let core = "Org.OData.Core.V1"
    static let capabilities = "Org.OData.Capabilities.V1"
    static let validation = "Org.OData.Validation.V1"
    static let measures = "Org.OData.Measures.V1"
    static let common = "com.sap.vocabularies.Common.v1"
    static let ui = "com.sap.vocabularies.UI.v1"
    static let communication = "com.sap.vocabularies.Communication.v1"

    /// The short names the import report uses; other vocabularies keep their full namespace.
    static let shortNames: [String: String] = [
        core: "Core", capabilities: "Capabilities", validation: "Validation", measures: "Measures",
        common: "Common", ui: "UI", communication: "Communication",
    ]

    /// Vocabularies every OData tool knows, by the alias they usually get (lower-cased). An alias
    /// used without a declaration is read through this table, with a warning.
    static let conventional: [String: String] = [
        "core": core, "capabilities": capabilities, "validation": validation, "measures": measures,
        "common": common, "ui": ui, "communication": communication,
        "aggregation": "Org.OData.Aggregation.V1", "authorization": "Org.OData.Authorization.V1",
        "temporal": "Org.OData.Temporal.V1", "json": "Org.OData.JSON.V1", "repeatability": "Org.OData.Repeatability.V1",
        "analytics": "com.sap.vocabularies.Analytics.v1", "personaldata": "com.sap.vocabularies.PersonalData.v1",
        "codelist": "com.sap.vocabularies.CodeList.v1", "hierarchy": "com.sap.vocabularies.Hierarchy.v1",
        "html5": "com.sap.vocabularies.HTML5.v1", "pdf": "com.sap.vocabularies.PDF.v1",
        "session": "com.sap.vocabularies.Session.v1", "graph": "com.sap.vocabularies.Graph.v1",
    ]

    /// Every namespace of `conventional`, accepted when written out in full without a reference.
    static let knownNamespaces = Set(conventional.values)

    /// The vocabulary an undeclared alias most likely means: `Common`, `common`, `SAP__common`.
    static func conventionalNamespace(forAlias alias: String) -> String? {
        var key = alias.lowercased()
        if key.hasPrefix("sap__") { key.removeFirst(5) }
        return conventional[key]
    }

    /// How the report names a term: `UI.LineItem` for the vocabularies in `shortNames`, else the full name.
    static func displayName(ofTerm term: String) -> String {
        guard let dot = term.lastIndex(of: ".") else { return term }
        let namespace = String(term[..<dot])
        guard let short = shortNames[namespace] else { return term }
        return short + term[dot...]
    }
}

/// The terms the mapping reads, by full name.
enum Term {
    static let label = Vocabulary.common + ".Label"
    static let quickInfo = Vocabulary.common + ".QuickInfo"
    static let fieldControl = Vocabulary.common + ".FieldControl"
    static let valueList = Vocabulary.common + ".ValueList"
    static let valueListWithFixedValues = Vocabulary.common + ".ValueListWithFixedValues"
    static let valueListReferences = Vocabulary.common + ".ValueListReferences"
    static let valueListMapping = Vocabulary.common + ".ValueListMapping"
    static let isUpperCase = Vocabulary.common + ".IsUpperCase"
    static let isDigitSequence = Vocabulary.common + ".IsDigitSequence"
    static let text = Vocabulary.common + ".Text"
    static let draftRoot = Vocabulary.common + ".DraftRoot"
    static let draftNode = Vocabulary.common + ".DraftNode"
    static let composition = Vocabulary.common + ".Composition"

    static let facets = Vocabulary.ui + ".Facets"
    static let lineItem = Vocabulary.ui + ".LineItem"
    static let headerFacets = Vocabulary.ui + ".HeaderFacets"
    static let fieldGroup = Vocabulary.ui + ".FieldGroup"
    static let identification = Vocabulary.ui + ".Identification"
    static let headerInfo = Vocabulary.ui + ".HeaderInfo"
    static let hidden = Vocabulary.ui + ".Hidden"
    static let multiLineText = Vocabulary.ui + ".MultiLineText"
    static let inputMask = Vocabulary.ui + ".InputMask"

    static let computed = Vocabulary.core + ".Computed"
    static let immutable = Vocabulary.core + ".Immutable"
    static let mediaType = Vocabulary.core + ".MediaType"
    static let acceptableMediaTypes = Vocabulary.core + ".AcceptableMediaTypes"
    static let description = Vocabulary.core + ".Description"
    static let symbolicName = Vocabulary.core + ".SymbolicName"

    static let insertRestrictions = Vocabulary.capabilities + ".InsertRestrictions"
    static let updateRestrictions = Vocabulary.capabilities + ".UpdateRestrictions"
    static let searchRestrictions = Vocabulary.capabilities + ".SearchRestrictions"

    static let minimum = Vocabulary.validation + ".Minimum"
    static let maximum = Vocabulary.validation + ".Maximum"
    static let exclusive = Vocabulary.validation + ".Exclusive"
    static let pattern = Vocabulary.validation + ".Pattern"
    static let allowedValues = Vocabulary.validation + ".AllowedValues"

    static let isEmailAddress = Vocabulary.communication + ".IsEmailAddress"
    static let isPhoneNumber = Vocabulary.communication + ".IsPhoneNumber"

    static let isoCurrency = Vocabulary.measures + ".ISOCurrency"
    static let unit = Vocabulary.measures + ".Unit"

    /// The terms whose values the mapping reads; the values of others (line items, charts, side
    /// effects, value-list parameters...) are not built, only counted.
    static let valued: Set<String> = [
        label, quickInfo, fieldControl, valueListWithFixedValues, isUpperCase, isDigitSequence,
        facets, headerFacets, fieldGroup, identification, headerInfo, hidden, multiLineText,
        computed, immutable, mediaType, acceptableMediaTypes, description, symbolicName,
        insertRestrictions, updateRestrictions, minimum, maximum, exclusive, pattern, allowedValues,
        isEmailAddress, isPhoneNumber, isoCurrency, unit, inputMask, valueList,
        // Read for the service binding only (`SearchRestrictions` of a value-help service's set).
        valueListReferences, valueListMapping, draftRoot, searchRestrictions,
    ]

    // Enumeration types.
    static let fieldControlType = Vocabulary.common + ".FieldControlType"
}

/// The enumerations whose members the importer checks, with their members.
enum KnownEnums {
    static let members: [String: Set<String>] = [
        Term.fieldControlType: ["Mandatory", "Optional", "ReadOnly", "Inapplicable", "Hidden"],
        Vocabulary.ui + ".ImportanceType": ["High", "Medium", "Low"],
        Vocabulary.ui + ".TextArrangementType": ["TextFirst", "TextLast", "TextSeparate", "TextOnly"],
        Vocabulary.ui + ".CriticalityType": [
            "VeryNegative", "Neutral", "Negative", "Critical", "Positive", "VeryPositive", "Information",
        ],
    ]
}

/// SAP's V2 annotation attributes (SAP Annotations for OData Version 2.0), so that a misspelt
/// one (`sap:content-versiom`) can be reported instead of silently ignored.
enum SAPAttributes {
    static let known: Set<String> = [
        "action-for", "addressable", "aggregation-role", "applicable-path", "attribute-for", "change-tracking",
        "countable", "creatable", "creatable-path", "content-version", "deletable", "deletable-path",
        "delta-link-validity", "display-format", "field-control", "filter-for", "filter-restriction", "filterable",
        "heading", "hierarchy-drill-state-for", "hierarchy-level-for", "hierarchy-node-descendant-count-for",
        "hierarchy-node-external-key-for", "hierarchy-node-for", "hierarchy-parent-node-for",
        "hierarchy-preorder-rank-for", "hierarchy-sibling-rank-for", "is-annotation", "is-extension-field",
        "is-thing-type", "label", "lower-boundary", "maxpagesize", "message-scope-supported", "pageable",
        "parameter", "planning-function", "precision", "preserve-flag-for", "quickinfo", "required-in-filter",
        "requires-filter", "schema-version", "searchable", "semantics", "service-schema-version",
        "service-version", "sortable", "super-ordinate", "supported-formats", "text", "topable", "unicode",
        "unit", "updatable", "updatable-path", "upper-boundary", "use-batch", "validation-regexp",
        "value-list", "variable-scale", "visible",
    ]

    /// The known attribute a misspelt one most likely means (at most two edits away).
    static func suggestion(for name: String) -> String? {
        known.map { ($0, editDistance(name, $0)) }.filter { $0.1 <= 2 }.min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
