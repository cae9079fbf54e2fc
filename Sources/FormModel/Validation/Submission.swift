import Foundation

/// What a browser or an API client sent: strings per input name (a repeated name gives
/// several), and the files already received and staged by the server, per field name.
///
/// Names are input names: a field's `name`, and for durations also `NAME.hours` and
/// `NAME.minutes`. Unknown names are ignored by validation.
public struct Submission: Sendable, Hashable {
    public var fields: [String: [String]]
    public var files: [String: [SubmittedFile]]

    public init(fields: [String: [String]] = [:], files: [String: [SubmittedFile]] = [:]) {
        self.fields = fields
        self.files = files
    }

    /// The first value under a name, if any.
    public func first(_ name: String) -> String? { fields[name]?.first }
}

/// A file the server received (and staged) for an attachments field; its type comes from its
/// content, never from its name or the type the browser declared.
public struct SubmittedFile: Codable, Sendable, Hashable {
    /// The server's id of the stored bytes (staged until the object is created).
    public var id: String
    /// The sanitised file name to show and to offer on download.
    public var name: String
    /// Size in bytes.
    public var size: Int
    /// The MIME type sniffed from the content (`ContentSniffer`), or nil when unrecognised.
    public var contentType: String?

    public init(id: String, name: String, size: Int, contentType: String?) {
        self.id = id
        self.name = name
        self.size = size
        self.contentType = contentType
    }
}

/// A typed, valid value of one field.
public enum FieldValue: Sendable, Hashable {
    case text(String)
    case number(Decimal)
    case bool(Bool)
    case date(LocalDate)
    case time(LocalTime)
    case datetime(LocalDateTime)
    case duration(ISODuration)
    /// One option value.
    case choice(String)
    /// Several option values, in the order the field offers them.
    case choices([String])
    case files([SubmittedFile])
}

/// One problem with one field, with a message that says what to do.
public struct FieldIssue: Sendable, Hashable, CustomStringConvertible {
    /// The field's name (for a switch child, the child's name).
    public var field: String
    /// Stable code, e.g. `required`, `too-long`, `pattern`, `min`, `max-selected`, `file-type`.
    public var code: String
    /// For people: "Enter a title", "Cost must be 0 or more".
    public var message: String

    public init(field: String, code: String, message: String) {
        self.field = field
        self.code = code
        self.message = message
    }

    public var description: String { "\(field): \(message) [\(code)]" }
}

/// Whether a submission creates an object or updates one.
public enum ValidationMode: Sendable, Hashable {
    case create
    case edit
}

/// What the server knows beside the submission.
public struct ValidationContext: Sendable, Hashable {
    public var mode: ValidationMode
    /// Values the server decided and the user may not change: the query prefill it rendered
    /// (create mode, verified by the web layer), and in edit mode the stored values of fields
    /// that are read-only there (`editable="false"`, `create-only`). For these fields the
    /// submitted strings are ignored and these are used instead.
    public var serverValues: [String: [String]]
    /// The stored files of attachments fields that are read-only in this mode (edit mode), kept
    /// whatever was uploaded.
    public var serverFiles: [String: [SubmittedFile]]
    /// "Today" for `default="today"` (not used for bounds: those are fixed in the spec).
    public var today: LocalDate?

    public init(
        mode: ValidationMode = .create, serverValues: [String: [String]] = [:],
        serverFiles: [String: [SubmittedFile]] = [:], today: LocalDate? = nil
    ) {
        self.mode = mode
        self.serverValues = serverValues
        self.serverFiles = serverFiles
        self.today = today
    }
}

/// The outcome of validating a submission: typed values of every stored field, or issues.
public struct ValidationResult: Sendable, Hashable {
    /// Typed values by field name; fields left empty are absent; children of a switch that is off are absent.
    public var values: [String: FieldValue]
    /// Every issue at once, in form order.
    public var issues: [FieldIssue]

    public init(values: [String: FieldValue], issues: [FieldIssue]) {
        self.values = values
        self.issues = issues
    }

    public var isValid: Bool { issues.isEmpty }
}
