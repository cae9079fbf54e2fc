/// Reads the options of a value list from CSV, as admins upload them: one option per line,
/// `value,label[,group]`, RFC 4180 quoting (`"Smith, J."`, `""` for a quote), an optional header
/// line `value,label[,group]`, blank lines ignored. Options with a group are gathered under it,
/// groups in the order they first appear; options without one form a plain run first.
public enum OptionCSV {
    /// One line's mistake, to fix in the file.
    public struct LineError: Error, Sendable, Hashable, CustomStringConvertible {
        /// 1-based line of the file.
        public var line: Int
        public var message: String

        public var description: String { "Line \(line): \(message)" }
    }

    /// Every mistake of a refused file.
    public struct Failure: Error, Sendable, Hashable {
        public var errors: [LineError]
    }

    /// Most options a list takes: more would make a page nobody can use.
    public static let maxOptions = 10_000

    /// The option groups of a CSV text, or every line's error.
    public static func parse(_ text: String) -> Result<[OptionGroup], Failure> {
        var errors: [LineError] = []
        var plain: [Option] = []
        var grouped: [(label: String, options: [Option])] = []
        var seen: [String: Int] = [:]
        var count = 0
        let rows: [(line: Int, cells: [String])]
        switch records(text) {
        case .success(let found): rows = found
        case .failure(let error): return .failure(Failure(errors: [error]))
        }
        for (index, row) in rows.enumerated() {
            let cells = row.cells.map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.allSatisfy(\.isEmpty) { continue }
            if index == 0,
                cells.map({ $0.lowercased() }) == ["value", "label"]
                    || cells.map({ $0.lowercased() }) == ["value", "label", "group"]
            {
                continue
            }
            guard cells.count == 2 || cells.count == 3 else {
                errors.append(
                    LineError(
                        line: row.line,
                        message:
                            "Write value,label or value,label,group; this line has \(Words.count(cells.count, "column"))."
                    ))
                continue
            }
            let value = cells[0]
            let label = cells[1]
            if value.isEmpty {
                errors.append(LineError(line: row.line, message: "Enter a value in the first column."))
                continue
            }
            if value.count > 200 {
                errors.append(LineError(line: row.line, message: "The value must be 200 characters or fewer."))
                continue
            }
            if label.isEmpty {
                errors.append(
                    LineError(line: row.line, message: "Enter a label for \"\(value)\" in the second column."))
                continue
            }
            if let first = seen[value] {
                errors.append(
                    LineError(
                        line: row.line,
                        message: "The value \"\(value)\" is already on line \(first); each value may appear once."))
                continue
            }
            seen[value] = row.line
            count += 1
            if count == maxOptions + 1 {
                errors.append(
                    LineError(
                        line: row.line,
                        message: "A list takes at most \(maxOptions) options; split the list or shorten it."))
            }
            let option = Option(value: value, label: label)
            if cells.count == 3, !cells[2].isEmpty {
                if let at = grouped.firstIndex(where: { $0.label == cells[2] }) {
                    grouped[at].options.append(option)
                } else {
                    grouped.append((cells[2], [option]))
                }
            } else {
                plain.append(option)
            }
        }
        if !errors.isEmpty { return .failure(Failure(errors: errors)) }
        if count == 0 {
            return .failure(
                Failure(errors: [
                    LineError(line: 1, message: "The file has no options; write one value,label line per option.")
                ]))
        }
        var groups: [OptionGroup] = []
        if !plain.isEmpty { groups.append(OptionGroup(options: plain)) }
        groups += grouped.map { OptionGroup(label: $0.label, options: $0.options) }
        return .success(groups)
    }

    /// The records of the text with the line each starts on; quoted cells may span lines.
    public static func records(_ text: String) -> Result<[(line: Int, cells: [String])], LineError> {
        var rows: [(line: Int, cells: [String])] = []
        var cells: [String] = []
        var cell = ""
        var line = 1
        var rowLine = 1
        var quoted = false
        var quoteLine = 0
        var afterQuote = false
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        // A byte-order mark at the start is not part of the first value.
        var first = true
        func endRow() {
            cells.append(cell)
            rows.append((rowLine, cells))
            cells = []
            cell = ""
            afterQuote = false
        }
        while let scalar = pending ?? scalars.next() {
            pending = nil
            if first {
                first = false
                if scalar == "\u{FEFF}" { continue }
            }
            if quoted {
                if scalar == "\"" {
                    let next = scalars.next()
                    if next == "\"" {
                        cell.unicodeScalars.append("\"")
                    } else {
                        quoted = false
                        afterQuote = true
                        pending = next
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    cell.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case ",":
                cells.append(cell)
                cell = ""
                afterQuote = false
            case "\r":
                let next = scalars.next()
                if next != "\n" { pending = next }
                endRow()
                line += 1
                rowLine = line
            case "\n":
                endRow()
                line += 1
                rowLine = line
            case "\"" where cell.trimmingCharacters(in: .whitespaces).isEmpty && !afterQuote:
                cell = ""
                quoted = true
                quoteLine = line
            default:
                if afterQuote && scalar != " " && scalar != "\t" {
                    return .failure(
                        LineError(
                            line: line,
                            message:
                                "Text follows a closing quote; put the whole value in quotes and write a quote inside it as \"\"."
                        ))
                }
                if !afterQuote { cell.unicodeScalars.append(scalar) }
            }
        }
        if quoted {
            return .failure(
                LineError(line: quoteLine, message: "A quote opened here is never closed; end the value with \"."))
        }
        if !cell.isEmpty || !cells.isEmpty { endRow() }
        return .success(rows)
    }
}
