import Foundation

/// Plain JSON: text, choices, dates, times, datetimes and durations as their ISO strings, numbers
/// as JSON numbers, switches as booleans, several choices as an array of strings, files as an
/// array of `{"id", "name", "size", "contentType"}`.
///
/// JSON does not say which kind a string is, so decoding gives `.text` for every string (and
/// `.number` for a JSON number); `conformed(to:)` turns a decoded value into the field's kind.
extension FieldValue: Codable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let s), .choice(let s): try container.encode(s)
        case .number(let n): try container.encode(n)
        case .bool(let b): try container.encode(b)
        case .date(let d): try container.encode(d.description)
        case .time(let t): try container.encode(t.description)
        case .datetime(let dt): try container.encode(dt.description)
        case .duration(let d): try container.encode(d.description)
        case .choices(let values): try container.encode(values)
        case .files(let files): try container.encode(files)
        }
    }

    /// Appends the value as ``encode(to:)`` writes it (a file's members in key order, as a
    /// sorted-keys encoder writes them), by hand: the API answers and the stored values write it
    /// on every create, where `JSONEncoder` cost more than the rest of the answer.
    public func writeJSON(into out: inout String, slashes: Bool = true) {
        switch self {
        case .text(let text), .choice(let text): JSONText.quote(text, into: &out, slashes: slashes)
        case .number(let number): out += DecimalText.plain(number)
        case .bool(let flag): out += flag ? "true" : "false"
        case .date(let date): JSONText.quote(date.description, into: &out, slashes: slashes)
        case .time(let time): JSONText.quote(time.description, into: &out, slashes: slashes)
        case .datetime(let datetime): JSONText.quote(datetime.description, into: &out, slashes: slashes)
        case .duration(let duration): JSONText.quote(duration.description, into: &out, slashes: slashes)
        case .choices(let choices):
            out += "["
            for (index, choice) in choices.enumerated() {
                if index > 0 { out += "," }
                JSONText.quote(choice, into: &out, slashes: slashes)
            }
            out += "]"
        case .files(let files):
            out += "["
            for (index, file) in files.enumerated() {
                if index > 0 { out += "," }
                out += "{"
                if let type = file.contentType {
                    out += #""contentType":"#
                    JSONText.quote(type, into: &out, slashes: slashes)
                    out += ","
                }
                out += #""id":"#
                JSONText.quote(file.id, into: &out, slashes: slashes)
                out += #","name":"#
                JSONText.quote(file.name, into: &out, slashes: slashes)
                out += #","size":\#(file.size)}"#
            }
            out += "]"
        }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? container.decode(Decimal.self) {
            self = .number(n)
        } else if let s = try? container.decode(String.self) {
            self = .text(s)
        } else if let values = try? container.decode([String].self) {
            self = .choices(values)
        } else if let files = try? container.decode([SubmittedFile].self) {
            self = .files(files)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "Expected a string, number, boolean, array of strings or array of files")
        }
    }

    /// The value as the field's kind expects it, e.g. `.text("2026-11-21")` decoded from JSON as
    /// `.date` for a date field, or `.text("12.50")` as `.number`; nil when it cannot be one.
    public func conformed(to field: Field) -> FieldValue? {
        switch (field.kind, self) {
        case (.text, .text), (.note, .text): return self
        case (.number, .number), (.slider, .number): return self
        case (.number, .text(let s)), (.slider, .text(let s)): return DecimalText.parse(s).map(FieldValue.number)
        case (.date, .date), (.time, .time), (.datetime, .datetime), (.duration, .duration): return self
        case (.date, .text(let s)): return LocalDate(s).map(FieldValue.date)
        case (.time, .text(let s)): return LocalTime(s).map(FieldValue.time)
        case (.datetime, .text(let s)): return LocalDateTime(s).map(FieldValue.datetime)
        case (.duration, .text(let s)): return ISODuration(s).map(FieldValue.duration)
        case (.switch, .bool): return self
        case (.attachments, .files): return self
        case (.valueList, _), (.buttons, _), (.chips, _):
            let values: [String]
            switch self {
            case .text(let s), .choice(let s): values = [s]
            case .choices(let v): values = v
            default: return nil
            }
            if field.takesSeveralValues { return .choices(values) }
            return values.count == 1 ? .choice(values[0]) : nil
        default: return nil
        }
    }

    /// Stored values decoded from JSON, each conformed to its field; unknown names and values
    /// that fit no field are dropped.
    public static func conformed(_ values: [String: FieldValue], to schema: FormSchema) -> [String: FieldValue] {
        var out: [String: FieldValue] = [:]
        for field in schema.allFields {
            if let value = values[field.name]?.conformed(to: field) { out[field.name] = value }
        }
        return out
    }
}
