/// The types the date rewrite should see for a form's nodes. A bind's declared type counts,
/// except that a calculated node declared as a string, or not at all (pyxform writes
/// `type="string"` on every calculate), takes the static type of its calculation when that is a
/// date, dateTime or time. The WHO verbal autopsy form needs it: `Id10023` is a string calculate
/// `if(..., Id10023_a, Id10023_b)` over two dates, and `ageInDays` is `Id10023 - Id10021`, which
/// without it subtracts a date from NaN.
enum XPathTypeInference {
    /// - Parameters:
    ///   - declared: each bound node's type from its bind.
    ///   - calculates: each calculated node's expression, by the node's path.
    /// - Returns: `declared`, with the inferred date, dateTime and time types added.
    static func types(
        declared: [[String]: XPathValueType], calculates: [[String]: XPathExpression]
    ) -> [[String]: XPathValueType] {
        var types = declared
        let open = calculates.filter { declared[$0.key] == nil || declared[$0.key] == .string }
        // A calculate can only take a type from one before it in a chain, so as many rounds as
        // calculates reach the end of the longest chain; a cycle changes nothing more.
        for _ in 0...open.count {
            var changed = false
            for (path, calculate) in open {
                guard let type = calculate.staticType(context: path, type: { types[$0] }), type.isTemporal,
                    types[path] != type
                else { continue }
                types[path] = type
                changed = true
            }
            if !changed { break }
        }
        return types
    }
}
