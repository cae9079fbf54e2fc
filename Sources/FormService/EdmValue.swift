import FormModel
import Foundation

/// A value typed as its property's Edm type: the one step between a form's `FieldValue` and the
/// text a service reads (a URL literal, a JSON member), so that both writers agree on what a value
/// is and differ only in how they spell it.
package enum EdmValue: Sendable, Hashable {
    case string(String)
    /// Lower case, `8-4-4-4-12` hex digits.
    case guid(String)
    case boolean(Bool)
    /// Byte, SByte, Int16, Int32, Int64.
    case integer(Int64)
    /// Decimal, Double, Single: exact as the form holds them.
    case decimal(Decimal)
    case date(LocalDate)
    /// A wall-clock date and time without a zone (V2 `Edm.DateTime`).
    case dateTime(LocalDateTime)
    /// A wall-clock date and time and its offset from UTC in seconds.
    case dateTimeOffset(LocalDateTime, offset: Int)
    case timeOfDay(LocalTime)
    case duration(ISODuration)
    case binary([UInt8])

    /// Types a form's value as `type`. A local date and time bound to `Edm.DateTimeOffset` is read
    /// in `timeZone`, the zone the connection says people enter times in.
    package init(
        _ value: FieldValue, type: EdmType, property: String, timeZone: TimeZone
    ) throws(ODataValueError) {
        func refuse(_ message: String) -> ODataValueError {
            ODataValueError(property: property, type: type.rawValue, message: message)
        }
        switch value {
        case .text(let text), .choice(let text):
            self = try EdmValue(text: text, type: type, property: property, timeZone: timeZone)
        case .number(let number):
            switch type {
            case .string: self = .string(DecimalText.plain(number))
            case .decimal, .double, .single: self = .decimal(number)
            case .byte, .sbyte, .int16, .int32, .int64:
                var rounded = Decimal()
                var copy = number
                NSDecimalRound(&rounded, &copy, 0, .plain)
                guard rounded == number, let whole = Int64(DecimalText.plain(number)),
                    type.integerRange?.contains(whole) == true
                else { throw refuse("\(DecimalText.plain(number)) is no whole number in the type's range") }
                self = .integer(whole)
            default: throw refuse("a number cannot be written as this type")
            }
        case .bool(let flag):
            switch type {
            case .boolean: self = .boolean(flag)
            case .string: self = .string(flag ? "true" : "false")
            default: throw refuse("a yes/no value cannot be written as this type")
            }
        case .date(let date):
            let midnight = LocalDateTime(date: date, time: LocalTime(hour: 0, minute: 0)!)
            switch type {
            case .date: self = .date(date)
            case .dateTime: self = .dateTime(midnight)
            case .dateTimeOffset: self = .dateTimeOffset(midnight, offset: CivilTime.offset(of: midnight, in: timeZone))
            case .string: self = .string(date.description)
            default: throw refuse("a date cannot be written as this type")
            }
        case .time(let time):
            switch type {
            case .time, .timeOfDay: self = .timeOfDay(time)
            case .string: self = .string(CivilTime.timeText(time))
            default: throw refuse("a time cannot be written as this type")
            }
        case .datetime(let dateTime):
            switch type {
            case .dateTime: self = .dateTime(dateTime)
            case .dateTimeOffset:
                self = .dateTimeOffset(dateTime, offset: CivilTime.offset(of: dateTime, in: timeZone))
            case .string: self = .string(CivilTime.isoText(dateTime))
            default: throw refuse("a date and time cannot be written as this type")
            }
        case .duration(let duration):
            switch type {
            case .duration: self = .duration(duration)
            case .string: self = .string(duration.description)
            default: throw refuse("a duration cannot be written as this type")
            }
        case .choices, .files:
            throw refuse("a list of values cannot be written as one property")
        case .items:
            // Items go to a navigation property of their own (a deep insert), never as a value.
            throw refuse("items cannot be written as one property")
        }
    }

    /// Types a text (a choice's value, a value help's constant, a key from a link) as `type`.
    package init(text: String, type: EdmType, property: String, timeZone: TimeZone) throws(ODataValueError) {
        func refuse() -> ODataValueError {
            ODataValueError(property: property, type: type.rawValue, message: "'\(text)' is not a value of this type")
        }
        switch type {
        case .string: self = .string(text)
        case .guid:
            guard EdmValue.isGUID(text) else { throw refuse() }
            self = .guid(text.lowercased())
        case .boolean:
            switch text {
            case "true": self = .boolean(true)
            case "false": self = .boolean(false)
            default: throw refuse()
            }
        case .byte, .sbyte, .int16, .int32, .int64:
            guard let whole = Int64(text), type.integerRange?.contains(whole) == true else { throw refuse() }
            self = .integer(whole)
        case .decimal, .double, .single:
            guard let number = DecimalText.parse(text) else { throw refuse() }
            self = .decimal(number)
        case .date:
            guard let date = LocalDate(text) else { throw refuse() }
            self = .date(date)
        case .dateTime:
            if let value = LocalDateTime(text) {
                self = .dateTime(value)
            } else if let date = LocalDate(text) {
                self = .dateTime(LocalDateTime(date: date, time: LocalTime(hour: 0, minute: 0)!))
            } else {
                throw refuse()
            }
        case .dateTimeOffset:
            if let (value, offset) = EdmValue.offsetDateTime(text) {
                self = .dateTimeOffset(value, offset: offset)
            } else if let value = LocalDateTime(text) {
                self = .dateTimeOffset(value, offset: CivilTime.offset(of: value, in: timeZone))
            } else {
                throw refuse()
            }
        case .time, .timeOfDay:
            if let time = LocalTime(text) ?? EdmValue.timeOfDay(duration: text) {
                self = .timeOfDay(time)
            } else {
                throw refuse()
            }
        case .duration:
            guard let duration = ISODuration(text) else { throw refuse() }
            self = .duration(duration)
        case .binary:
            guard let data = Data(base64Encoded: text) else { throw refuse() }
            self = .binary(Array(data))
        }
    }

    /// The value as a form holds it. `kind` is the field's kind when known: a V2 `Edm.DateTime`
    /// shown as a date (`sap:display-format="Date"`), a choice whose value is a number.
    package func fieldValue(kind: FieldKind?, timeZone: TimeZone) -> FieldValue {
        switch kind {
        case .valueList, .buttons: return .choice(plainText)
        case .chips: return .choices([plainText])
        case .text, .note:
            if case .string(let text) = self { return .text(text) }
            return .text(plainText)
        default: break
        }
        switch self {
        case .string(let text), .guid(let text): return .text(text)
        case .boolean(let flag): return .bool(flag)
        case .integer(let whole): return .number(Decimal(whole))
        case .decimal(let number): return .number(number)
        case .date(let date): return .date(date)
        case .dateTime(let value): return kind == .date ? .date(value.date) : .datetime(value)
        case .dateTimeOffset(let value, let offset):
            let local = CivilTime.dateTime(instant: CivilTime.seconds(value) - Int64(offset), in: timeZone) ?? value
            return kind == .date ? .date(local.date) : .datetime(local)
        case .timeOfDay(let time): return .time(time)
        case .duration(let duration): return .duration(duration)
        case .binary(let bytes): return .text(Data(bytes).base64EncodedString())
        }
    }

    /// The value as plain text: an option's value, a choice's value.
    package var plainText: String {
        switch self {
        case .string(let text), .guid(let text): text
        case .boolean(let flag): flag ? "true" : "false"
        case .integer(let whole): String(whole)
        case .decimal(let number): DecimalText.plain(number)
        case .date(let date): date.description
        case .dateTime(let value): CivilTime.isoText(value)
        case .dateTimeOffset(let value, let offset): CivilTime.isoText(value) + CivilTime.offsetText(offset)
        case .timeOfDay(let time): CivilTime.timeText(time)
        case .duration(let duration): duration.description
        case .binary(let bytes): Data(bytes).base64EncodedString()
        }
    }

    /// `8-4-4-4-12` hex digits.
    package static func isGUID(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return false }
        for (index, byte) in utf8.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
                else { return false }
            }
        }
        return true
    }

    /// `2026-11-26T14:30:00Z`, `…+01:00`, `…-0500`, with or without seconds and fractions
    /// (dropped: a form holds whole seconds).
    package static func offsetDateTime(_ text: String) -> (LocalDateTime, Int)? {
        var body = Substring(text)
        var offset = 0
        if body.hasSuffix("Z") || body.hasSuffix("z") {
            body = body.dropLast()
        } else if let sign = body.lastIndex(where: { $0 == "+" || $0 == "-" }),
            let tee = body.firstIndex(of: "T"), sign > tee
        {
            let zone = body[body.index(after: sign)...].filter { $0 != ":" }
            guard zone.count == 4, let hours = Int(zone.prefix(2)), let minutes = Int(zone.suffix(2)) else {
                return nil
            }
            offset = (hours * 60 + minutes) * 60 * (body[sign] == "-" ? -1 : 1)
            body = body[..<sign]
        } else {
            return nil
        }
        if let dot = body.firstIndex(of: ".") {
            guard body[body.index(after: dot)...].allSatisfy(\.isNumber) else { return nil }
            body = body[..<dot]
        }
        guard let value = LocalDateTime(String(body)) else { return nil }
        return (value, offset)
    }

    /// A V2 `Edm.Time` written as a duration (`PT14H30M00S`) as a time of day.
    package static func timeOfDay(duration text: String) -> LocalTime? {
        guard let duration = ISODuration(text), duration.years == 0, duration.months == 0, duration.weeks == 0,
            duration.days == 0
        else { return nil }
        var seconds = duration.seconds
        var whole = Decimal()
        NSDecimalRound(&whole, &seconds, 0, .down)
        return LocalTime(hour: duration.hours, minute: duration.minutes, second: Int(DecimalText.plain(whole)) ?? -1)
    }
}
