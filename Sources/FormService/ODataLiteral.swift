import FormModel
import Foundation

/// A value written as a URL literal, for a key predicate or a `$filter`, in the spelling of the
/// service's protocol version: V2 marks most types (`guid'…'`, `1.5M`, `12L`), V4 writes them
/// bare (OData V2 URI Conventions §2.2.2; OData V4.01 ABNF `primitiveLiteral`).
package enum ODataLiteral {
    /// The literal of `value` as `type`, not yet percent-encoded.
    package static func write(_ value: EdmValue, type: EdmType, version: ODataVersion) -> String {
        switch (value, version) {
        case (.string(let text), _): return quoted(text)
        case (.guid(let text), .v2): return "guid'\(text)'"
        case (.guid(let text), .v4): return text
        case (.boolean(let flag), _): return flag ? "true" : "false"
        case (.integer(let whole), .v2): return type == .int64 ? "\(whole)L" : "\(whole)"
        case (.integer(let whole), .v4): return "\(whole)"
        case (.decimal(let number), .v2):
            switch type {
            case .double: return withPoint(number) + "d"
            case .single: return withPoint(number) + "f"
            case .byte, .sbyte, .int16, .int32: return DecimalText.plain(number)
            case .int64: return DecimalText.plain(number) + "L"
            default: return DecimalText.plain(number) + "M"
            }
        case (.decimal(let number), .v4): return DecimalText.plain(number)
        case (.date(let date), .v2): return "datetime'\(date)T00:00:00'"
        case (.date(let date), .v4): return date.description
        case (.dateTime(let value), .v2): return "datetime'\(CivilTime.isoText(value))'"
        // V4 has no zone-less date and time: a V2 value read as UTC.
        case (.dateTime(let value), .v4): return CivilTime.isoText(value) + "Z"
        case (.dateTimeOffset(let value, let offset), .v2):
            return "datetimeoffset'\(CivilTime.isoText(value) + CivilTime.offsetText(offset))'"
        case (.dateTimeOffset(let value, let offset), .v4):
            return CivilTime.isoText(value) + CivilTime.offsetText(offset)
        case (.timeOfDay(let time), .v2): return "time'\(v2Time(time))'"
        case (.timeOfDay(let time), .v4): return CivilTime.timeText(time)
        case (.duration(let duration), .v2): return "time'\(duration)'"
        case (.duration(let duration), .v4): return "duration'\(duration)'"
        case (.binary(let bytes), .v2): return "X'" + Hex.encode(bytes, uppercase: true) + "'"
        case (.binary(let bytes), .v4): return "binary'\(Base64URL.encode(bytes, padded: true))'"
        }
    }

    /// The literal of a form's value for a property, not yet percent-encoded.
    package static func write(
        _ value: FieldValue, for property: ServiceProperty, version: ODataVersion, timeZone: TimeZone = .utc
    ) throws(ODataValueError) -> String {
        guard let type = EdmType(name: property.type) else {
            throw ODataValueError(property: property.name, type: property.type, message: "the type has no literal")
        }
        let typed = try EdmValue(value, type: type, property: property.name, timeZone: timeZone)
        return write(typed, type: type, version: version)
    }

    /// A key predicate as a path segment, percent-encoded: `('x')` for a single key (both
    /// versions allow the name to be left out), `(A='x',B=1)` for a composite one (V2 URI
    /// Conventions §2.2.1; V4.01 URL Conventions §4.3.1).
    /// - Parameters:
    ///   - values: the key's values by property name; every key property must have one.
    package static func keyPredicate(
        _ values: [String: FieldValue], keys: [ServiceProperty], version: ODataVersion, timeZone: TimeZone = .utc
    ) throws(ODataValueError) -> String {
        guard !keys.isEmpty else {
            throw ODataValueError(property: "", type: "", message: "the entity type declares no key")
        }
        var parts: [String] = []
        for key in keys {
            guard let value = values[key.name] else {
                throw ODataValueError(property: key.name, type: key.type, message: "the key has no value")
            }
            let literal = try write(value, for: key, version: version, timeZone: timeZone)
            parts.append(keys.count == 1 ? literal : "\(key.name)=\(literal)")
        }
        return "(" + PercentEncoding.pathSegment(parts.joined(separator: ",")) + ")"
    }

    /// A string literal: single quotes, a quote inside doubled (`'O''Neil'`).
    package static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// `PT14H30M00S`: the spelling SAP Gateway writes and reads for a V2 `Edm.Time`.
    package static func v2Time(_ time: LocalTime) -> String {
        "PT\(CivilTime.two(time.hour))H\(CivilTime.two(time.minute))M\(CivilTime.two(time.second))S"
    }

    /// A V2 double or single needs no point, but pyslet and SAP read `1.0d` everywhere; `1d`
    /// only in some places.
    private static func withPoint(_ number: Decimal) -> String {
        let plain = DecimalText.plain(number)
        return plain.contains(".") ? plain : plain + ".0"
    }
}

extension TimeZone {
    /// UTC, the zone times are read in when the connection names none.
    package static let utc = TimeZone(secondsFromGMT: 0)!
}
