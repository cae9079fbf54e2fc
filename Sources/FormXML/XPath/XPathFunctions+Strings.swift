import BoundedPatterns
import Foundation

extension XPathFunctions {
    /// `concat(...)`: the values of all arguments, every node of a node-set argument included;
    /// also with one argument or none (XPath 1.0 wants two or more).
    static func concat(_ call: XPathCall) -> XPathCall.Result {
        .string(call.arguments.indices.flatMap(call.strings).joined())
    }

    /// `join(sep, ...)`: the values of the other arguments (every node of a node-set) with `sep`
    /// between them.
    static func join(_ call: XPathCall) -> XPathCall.Result {
        .string((1..<call.count).flatMap(call.strings).joined(separator: call.string(0)))
    }

    /// `substr(s, start, end?)`: characters `start` to `end - 1`, 0-based; a negative index
    /// counts from the end; out-of-range indexes are clamped; NaN is 0 (as JavaRosa).
    static func substr(_ call: XPathCall) -> XPathCall.Result {
        let scalars = Array(call.string(0).unicodeScalars)
        let length = scalars.count
        var start = integer(call.number(1))
        var end = call.count == 3 ? integer(call.number(2)) : length
        if start < 0 { start += length }
        if end < 0 { end += length }
        start = min(max(0, start), length)
        end = min(max(0, end), length)
        guard start < end else { return .string("") }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[start..<end])
        return .string(String(result))
    }

    /// `ends-with(s, t)`.
    static func endsWith(_ call: XPathCall) -> XPathCall.Result {
        let text = Array(call.string(0).utf8)
        let suffix = Array(call.string(1).utf8)
        return .boolean(text.count >= suffix.count && text[(text.count - suffix.count)...].elementsEqual(suffix))
    }

    /// `boolean-from-string(s)`: true for exactly "true" and "1", as the ODK spec says
    /// (JavaRosa also takes "TRUE" and "True").
    static func booleanFromString(_ call: XPathCall) -> XPathCall.Result {
        let text = call.string(0)
        return .boolean(text == "true" || text == "1")
    }

    /// The longest `uuid(n)` made, in characters.
    static let uuidLengthLimit = 10_000

    /// `uuid()`: a random version 4 UUID in lower case; `uuid(n)`: `n` random characters of
    /// `0-9A-Z` (as JavaRosa), "" for n ≤ 0 or NaN, an error past `uuidLengthLimit`.
    static func uuid(_ call: XPathCall) -> XPathCall.Result {
        guard call.count == 1 else { return .string(UUID().uuidString.lowercased()) }
        let length = integer(call.number(0))
        guard length <= uuidLengthLimit else {
            return call.invalid("at most \(uuidLengthLimit) characters, not \(length)")
        }
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var generator = SystemRandomNumberGenerator()
        return .string(String((0..<max(0, length)).map { _ in alphabet.randomElement(using: &generator)! }))
    }

    /// `regex(s, re)`: whether the ICU regular expression `re` matches somewhere in `s` (a
    /// search, as the ODK spec's `/re/.test(s)` reads, and as Enketo does; JavaRosa matches the
    /// whole value, so a pattern without `^…$` is looser here than in Collect). Tested within
    /// ``BoundedRegex``'s limits, as a field's pattern is: a value over its input limit (10,000
    /// UTF-16 units) does not match; a pattern that takes too many steps is an error (1225), so a
    /// pattern that backtracks badly cannot hold a request; an invalid pattern is an error. The
    /// calls of one submission share a budget (``BoundedRegex/submissionProgressLimit``): once it
    /// is spent, each call gets the small share that no sane pattern exceeds (a value made to
    /// backtrack then costs a fraction of a millisecond, and is an error too).
    static func regex(_ call: XPathCall) -> XPathCall.Result {
        let value = call.string(0)
        let pattern = call.string(1)
        guard value.utf16.count <= BoundedRegex.inputLimit else { return .boolean(false) }
        guard let expression = BoundedRegex.compiled(pattern, whole: false) else {
            return call.invalid("'\(pattern)' is not a valid regular expression")
        }
        let (outcome, progress) = expression.counting(
            value,
            progressLimit: max(
                BoundedRegex.inlineProgressLimit, min(BoundedRegex.progressLimit, call.state.patternWork)))
        call.state.patternWork = max(0, call.state.patternWork - progress)
        switch outcome {
        case .matched: return .boolean(true)
        case .notMatched: return .boolean(false)
        case .overLimit:
            return .failure(
                code: XPathEvaluationError.operationLimitCode, message: "the pattern '\(pattern)' takes too long")
        }
    }
}
