import BoundedPatterns
import Foundation

/// Patterns that say a value's type rather than its shape, which the OData importer writes for
/// typed properties (NUMC digits, integers, decimals, GUIDs). Their refusal messages say what to
/// type, since an imported hint describes the property, not its format.
public enum KnownPattern {
    public static let digits = "[0-9]+"
    public static let integer = "-?[0-9]+"
    public static let decimal = "-?[0-9]+(\\.[0-9]+)?"
    public static let uuid = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"

    /// Whether `text` matches `pattern` whole, exactly as the server checks a field's pattern
    /// (importers use it to test a default value).
    public static func fullMatch(_ pattern: String, _ text: String) -> Bool { TextRule.fullMatch(pattern, text) }
}

/// Single-line text and notes: trimming, upper-casing, length, full-match pattern, email, tel, url and grouped characters.
enum TextRule {
    /// - Parameter patternWork: the progress reports the pattern may take (``BoundedRegex``).
    static func check(_ field: Field, _ raw: RawInput, patternWork: Int = BoundedRegex.progressLimit) -> RuleOutcome {
        guard var text = raw.first else { return .empty }
        let words = FieldWording(field)
        if field.kind == .note {
            // Browsers send CRLF for line breaks; count and store one character per break.
            if text.utf8.contains(13) { text = text.replacingOccurrences(of: "\r\n", with: "\n") }
            if text.trimmingWhitespaceAndNewlines().isEmpty { return .empty }
        } else {
            text = text.trimmingWhitespaceAndNewlines()
            if text.isEmpty { return .empty }
        }
        let c = field.constraints
        // Stored the way the service keeps it; lengths and patterns apply to what is stored.
        if c.upperCase { text = text.uppercased() }

        if let format = c.format.map(GroupedFormat.init) {
            guard let normalised = format.normalise(text) else {
                return .issue(field, .format, formatMessage(field, format, words))
            }
            text = normalised
        } else {
            switch c.textType {
            case .email?:
                guard isEmail(text) else {
                    return .issue(field, .email, "Enter an email address in the correct format, like name@example.com")
                }
            case .tel?:
                guard isTelephone(text) else {
                    return .issue(field, .tel, "Enter a telephone number, like 01632 960 001 or +44 808 157 0192")
                }
            case .url?:
                guard isWebAddress(text) else {
                    return .issue(
                        field, .url, "Enter a web address in the correct format, like https://www.example.com")
                }
            case .text?, nil:
                break
            }
        }

        if let max = c.maxLength, text.count > max {
            return .issue(field, .tooLong, "\(words.subject) must be \(Words.count(max, "character")) or fewer")
        }
        if let min = c.minLength, text.count < min {
            return .issue(field, .tooShort, "\(words.subject) must be at least \(Words.count(min, "character"))")
        }
        if let pattern = c.pattern {
            switch BoundedRegex.compiled(pattern, whole: true)?.test(text, progressLimit: patternWork) {
            case .matched?:
                break
            case .overLimit?:
                // A value made to make the pattern backtrack (or one longer than any pattern is
                // tried on): refused, never let through unchecked.
                return .issue(
                    field, .patternUnchecked,
                    "\(words.subject) could not be checked against its format: enter a shorter value")
            case .notMatched?, nil:
                return .issue(field, .pattern, patternMessage(field, words))
            }
        }
        return .value(.text(text))
    }

    /// "Contact phone must be 10 digits, like (555) 123-4567", or the format itself when it mixes kinds.
    static func formatMessage(_ field: Field, _ format: GroupedFormat, _ words: FieldWording) -> String {
        guard let count = format.countDescription else {
            return "Enter \(words.noun) in the format \(format.format)"
        }
        let example = field.placeholder.flatMap { format.normalise($0) != nil ? $0 : nil }
        return "\(words.subject) must be \(count)"
            + (example.map { ", like \($0)" } ?? " in the format \(format.format)")
    }

    /// For a ``KnownPattern``, what to type ("Agency ID must only include the digits 0 to 9");
    /// else from the hint when there is one ("Two letters, a hyphen and four digits, like
    /// AB-1234" → "Asset code must be two letters, a hyphen and four digits"); else "Enter asset
    /// code in the correct format".
    static func patternMessage(_ field: Field, _ words: FieldWording) -> String {
        switch field.constraints.pattern {
        case KnownPattern.digits: return "\(words.subject) must only include the digits 0 to 9"
        case KnownPattern.integer: return "\(words.subject) must be a whole number, like 12 or -3"
        case KnownPattern.decimal: return "\(words.subject) must be a number, like 12 or 12.5"
        case KnownPattern.uuid:
            return
                "Enter \(words.noun) as a GUID: 32 hexadecimal digits in groups of 8, 4, 4, 4 and 12, like 7c9e6679-7425-40de-944b-e07fc1f90ae7"
        default: break
        }
        guard let rule = field.hint.flatMap(ruleFromHint) else {
            return "Enter \(words.noun) in the correct format"
        }
        return "\(words.subject) must be \(rule)"
    }

    /// The hint without its example and final full stop, first letter lower-cased.
    static func ruleFromHint(_ hint: String) -> String? {
        var text = hint.trimmingCharacters(in: .whitespaces)
        for marker in [
            ", like ", " like ", ", for example ", " (e.g. ", " (e.g ", " (for example ", ", e.g. ", " e.g. ",
        ] {
            if let range = text.range(of: marker, options: .caseInsensitive) {
                text = String(text[..<range.lowerBound])
            }
        }
        text = text.trimmingCharacters(in: CharacterSet(charactersIn: " .:;,"))
        guard let first = text.first else { return nil }
        let firstWord = text.prefix { $0 != " " }
        let keep = firstWord.count > 1 && firstWord.allSatisfy(\.isUppercase)
        return keep ? text : first.lowercased() + text.dropFirst()
    }

    /// Whether `text` matches `pattern` whole within ``BoundedRegex``'s limits.
    static func fullMatch(_ pattern: String, _ text: String) -> Bool {
        BoundedRegex.compiled(pattern, whole: true)?.test(text) == .matched
    }

    /// One `@`, something before it, a dotted domain after it, no spaces.
    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, text.count <= 254,
            !text.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 32 } == true })
        else { return false }
        let domain = parts[1]
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
    }

    /// Digits, spaces, `+`, `-`, `(`, `)` and at least 5 digits.
    static func isTelephone(_ text: String) -> Bool {
        text.allSatisfy { $0.isASCIIDigit || " +-()".contains($0) } && text.filter(\.isASCIIDigit).count >= 5
    }

    /// `http` or `https` with a host.
    static func isWebAddress(_ text: String) -> Bool {
        guard !text.contains(where: \.isWhitespace), let url = URL(string: text),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { return false }
        return true
    }
}
