import FormModel

/// Where a form came from.
public enum SourceKind: String, Codable, Sendable, Hashable {
    case native
    case odataV2 = "odata-v2"
    case odataV4 = "odata-v4"
    case xforms

    /// How the admin page names it.
    public var displayName: String {
        switch self {
        case .native: "native"
        case .odataV2: "OData V2"
        case .odataV4: "OData V4"
        case .xforms: "ODK XForm"
        }
    }
}

/// Why a document was refused: a stable code, what to do, and where.
public struct ImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Stable rule identifier, e.g. `malformed-xml`, `unknown-element`, `duplicate-name`.
    public var code: ImportCode
    public var message: String
    /// The file's name as the user gave it, when known.
    public var file: String?
    /// 1-based line, 0 when unknown.
    public var line: Int
    /// 1-based column, 0 when unknown.
    public var column: Int

    public init(code: ImportCode, message: String, file: String? = nil, line: Int = 0, column: Int = 0) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column: message`, the form compilers use.
    public var description: String {
        var place = file ?? "<input>"
        if line > 0 { place += ":\(line)" }
        if column > 0 { place += ":\(column)" }
        return "\(place): error: \(message) [\(code)]"
    }
}

/// Everything wrong with a refused import; nothing of it is stored.
public struct ImportFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var errors: [ImportError]

    public init(_ errors: [ImportError]) {
        self.errors = errors
    }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

/// Something an import passed over without failing (unused annotation, unknown alias, ...).
public struct ImportWarning: Codable, Sendable, Hashable, CustomStringConvertible {
    /// Stable identifier, e.g. `unused-annotation`, `xml-warning`.
    public var code: ImportCode
    public var message: String
    public var file: String?
    public var line: Int
    public var column: Int
    /// For grouping in the report: an annotation term, for instance.
    public var term: String?
    /// The id of the form a per-form warning is about (`required-for-create`); nil for a warning
    /// about the documents.
    public var form: String?
    /// How many occurrences this warning stands for: an OData import reports each unused term,
    /// undeclared alias or misspelt attribute once, with its count, pointing at the first.
    public var count: Int

    public init(
        code: ImportCode, message: String, file: String? = nil, line: Int = 0, column: Int = 0, term: String? = nil,
        form: String? = nil, count: Int = 1
    ) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.term = term
        self.form = form
        self.count = count
    }

    public var description: String {
        var place = file ?? "<input>"
        if line > 0 { place += ":\(line)" }
        if column > 0 { place += ":\(column)" }
        return "\(place): warning: \(message) [\(code)]"
    }
}

/// One input document: its bytes and the name the user knows it by.
public struct ImportDocument: Sendable {
    public var name: String
    public var data: [UInt8]

    public init(name: String, data: [UInt8]) {
        self.name = name
        self.data = data
    }
}

/// Something in a source that did not become a form (an OData entity set that is not creatable), and why.
public struct ImportSkip: Codable, Sendable, Hashable, CustomStringConvertible {
    /// What was skipped, as the source names it (`BusinessPartnerSet`).
    public var name: String
    /// Why, in a sentence ("Not insertable: sap:creatable=\"false\".").
    public var reason: String
    public var file: String?
    public var line: Int

    public init(name: String, reason: String, file: String? = nil, line: Int = 0) {
        self.name = name
        self.reason = reason
        self.file = file
        self.line = line
    }

    public var description: String {
        var place = file ?? "<input>"
        if line > 0 { place += ":\(line)" }
        return "\(place): skipped \(name): \(reason)"
    }
}

/// What an accepted import produced.
public struct ImportResult: Sendable {
    public var kind: SourceKind
    public var forms: [FormSchema]
    public var warnings: [ImportWarning]
    /// Parts of the sources that gave no form, with the reason (the report lists them).
    public var skipped: [ImportSkip]
    /// The source documents, kept so admins can download them.
    public var sources: [ImportDocument]
    /// How each form of an OData import maps onto its service, by form id; empty for a native spec.
    public var bindings: [String: ServiceBinding]
    /// The rules of each form of an XForms import (relevance, constraints, calculations, texts in
    /// every language...), by form id; empty for other formats.
    public var rules: [String: XFormRules]
    /// The external instance files an XForms import came with (`cities.csv` after the form that
    /// names `jr://file/cities.csv`), read, by form id and list id: stored as those lists' options.
    package var listInstances: [String: [String: XFormExternalInstance]] = [:]

    public init(
        kind: SourceKind, forms: [FormSchema], warnings: [ImportWarning], skipped: [ImportSkip] = [],
        sources: [ImportDocument], bindings: [String: ServiceBinding] = [:], rules: [String: XFormRules] = [:]
    ) {
        self.kind = kind
        self.forms = forms
        self.warnings = warnings
        self.skipped = skipped
        self.sources = sources
        self.bindings = bindings
        self.rules = rules
    }
}

/// One import of a batch: the documents it took (by name, in order) and what came of it.
public struct ImportOutcome: Sendable {
    public var documents: [String]
    public var result: Result<ImportResult, ImportFailure>

    public init(documents: [String], result: Result<ImportResult, ImportFailure>) {
        self.documents = documents
        self.result = result
    }
}

extension Array where Element == ImportOutcome {
    /// The refusals of a batch, in order; empty when every import was accepted.
    public var failures: [ImportFailure] {
        compactMap { outcome in
            if case .failure(let failure) = outcome.result { return failure }
            return nil
        }
    }

    /// The accepted imports of a batch, in order.
    public var accepted: [ImportResult] { compactMap { try? $0.result.get() } }
}
