import BoundedPatterns
import Foundation

/// What a browser or an API client sent: strings per input name (a repeated name gives
/// several), and the files already received and staged by the server, per field name.
///
/// Names are input names: a field's `name`, and for durations also `NAME.hours` and
/// `NAME.minutes`. Unknown names are ignored by validation.
public struct Submission: Sendable, Hashable {
    public var fields: [String: [String]]
    public var files: [String: [SubmittedFile]]
    /// The items of each item list, by list name, in order: each a submission of its own (its
    /// fields by their own names, `_id` the item's id when it has one, its own item lists).
    public var items: [String: [Submission]]

    public init(
        fields: [String: [String]] = [:], files: [String: [SubmittedFile]] = [:], items: [String: [Submission]] = [:]
    ) {
        self.fields = fields
        self.files = files
        self.items = items
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
    /// An item list's items, in order (``ItemValues``): lists within items are among their values.
    case items([ItemValues])
}

/// One problem with one field, with a message that says what to do.
public struct FieldIssue: Sendable, Hashable, CustomStringConvertible {
    /// The field's name (for a switch child, the child's name).
    public var field: String
    /// Stable code, e.g. `required`, `too-long`, `pattern`, `min`, `max-selected`, `file-type`.
    public var code: Code
    /// For people: "Enter a title", "Cost must be 0 or more".
    public var message: String

    public init(field: String, code: Code, message: String) {
        self.field = field
        self.code = code
        self.message = message
    }

    public var description: String { "\(field): \(message) [\(code)]" }

    /// A stable, machine-readable code: part of the JSON API, so never renamed. The constants
    /// are every code the server gives.
    public struct Code: ErrorCode {
        public var rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// A value a form's own rule (an XForm's `constraint`) refuses.
        public static let constraint = Code("constraint")
        /// A choice among none the form offers for these answers (an XForm's filtered options).
        public static let choice = Code("choice")
        public static let email = Code("email")
        public static let fileSize = Code("file-size")
        public static let fileType = Code("file-type")
        public static let format = Code("format")
        /// The value cannot be read as the field's kind.
        public static let invalid = Code("invalid")
        /// The JSON API was sent a body that is not a JSON object.
        public static let malformed = Code("malformed")
        /// The JSON API was sent an `Idempotency-Key` already used for another request.
        public static let idempotencyKeyReused = Code("idempotency-key-reused")
        public static let max = Code("max")
        public static let maxCount = Code("max-count")
        public static let maxSelected = Code("max-selected")
        public static let min = Code("min")
        public static let minCount = Code("min-count")
        public static let minSelected = Code("min-selected")
        public static let minutes = Code("minutes")
        public static let notAnOption = Code("not-an-option")
        public static let pattern = Code("pattern")
        /// A value whose pattern could not be tried within ``BoundedRegex``'s limits.
        public static let patternUnchecked = Code("pattern-unchecked")
        /// A required field was left empty.
        public static let required = Code("required")
        public static let scale = Code("scale")
        /// The OData service the form writes to refused the value (its own rule), or the whole
        /// object (the issue's field is then empty).
        public static let service = Code("service")
        /// The service the form writes to did not answer: nothing was created.
        public static let serviceUnavailable = Code("service-unavailable")
        /// A value-help value could not be checked because the service did not answer.
        public static let unchecked = Code("unchecked")
        public static let step = Code("step")
        public static let tel = Code("tel")
        public static let tooLong = Code("too-long")
        public static let tooMany = Code("too-many")
        public static let tooShort = Code("too-short")
        /// The JSON API was sent a value that is no string, number, boolean or list of them.
        public static let type = Code("type")
        public static let url = Code("url")
    }
}

/// What the server knows beside the submission.
public struct ValidationContext: Sendable, Hashable {
    public var mode: FormMode
    /// Values the server decided and the user may not change: the query prefill it rendered
    /// (create mode, verified by the web layer), and in edit mode the stored values of fields
    /// that are read-only there (`editable="false"`, `create-only`). For these fields the
    /// submitted strings are ignored and these are used instead.
    public var serverValues: [String: [String]]
    /// The stored files of attachments fields that are read-only in this mode (edit mode), kept
    /// whatever was uploaded.
    public var serverFiles: [String: [SubmittedFile]]
    /// The clock that `default="today"` and `default="now"` of read-only fields are read from
    /// (not used for bounds: those are fixed in the spec).
    public var clock: ClockReading?
    /// In edit mode, the stored values of choice fields that the fields no longer offer
    /// (``OfferedChoices/missing(in:)``): accepted again, but for those fields only.
    public var noLongerOffered: [String: [String]]
    /// In edit mode, the stored values of each item the object has, by the item's id, as its
    /// inputs hold them (``FieldValue/storedItemInputs(_:)``): an item sent back with its id
    /// keeps these for its fields that are read-only in this mode, as the object's own do.
    public var serverItems: [String: [String: [String]]] = [:]
    /// Whether the form's own rules decide which fields must be answered (an XForm's `required`,
    /// judged with relevance by ``RuleJudge``): the fields' `required` is then not checked here.
    public var requiredByRules = false
    /// The progress reports each pattern test may take (``BoundedRegex``): the whole limit, or
    /// ``BoundedRegex/inlineProgressLimit`` on a thread that serves other requests
    /// (``FormValidator/validateOffLoop(_:_:context:elsewhere:)``).
    public var patternWork = BoundedRegex.progressLimit

    public init(
        mode: FormMode = .create, serverValues: [String: [String]] = [:],
        serverFiles: [String: [SubmittedFile]] = [:], clock: ClockReading? = nil,
        noLongerOffered: [String: [String]] = [:]
    ) {
        self.mode = mode
        self.serverValues = serverValues
        self.serverFiles = serverFiles
        self.clock = clock
        self.noLongerOffered = noLongerOffered
    }
}

/// The outcome of validating a submission: typed values of every stored field, or issues.
public struct ValidationResult: Sendable, Hashable {
    /// Typed values by field name; fields left empty are absent; children of a switch that is off
    /// are absent; each item list's items under its name (``FieldValue/items(_:)``), none too.
    public var values: [String: FieldValue]
    /// Every issue at once, in form order.
    public var issues: [FieldIssue]

    public init(values: [String: FieldValue], issues: [FieldIssue]) {
        self.values = values
        self.issues = issues
    }

    public var isValid: Bool { issues.isEmpty }
}
