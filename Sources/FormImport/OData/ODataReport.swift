/// Collects the warnings of an OData import. Warnings that real files repeat hundreds of times
/// (an unused term, an undeclared alias, a misspelt attribute) are counted under one key and
/// become one `ImportWarning` with a `count`, pointing at the first occurrence.
struct ODataReport {
    private struct Tally {
        var code: ImportCode
        var file: String?
        var line: Int
        var term: String?
        var form: String?
        var count: Int
        var message: (Int) -> String
    }

    private var keys: [String] = []
    private var tallies: [String: Tally] = [:]

    /// A warning of its own.
    mutating func warn(_ code: ImportCode, _ message: String, file: String?, line: Int = 0, term: String? = nil) {
        let key = "\(keys.count)\u{0}"
        keys.append(key)
        tallies[key] = Tally(
            code: code, file: file, line: line, term: term, form: nil, count: 1, message: { _ in message })
    }

    /// One more occurrence of something counted under `key`; `message` gets the final count.
    mutating func tally(
        _ code: ImportCode, key: String, file: String?, line: Int = 0, term: String? = nil, form: String? = nil,
        count: Int = 1, message: @escaping (Int) -> String
    ) {
        let fullKey = code.rawValue + "\u{0}" + key
        if tallies[fullKey] != nil {
            tallies[fullKey]!.count += count
        } else {
            keys.append(fullKey)
            tallies[fullKey] = Tally(
                code: code, file: file, line: line, term: term, form: form, count: count, message: message)
        }
    }

    /// Adds another report's warnings after this one's.
    mutating func append(_ other: ODataReport) {
        for key in other.keys {
            let fullKey = "\(keys.count)\u{1}" + key
            keys.append(fullKey)
            tallies[fullKey] = other.tallies[key]
        }
    }

    /// The warnings in the order first reported.
    var warnings: [ImportWarning] {
        keys.compactMap { tallies[$0] }.map {
            ImportWarning(
                code: $0.code, message: $0.message($0.count), file: $0.file, line: $0.line, term: $0.term,
                form: $0.form, count: $0.count)
        }
    }

    /// "" for one occurrence, " (3 times)" for more.
    static func times(_ count: Int) -> String {
        count == 1 ? "" : " (\(count) times)"
    }
}

extension ImportCode {
    /// A sloppy document: EDM or EDMX elements in no namespace, in one of no OData version, or in
    /// the EDM namespace of the other version; the warning names what was assumed.
    public static let assumedNamespace = ImportCode(rawValue: "assumed-namespace")
    /// Properties the service requires for a create that the layout leaves out, added to the
    /// form in a group of their own (per form: `form` is the form's id).
    public static let requiredForCreate = ImportCode(rawValue: "required-for-create")
}
