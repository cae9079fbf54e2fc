import FormModel

/// Collects the warnings of one XForm's import, each about the form (`form` is its id). What a
/// form repeats (an appearance, an unknown attribute, a media form) is counted under one key and
/// becomes one warning with a `count`, pointing at the first occurrence.
struct XFormReport {
    private struct Entry {
        var code: ImportCode
        var line: Int
        var column: Int
        var count: Int
        var message: (Int) -> String
    }

    let file: String
    var form: String?
    private var keys: [String] = []
    private var entries: [String: Entry] = [:]

    init(file: String) {
        self.file = file
    }

    /// A warning of its own.
    mutating func warn(_ code: ImportCode, _ message: String, line: Int = 0, column: Int = 0) {
        let key = "\(keys.count)\u{0}"
        keys.append(key)
        entries[key] = Entry(code: code, line: line, column: column, count: 1, message: { _ in message })
    }

    /// One more occurrence of something counted under `key`; `message` gets the final count.
    mutating func tally(_ code: ImportCode, key: String, line: Int = 0, message: @escaping (Int) -> String) {
        let fullKey = code.rawValue + "\u{0}" + key
        if entries[fullKey] != nil {
            entries[fullKey]!.count += 1
        } else {
            keys.append(fullKey)
            entries[fullKey] = Entry(code: code, line: line, column: 0, count: 1, message: message)
        }
    }

    /// The warnings in the order first reported.
    var warnings: [ImportWarning] {
        keys.compactMap { entries[$0] }.map {
            ImportWarning(
                code: $0.code, message: $0.message($0.count), file: file, line: $0.line, column: $0.column, form: form,
                count: $0.count)
        }
    }
}
