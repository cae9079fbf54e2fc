import Foundation

/// Parses `application/x-www-form-urlencoded` text, as browsers write queries and form posts.
enum QueryString {
    /// All values of every key, in order; `+` is a space and percent escapes are decoded.
    static func parse(_ query: String?) -> [String: [String]] {
        guard let query, !query.isEmpty else { return [:] }
        var result: [String: [String]] = [:]
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = decode(parts[0])
            guard !key.isEmpty else { continue }
            result[key, default: []].append(parts.count > 1 ? decode(parts[1]) : "")
        }
        return result
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
