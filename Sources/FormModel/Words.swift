/// Turns identifiers into words people read.
public enum Words {
    /// Splits at a lower-to-upper change and at `_`, capitalising each word:
    /// `CompanyName` and `COMPANY_NAME` both give "Company Name".
    public static func fromIdentifier(_ identifier: String) -> String {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for ch in identifier {
            if ch == "_" || ch == "-" || ch == " " {
                if !current.isEmpty { words.append(current) }
                current = ""
                previous = nil
                continue
            }
            if let p = previous, p.isLowercase || p.isNumber, ch.isUppercase, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(ch)
            previous = ch
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined(separator: " ")
    }

    /// "A", "A and B", "A, B and C".
    public static func list(_ items: [String], conjunction: String = "and") -> String {
        switch items.count {
        case 0: return ""
        case 1: return items[0]
        default: return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items[items.count - 1]
        }
    }

    /// "1 file", "3 files": the count and the noun, plural unless the count is one. The plural
    /// adds "s" unless given.
    public static func count(_ n: Int, _ singular: String, plural: String? = nil) -> String {
        "\(n) \(n == 1 ? singular : plural ?? singular + "s")"
    }
}
