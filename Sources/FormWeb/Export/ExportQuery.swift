import FormModel
import FormStore
import Foundation

/// What an export or a page of the API's object list asks for in its query: the window of
/// creates and changes (`since`, `until`), the CSV's header line (`header`), and for the list
/// a page size (`limit`). Each parameter is read strictly: a value it cannot read is refused with
/// a message that says what to send, never ignored.
struct ExportQuery: Sendable, Hashable {
    var window = ChangeWindow()
    var header = CSVHeader.labels

    /// What the CSV's header line names each column by.
    enum CSVHeader: String, Sendable, Hashable {
        /// The field labels people read.
        case labels
        /// The field names, as the JSON API and the spec spell them.
        case names
    }

    /// A parameter that cannot be read, and what to send instead.
    struct Refusal: Error, Sendable, Hashable {
        /// The query parameter at fault.
        var parameter: String
        var message: String
    }

    /// The page sizes the object list takes, and the one it uses without `limit`.
    static let limits = 1...1000
    static let defaultLimit = 100

    /// Reads `since`, `until` and `header` (an empty value counts as none: a form sent with a
    /// date left blank).
    /// - Parameter timeZone: where a date, or a date and time without an offset, is read.
    static func read(_ parameters: [String: String], timeZone: TimeZone) throws(Refusal) -> ExportQuery {
        var query = ExportQuery()
        if let since = value("since", parameters) {
            query.window.since = try instant(since, parameter: "since", timeZone: timeZone, endOfDay: false)
        }
        if let until = value("until", parameters) {
            query.window.until = try instant(until, parameter: "until", timeZone: timeZone, endOfDay: true)
        }
        if let since = query.window.since, let until = query.window.until, until <= since {
            throw Refusal(parameter: "until", message: "Give an until that is later than since.")
        }
        if let header = value("header", parameters) {
            guard let chosen = CSVHeader(rawValue: header) else {
                throw Refusal(parameter: "header", message: "Give header as labels or names.")
            }
            query.header = chosen
        }
        return query
    }

    /// `limit`, from 1 to 1000; 100 without one.
    static func limit(_ parameters: [String: String]) throws(Refusal) -> Int {
        guard let text = value("limit", parameters) else { return defaultLimit }
        guard text.utf8.count <= 4, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let limit = Int(text),
            limits.contains(limit)
        else {
            throw Refusal(
                parameter: "limit",
                message: "Give limit as a whole number from \(limits.lowerBound) to \(limits.upperBound).")
        }
        return limit
    }

    private static func value(_ name: String, _ parameters: [String: String]) -> String? {
        guard let value = parameters[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }

    /// An ISO 8601 date (`2026-11-01`: its start in `timeZone`, or with `endOfDay` the start of
    /// the next day, so that `until` takes in the whole day it names), a date and time in
    /// `timeZone` (`2026-11-01T14:30`, seconds optional), or one with an offset
    /// (`2026-11-01T14:30:00Z`, `…+01:00`, fractions of a second allowed).
    static func instant(
        _ text: String, parameter: String, timeZone: TimeZone, endOfDay: Bool
    ) throws(Refusal) -> Date {
        let refusal = Refusal(
            parameter: parameter,
            message:
                "Give \(parameter) as a date (2026-11-01) or a date and time (2026-11-01T14:30, or with its offset: 2026-11-01T14:30:00Z)."
        )
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        if let date = LocalDate(text) {
            guard let start = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day))
            else { throw refusal }
            guard endOfDay else { return start }
            guard let next = calendar.date(byAdding: .day, value: 1, to: start) else { throw refusal }
            return next
        }
        // The offset, if any, ends the text: `Z`, or `+hh:mm` / `-hh:mm` after the time.
        var local = Substring(text)
        var offset: Int?
        if local.hasSuffix("Z") || local.hasSuffix("z") {
            offset = 0
            local = local.dropLast()
        } else if local.count > 6, let sign = local.dropLast(5).last, sign == "+" || sign == "-" {
            let zone = local.suffix(5)
            let parts = zone.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let hours = Int(parts[0]),
                let minutes = Int(parts[1]), hours <= 23, minutes <= 59
            else { throw refusal }
            offset = (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
            local = local.dropLast(6)
        }
        // A fraction of a second: digits after a dot at the end.
        var fraction = 0.0
        if let dot = local.lastIndex(of: "."), local[..<dot].contains("T") {
            let digits = local[local.index(after: dot)...]
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCII), let value = Double("0.\(digits)"),
                digits.allSatisfy(\.isNumber)
            else { throw refusal }
            fraction = value
            local = local[..<dot]
        }
        guard let moment = LocalDateTime(String(local)) else { throw refusal }
        var components = DateComponents(
            year: moment.date.year, month: moment.date.month, day: moment.date.day, hour: moment.time.hour,
            minute: moment.time.minute, second: moment.time.second)
        if let offset {
            guard let zone = TimeZone(secondsFromGMT: offset) else { throw refusal }
            calendar.timeZone = zone
            components.timeZone = zone
        }
        guard let date = calendar.date(from: components) else { throw refusal }
        return date.addingTimeInterval(fraction)
    }
}
