import FormModel
import Foundation

/// Entity JSON in the service's version: a form's values written as a request body, and an
/// answer read back into field values, key and ETag (OData V2 JSON Format, [MS-ODATA] §2.2.6.3;
/// OData JSON Format v4.01 §7, §15).
package struct ODataJSON: Sendable, Hashable {
    /// How a V2 `Edm.DateTime` is written.
    package enum V2DateTime: Sendable, Hashable {
        /// `2026-12-01T00:00:00`: pyslet reads `/Date(ms)/` as 1970 on Python 3; SAP Gateway
        /// reads both.
        case iso
        /// `/Date(1764547200000)/`, the format V2 answers use.
        case milliseconds
    }

    package var version: ODataVersion
    package var v2DateTime: V2DateTime
    /// The zone a form's local date and time is in when its property is `Edm.DateTimeOffset`,
    /// and the zone offsets read from answers are turned into.
    package var timeZone: TimeZone
    /// V4 `IEEE754Compatible=true`: `Edm.Decimal` and `Edm.Int64` as strings, for services that
    /// read JSON numbers as doubles.
    package var ieee754Compatible: Bool

    package init(
        version: ODataVersion, v2DateTime: V2DateTime = .iso, timeZone: TimeZone = .utc,
        ieee754Compatible: Bool = false
    ) {
        self.version = version
        self.v2DateTime = v2DateTime
        self.timeZone = timeZone
        self.ieee754Compatible = ieee754Compatible
    }

    // MARK: Writing

    /// One typed value as the version's JSON.
    package func json(_ value: EdmValue, type: EdmType) -> JSONValue {
        switch (value, version) {
        case (.string(let text), _), (.guid(let text), _): return .string(text)
        case (.boolean(let flag), _): return .bool(flag)
        case (.integer(let whole), .v2): return type == .int64 ? .string(String(whole)) : .number(String(whole))
        case (.integer(let whole), .v4):
            return type == .int64 && ieee754Compatible ? .string(String(whole)) : .number(String(whole))
        case (.decimal(let number), .v2):
            let plain = DecimalText.plain(number)
            return type == .decimal || type == .int64 ? .string(plain) : .number(plain)
        case (.decimal(let number), .v4):
            let plain = DecimalText.plain(number)
            return ieee754Compatible && (type == .decimal || type == .int64) ? .string(plain) : .number(plain)
        case (.date(let date), .v2):
            return json(.dateTime(LocalDateTime(date: date, time: LocalTime(hour: 0, minute: 0)!)), type: .dateTime)
        case (.date(let date), .v4): return .string(date.description)
        case (.dateTime(let value), .v2):
            switch v2DateTime {
            case .iso: return .string(CivilTime.isoText(value))
            case .milliseconds: return .string("/Date(\(CivilTime.seconds(value) * 1000))/")
            }
        case (.dateTime(let value), .v4): return .string(CivilTime.isoText(value) + "Z")
        case (.dateTimeOffset(let value, let offset), .v2):
            switch v2DateTime {
            case .iso: return .string(CivilTime.isoText(value) + CivilTime.offsetText(offset))
            case .milliseconds:
                let instant = (CivilTime.seconds(value) - Int64(offset)) * 1000
                let minutes = abs(offset) / 60
                let zone = (offset < 0 ? "-" : "+") + String(repeating: "0", count: 4 - String(minutes).count)
                return .string("/Date(\(instant)\(zone)\(minutes))/")
            }
        case (.dateTimeOffset(let value, let offset), .v4):
            return .string(CivilTime.isoText(value) + CivilTime.offsetText(offset))
        case (.timeOfDay(let time), .v2): return .string(ODataLiteral.v2Time(time))
        case (.timeOfDay(let time), .v4): return .string(CivilTime.timeText(time))
        case (.duration(let duration), _): return .string(duration.description)
        case (.binary(let bytes), .v2): return .string(Data(bytes).base64EncodedString())
        case (.binary(let bytes), .v4):
            return .string(Base64URL.encode(bytes, padded: true))
        }
    }

    /// A form's value for a property as the version's JSON.
    package func json(_ value: FieldValue, for property: ServiceProperty) throws(ODataValueError) -> JSONValue {
        guard let type = EdmType(name: property.type) else {
            throw ODataValueError(property: property.name, type: property.type, message: "the type is not written")
        }
        return json(try EdmValue(value, type: type, property: property.name, timeZone: timeZone), type: type)
    }

    /// The body of a create or change: the given fields only, each under its property's name;
    /// a computed property (filled in by the service) is never sent, and fields the binding does
    /// not know are left out.
    package func body(_ values: [String: FieldValue], binding: ServiceBinding) throws(ODataValueError) -> [UInt8] {
        var members: [String: JSONValue] = [:]
        for (field, value) in values {
            guard let property = binding.fields[field], !property.computed else { continue }
            members[property.name] = try json(value, for: property)
        }
        return Array(JSONValue.object(members).text.utf8)
    }

    // MARK: Reading

    /// A JSON value of an answer typed as `type`; nil for null and for what is not a value of it.
    package func edmValue(_ json: JSONValue, type: EdmType) -> EdmValue? {
        switch json {
        case .null, .array, .object: return nil
        case .bool(let flag): return type == .boolean ? .boolean(flag) : nil
        case .number(let digits):
            switch type {
            case .byte, .sbyte, .int16, .int32, .int64:
                guard let whole = Int64(digits), type.integerRange?.contains(whole) == true else { return nil }
                return .integer(whole)
            case .decimal, .double, .single:
                return Decimal(string: digits, locale: Locale(identifier: "en_US_POSIX")).map(EdmValue.decimal)
            case .string: return .string(digits)
            default: return nil
            }
        case .string(let text):
            switch type {
            case .dateTime:
                if let (value, offset) = ODataJSON.dateMilliseconds(text) {
                    return CivilTime.dateTime(seconds: value + Int64(offset)).map(EdmValue.dateTime)
                }
                if let (value, _) = EdmValue.offsetDateTime(text) { return .dateTime(value) }
            case .dateTimeOffset:
                if let (instant, offset) = ODataJSON.dateMilliseconds(text) {
                    return CivilTime.dateTime(seconds: instant + Int64(offset)).map {
                        .dateTimeOffset($0, offset: offset)
                    }
                }
            case .double, .single, .decimal:
                // V4 writes INF and NaN as strings; a form holds neither.
                if let number = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
                    text.first.map({ $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." }) == true
                {
                    return .decimal(number)
                }
                return nil
            case .binary:
                return Base64URL.decode(text).map { .binary($0) }
            default: break
            }
            return try? EdmValue(text: text, type: type, property: "", timeZone: timeZone)
        }
    }

    /// `/Date(1764000000000)/` or `/Date(1764000000000+0060)/`: seconds since 1970 (UTC) and the
    /// offset in seconds (written as minutes).
    package static func dateMilliseconds(_ text: String) -> (Int64, Int)? {
        guard text.hasPrefix("/Date("), text.hasSuffix(")/") else { return nil }
        var body = Substring(text.dropFirst(6).dropLast(2))
        var offset = 0
        if let sign = body.dropFirst().lastIndex(where: { $0 == "+" || $0 == "-" }) {
            guard let minutes = Int(body[body.index(after: sign)...]) else { return nil }
            offset = minutes * 60 * (body[sign] == "-" ? -1 : 1)
            body = body[..<sign]
        }
        guard let milliseconds = Int64(body) else { return nil }
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        return (seconds, offset)
    }

    /// The entity object of a single-entity answer: V2's `{"d":{…}}` (or `{"d":{"results":{…}}}`),
    /// V4's top-level object.
    package func entityObject(_ answer: JSONValue) throws(ServiceFailure) -> [String: JSONValue] {
        guard let top = answer.object else { throw .badAnswer("the answer is not a JSON object") }
        switch version {
        case .v2:
            guard let d = top["d"]?.object else { throw .badAnswer("the answer has no \"d\" object") }
            if let results = d["results"]?.object { return results }
            return d
        case .v4:
            return top
        }
    }

    /// The rows of a collection answer and its total count when asked for: V2
    /// `{"d":{"results":[…],"__count":"12"}}` (or V1's `{"d":[…]}`), V4 `{"value":[…],"@odata.count":12}`.
    package func collection(_ answer: JSONValue) throws(ServiceFailure) -> (rows: [[String: JSONValue]], count: Int?) {
        let list: [JSONValue]
        let count: JSONValue?
        switch version {
        case .v2:
            guard let d = answer["d"] else { throw .badAnswer("the answer has no \"d\" member") }
            if let results = d["results"]?.array {
                list = results
                count = d["__count"]
            } else if let plain = d.array {
                list = plain
                count = nil
            } else {
                throw .badAnswer("the answer has no \"results\" array")
            }
        case .v4:
            guard let value = answer["value"]?.array else { throw .badAnswer("the answer has no \"value\" array") }
            list = value
            count = answer["@odata.count"]
        }
        var rows: [[String: JSONValue]] = []
        for element in list {
            guard let row = element.object else { throw .badAnswer("a row of the answer is not an object") }
            rows.append(row)
        }
        let total: Int? =
            switch count {
            case .number(let digits)?, .string(let digits)?: Int(digits)
            default: nil
            }
        return (rows, total)
    }

    /// An entity object read by the binding: the bound fields' values (with the form's field
    /// kinds, when given, so that a date stays a date and a choice a choice), the key, the
    /// ETag (`headerETag` when the body has none), the uri and the type.
    package func entity(
        _ object: [String: JSONValue], binding: ServiceBinding, kinds: [String: FieldKind] = [:],
        headerETag: String? = nil
    ) throws(ServiceFailure) -> ODataEntity {
        var values: [String: FieldValue] = [:]
        for (field, property) in binding.fields {
            guard let json = object[property.name], let type = EdmType(name: property.type),
                let typed = edmValue(json, type: type)
            else { continue }
            values[field] = typed.fieldValue(kind: kinds[field], timeZone: timeZone)
        }
        var key: [String: FieldValue] = [:]
        for property in binding.keys {
            guard let json = object[property.name], let type = EdmType(name: property.type),
                let typed = edmValue(json, type: type)
            else { throw .badAnswer("the entity has no value for its key \(property.name)") }
            key[property.name] = typed.fieldValue(kind: nil, timeZone: timeZone)
        }
        let etag: String?
        let uri: String?
        let type: String?
        switch version {
        case .v2:
            let metadata = object["__metadata"]
            etag = metadata?["etag"]?.string
            uri = metadata?["uri"]?.string
            type = metadata?["type"]?.string
        case .v4:
            etag = object["@odata.etag"]?.string
            uri = object["@odata.id"]?.string ?? object["@odata.editLink"]?.string
            type = object["@odata.type"]?.string
        }
        let items = binding.compositions == nil ? [:] : try inlineItems(object, binding: binding, kinds: kinds)
        return ODataEntity(values: values, key: key, etag: etag ?? headerETag, uri: uri, type: type, items: items)
    }

    /// An answer's bytes as JSON, or a bad answer.
    /// - Parameter entity: the answer is one entity (``entityObject(_:)``, ``entity(_:binding:kinds:headerETag:)``):
    ///   its objects and arrays but V2's wrappers and metadata are not built (navigation
    ///   properties and their links, complex values: none is read).
    /// - Parameter binding: with `entity`, the binding whose compositions' items are read too.
    package static func parse(
        _ bytes: [UInt8], entity: Bool = false, binding: ServiceBinding? = nil
    ) throws(ServiceFailure) -> JSONValue {
        let kept: Set<String>? =
            !entity ? nil : binding?.compositions == nil ? entityContainers : containers(of: binding!)
        do {
            return try JSONReader.parse(bytes, keepingContainersNamed: kept)
        } catch {
            throw .badAnswer(error.description)
        }
    }

    /// What is read of an entity answer's objects: V2's `d` and `results`, and `__metadata`.
    static let entityContainers: Set<String> = ["d", "results", "__metadata"]
}
