import Foundation

extension XPathFunctions {
    /// A date function's argument: nothing (""), a number of days, a date/dateTime/time, or
    /// something else.
    enum TemporalArgument {
        case empty
        case days(Double)
        case value(XPathTemporal)
        case invalid
    }

    /// Days accepted as a date (about ±270,000 years), as JavaRosa refuses beyond an int.
    static let dayLimit = 100_000_000.0

    static func temporal(_ call: XPathCall, _ index: Int) -> TemporalArgument {
        if call.isNumber(index) {
            let days = call.number(index)
            if days.isNaN { return .empty }
            return abs(days) <= dayLimit ? .days(days) : .invalid
        }
        guard call.isString(index) || call.isNodeSet(index) else { return .invalid }
        let text = call.string(index)
        if text.allSatisfy(\.isWhitespace) { return .empty }
        return XPathTemporal(text).map { .value($0) } ?? .invalid
    }

    /// `today()`: the host's date in its zone, `YYYY-MM-DD`.
    static func today(_ call: XPathCall) -> XPathCall.Result {
        let host = call.state.host
        return .string(XPathTemporal.fields(instant: host.now.timeIntervalSince1970, in: host.timeZone).day.text)
    }

    /// `now()`: the host's time in its zone with its offset, `2024-05-15T10:30:00.000+03:00`.
    static func now(_ call: XPathCall) -> XPathCall.Result {
        let host = call.state.host
        return .string(XPathTemporal.fields(instant: host.now.timeIntervalSince1970, in: host.timeZone).dateTimeText)
    }

    /// `date(v)`: `YYYY-MM-DD` of a date, of a dateTime (in the host's zone when written with
    /// another offset), or of a number of days (the UTC date of its whole days, so that
    /// `date(decimal-date-time(d))` is `d`); "" for "", NaN and what is not a date.
    static func date(_ call: XPathCall) -> XPathCall.Result {
        let zone = call.state.host.timeZone
        switch temporal(call, 0) {
        case .days(let days):
            return .string(XPathTemporal.Day(daysSinceEpoch: Int(days.rounded(.down))).text)
        case .value(let value):
            return .string(value.fields(in: zone)?.day.text ?? "")
        case .empty, .invalid:
            return .string("")
        }
    }

    /// `date-time(v)`: `YYYY-MM-DDTHH:MM:SS.sss±HH:MM` of a dateTime (keeping its offset; the
    /// host's when it has none), of a date (its midnight UTC, `…T00:00:00.000Z`, the instant a
    /// date stands for here) or of a number of days (in the host's zone); "" otherwise.
    static func dateTime(_ call: XPathCall) -> XPathCall.Result {
        let zone = call.state.host.timeZone
        switch temporal(call, 0) {
        case .days(let days):
            return .string(XPathTemporal.fields(days: days, in: zone).dateTimeText)
        case .value(.date(let day)):
            return .string(XPathTemporal.Fields(day: day, milliseconds: 0, offset: 0).dateTimeText)
        case .value(.dateTime(let day, let seconds, .some(let offset))):
            let local = Double(day.daysSinceEpoch) * 86_400 + seconds
            return .string(XPathTemporal.fields(localSeconds: local, offset: offset).dateTimeText)
        case .value(let value):
            return .string(value.fields(in: zone)?.dateTimeText ?? "")
        case .empty, .invalid:
            return .string("")
        }
    }

    /// `decimal-date-time(v)`: days since 1970-01-01 UTC of a date (its midnight UTC) or
    /// dateTime; a number stays; "" stays "" (so a calculate from an empty date stays empty,
    /// as in JavaRosa); anything else (a time too) is NaN.
    static func decimalDateTime(_ call: XPathCall) -> XPathCall.Result {
        switch temporal(call, 0) {
        case .empty: .string("")
        case .days(let days): .number(days)
        case .value(let value): .number(value.days(in: call.state.host.timeZone) ?? .nan)
        case .invalid: .number(.nan)
        }
    }

    /// `decimal-time(v)`: the fraction of the day a time or dateTime shows in the host's zone
    /// (noon is 0.5; written with another offset, moved to the host's first); a date is 0; a
    /// number keeps its fraction (as JavaRosa); "" stays ""; anything else is NaN.
    static func decimalTime(_ call: XPathCall) -> XPathCall.Result {
        let host = call.state.host
        switch temporal(call, 0) {
        case .empty: return .string("")
        case .days(let days): return .number(days - days.rounded(.down))
        case .value(let value): return .number(value.fractionOfDay(in: host.timeZone, now: host.now))
        case .invalid: return .number(.nan)
        }
    }

    /// `format-date(v, f)` and `format-date-time(v, f)`: `f` with `%Y %y %m %n %b %d %e %a %H %h
    /// %M %S %3` (and `%%`) replaced by the fields of `v` in English; another `%x` stays as
    /// written (JavaRosa stops with an error). A date or dateTime shows as `date`/`date-time`
    /// read it; a number of days shows its UTC date for `format-date` (a date's number gives
    /// that date back) and its time in the host's zone for `format-date-time`. "" for what is
    /// not a date.
    static func formatDate(_ call: XPathCall, withTime: Bool) -> XPathCall.Result {
        let zone = call.state.host.timeZone
        let fields: XPathTemporal.Fields?
        switch temporal(call, 0) {
        case .days(let days):
            fields = XPathTemporal.fields(days: days, in: withTime ? zone : TimeZone(secondsFromGMT: 0)!)
        case .value(let value):
            fields = value.fields(in: zone)
        case .empty, .invalid:
            fields = nil
        }
        guard let fields else { return .string("") }
        return .string(format(fields, call.string(1)))
    }

    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    static func format(_ fields: XPathTemporal.Fields, _ format: String) -> String {
        let pad = XPathTemporal.pad
        var result = ""
        var escaped = false
        for character in format {
            guard escaped else {
                if character == "%" { escaped = true } else { result.append(character) }
                continue
            }
            escaped = false
            switch character {
            case "Y": result += pad(fields.day.year, 4)
            case "y": result += String(pad(fields.day.year, 4).suffix(2))
            case "m": result += pad(fields.day.month, 2)
            case "n": result += String(fields.day.month)
            case "b": result += monthNames[fields.day.month - 1]
            case "d": result += pad(fields.day.day, 2)
            case "e": result += String(fields.day.day)
            case "a": result += weekdayNames[fields.day.weekday]
            case "H": result += pad(fields.hour, 2)
            case "h": result += String(fields.hour)
            case "M": result += pad(fields.minute, 2)
            case "S": result += pad(fields.second, 2)
            case "3": result += pad(fields.millisecond, 3)
            case "%": result += "%"
            default: result += "%" + String(character)
            }
        }
        if escaped { result += "%" }
        return result
    }
}
