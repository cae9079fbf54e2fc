/// Grouped characters (`format="(###) ###-####"`): `#` a digit, `A` a letter, `*` any character,
/// everything else literal.
///
/// People may type the separators or not: spaces, hyphens, dots, brackets and slashes are
/// stripped from both the input and the format, and what remains must match the format's
/// placeholders in order. The stored value is that normalised run ("5551234567").
public struct GroupedFormat: Sendable, Hashable {
    public let format: String

    public init(_ format: String) { self.format = format }

    /// Characters people may type or leave out between groups.
    public static let separators: Set<Character> = [
        " ", "-", "\u{2010}", "\u{2013}", ".", "(", ")", "[", "]", "{", "}", "/", "\\",
    ]

    /// The format without its separators: `##########` for `(###) ###-####`.
    var template: [Character] {
        format.filter { !GroupedFormat.separators.contains($0) && !$0.isWhitespace }.map { $0 }
    }

    /// The normalised characters if `input` fits the format, else nil.
    public func normalise(_ input: String) -> String? {
        let chars = input.filter { !GroupedFormat.separators.contains($0) && !$0.isWhitespace }
        let template = self.template
        guard chars.count == template.count else { return nil }
        for (c, t) in zip(chars, template) {
            switch t {
            case "#": guard c.isASCIIDigit else { return nil }
            case "A": guard c.isLetter else { return nil }
            case "*": continue
            default: guard c.lowercased() == t.lowercased() else { return nil }
            }
        }
        return String(chars)
    }

    /// A normalised value laid out in the format again: "5551234567" → "(555) 123-4567".
    /// A value that does not fit is returned as it is.
    public func regroup(_ normalised: String) -> String {
        guard normalise(normalised) == normalised else { return normalised }
        var rest = Substring(normalised)
        var out = ""
        for f in format {
            if GroupedFormat.separators.contains(f) || f.isWhitespace {
                out.append(f)
            } else if let c = rest.first {
                out.append(c)
                rest = rest.dropFirst()
            }
        }
        return out
    }

    /// What the format asks for in words, when it is one kind of character: "10 digits", "6 letters".
    public var countDescription: String? {
        let slots = template
        guard !slots.isEmpty else { return nil }
        if slots.allSatisfy({ $0 == "#" }) { return Words.count(slots.count, "digit") }
        if slots.allSatisfy({ $0 == "A" }) { return Words.count(slots.count, "letter") }
        return nil
    }
}
