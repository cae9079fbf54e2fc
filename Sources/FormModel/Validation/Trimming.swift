import Foundation

extension String {
    /// `trimmingCharacters(in: .whitespaces)`, without Foundation's cost in the usual case of
    /// nothing to trim: a value whose first and last characters are visible ASCII is itself.
    func trimmingWhitespace() -> String {
        hasPlainEnds ? self : trimmingCharacters(in: .whitespaces)
    }

    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, likewise.
    func trimmingWhitespaceAndNewlines() -> String {
        hasPlainEnds ? self : trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether the first and last scalars are ASCII above the space, so neither is whitespace
    /// nor a line break of any kind; false for an empty string, which Foundation then returns.
    private var hasPlainEnds: Bool {
        guard let first = utf8.first, let last = utf8.last else { return false }
        return first > 0x20 && first < 0x80 && last > 0x20 && last < 0x80
    }
}
