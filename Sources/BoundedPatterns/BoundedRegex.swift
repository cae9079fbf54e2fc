import Foundation
import Synchronization

/// A regular expression (ICU's syntax, as `NSRegularExpression` reads it) whose every test is
/// bounded in work, not in time: a value over ``inputLimit`` is not tested, and a test that has
/// taken ``progressLimit`` of the engine's progress reports (each some thousands of matching
/// steps) is abandoned as ``Outcome/overLimit``. A pattern that backtracks badly (`(a+)+b`) on a
/// value made to trigger it so holds a thread for milliseconds, not seconds; what it answers does
/// not depend on how busy the machine is.
///
/// Used for a field's `pattern` (``TextRule``) and an XForm's `regex()`; compiled patterns are
/// kept (``compiled(_:whole:)``), so a form's pattern is compiled once, not on every submission.
public struct BoundedRegex: @unchecked Sendable {
    // NSRegularExpression is immutable once made and safe to use from several threads
    // (Foundation's own documentation); it is not marked Sendable on Linux.
    private let expression: NSRegularExpression

    /// The longest value tested, in UTF-16 units; a longer one is ``Outcome/overLimit``.
    public static let inputLimit = 10_000
    /// The progress reports a test may take. One report comes every few thousand steps of ICU's
    /// matcher; 20 reports are some 0.1 M steps, 5-10 ms here, far more than any sane pattern
    /// takes on a value of ``inputLimit`` (`[a-z0-9._%+-]+@[a-z0-9.-]+` on 10,000 characters
    /// takes none).
    public static let progressLimit = 20
    /// The share of that a test gets on a thread that serves other requests (an event loop):
    /// no value a person types takes a single report; one made to backtrack is tried again, with
    /// the whole limit, on a thread of its own.
    public static let inlineProgressLimit = 1
    /// The progress reports all the tests of one submission may take together (an XForm's
    /// `regex()` calls, each with at most ``progressLimit``): a form with many of them, each
    /// given a value made to backtrack, holds its thread for some 10-20 ms, not for each of them.
    public static let submissionProgressLimit = 40

    /// How a test ended.
    public enum Outcome: Sendable, Equatable {
        case matched
        case notMatched
        /// The value is too long, or the pattern took too many steps on it: not known.
        case overLimit
    }

    /// Compiles `pattern`; with `whole`, a match must span the whole value (a field's pattern),
    /// else it may be anywhere in it (`regex()`). Throws when the pattern is not valid.
    public init(_ pattern: String, whole: Bool) throws {
        // `\A…\z`, not `^…$`: `$` also matches before a final line break. A search is one
        // anchored match after a lazy prefix (the leftmost match, as a search finds it): searched
        // position by position, Foundation reports progress once per position tried, so a
        // 30-character value without a digit took 29 reports for `[0-9]+` and ran over the limit,
        // where as one match only the engine's steps are reported.
        expression = try NSRegularExpression(
            pattern: whole ? "\\A(?:\(pattern))\\z" : "\\A(?s:.*?)(?:\(pattern))")
    }

    /// Tests `text` within the input limit and `progressLimit` progress reports.
    public func test(_ text: String, progressLimit: Int = BoundedRegex.progressLimit) -> Outcome {
        counting(text, progressLimit: progressLimit).outcome
    }

    /// ``test(_:progressLimit:)``, and the progress reports it took: what a caller sharing one
    /// budget among several tests (an XForm's `regex()` calls in one submission) takes off it.
    public func counting(_ text: String, progressLimit: Int) -> (outcome: Outcome, progress: Int) {
        let length = text.utf16.count
        guard length <= Self.inputLimit else { return (.overLimit, 0) }
        var found = false
        var progress = 0
        expression.enumerateMatches(
            in: text, options: [.reportProgress, .anchored], range: NSRange(location: 0, length: length)
        ) { match, flags, stop in
            if match != nil {
                found = true
                stop.pointee = true
            } else if flags.contains(.progress) {
                progress += 1
                if progress > progressLimit { stop.pointee = true }
            }
        }
        if found { return (.matched, progress) }
        return (progress > progressLimit ? .overLimit : .notMatched, progress)
    }

    /// The compiled pattern, from a bounded cache of those compiled before; nil when `pattern`
    /// is not a valid regular expression.
    public static func compiled(_ pattern: String, whole: Bool) -> BoundedRegex? {
        let key = CacheKey(pattern: pattern, whole: whole)
        if let known = cache.withLock({ $0[key] }) { return known }
        guard let regex = try? BoundedRegex(pattern, whole: whole) else { return nil }
        cache.withLock { table in
            // Patterns come from forms, a few hundred at most; a flood of others (an XForm's
            // regex() over answers) starts the table afresh rather than growing it.
            if table.count >= 4096 { table.removeAll(keepingCapacity: true) }
            table[key] = regex
        }
        return regex
    }

    private struct CacheKey: Hashable, Sendable {
        let pattern: String
        let whole: Bool
    }

    private static let cache = Mutex<[CacheKey: BoundedRegex]>([:])
}
