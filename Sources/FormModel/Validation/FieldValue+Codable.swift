import Foundation

/// Plain JSON: text, choices, dates, times, datetimes and durations as their ISO strings, numbers
/// as JSON numbers, switches as booleans, several choices as an array of strings, files as an
/// array of `{"id", "name", "size", "contentType"}`, an item list's items as an array of objects,
/// each its values with its id as `_id`.
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
        case .items(let items): try container.encode(items.map(ItemJSON.init))
        }
    }

    /// Whether an object carries an item's `_id`.
    private struct ItemMark: Decodable {
        var hasID: Bool

        init(from decoder: any Decoder) throws {
            hasID = try decoder.container(keyedBy: ItemJSON.Key.self).contains(
                ItemJSON.Key(stringValue: FormValidator.itemIDName))
        }
    }

    /// An item as plain JSON: its values, and its id as `_id` when it has one.
    private struct ItemJSON: Codable {
        var item: ItemValues

        init(_ item: ItemValues) {
            self.item = item
        }

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            if let id = item.id { try container.encode(id, forKey: Key(stringValue: FormValidator.itemIDName)) }
            for (name, value) in item.values { try container.encode(value, forKey: Key(stringValue: name)) }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            var item = ItemValues(values: [:])
            for key in container.allKeys {
                if key.stringValue == FormValidator.itemIDName {
                    item.id = try container.decode(String.self, forKey: key)
                } else {
                    item.values[key.stringValue] = try container.decode(FieldValue.self, forKey: key)
                }
            }
            self.item = item
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
        case .items(let items):
            // Each item's members in key order, as a sorted-keys encoder writes them.
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                var members = item.values.map { ($0.key, $0.value) }
                if let id = item.id { members.append((FormValidator.itemIDName, .text(id))) }
                out += "{"
                for (position, (name, value)) in members.sorted(by: { $0.0 < $1.0 }).enumerated() {
                    if position > 0 { out += "," }
                    JSONText.quote(name, into: &out, slashes: slashes)
                    out += ":"
                    value.writeJSON(into: &out, slashes: slashes)
                }
                out += "}"
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
        } else if let files = try? container.decode([SubmittedFile].self),
            (try? container.decode([ItemMark].self))?.allSatisfy({ !$0.hasID }) ?? true
        {
            // An object with `id`, `name` and `size` is a file, unless it carries an item's `_id`.
            self = .files(files)
        } else if let items = try? container.decode([ItemJSON].self) {
            self = .items(items.map(\.item))
        } else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "Expected a string, number, boolean, array of strings, of files or of items")
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
        for list in schema.itemLists {
            if let value = values[list.name]?.conformed(to: list) { out[list.name] = value }
        }
        return out
    }

    /// Items decoded from JSON, each item's values conformed to the list's fields (and lists);
    /// nil when the value holds no items.
    public func conformed(to list: ItemList) -> FieldValue? {
        guard case .items(let items) = self else { return nil }
        return .items(
            items.map { item in
                var out: [String: FieldValue] = [:]
                for field in list.fields.flatMap({ [$0] + ($0.children ?? []) }) {
                    if let value = item.values[field.name]?.conformed(to: field) { out[field.name] = value }
                }
                for inner in list.lists {
                    if let value = item.values[inner.name]?.conformed(to: inner) { out[inner.name] = value }
                }
                return ItemValues(id: item.id, values: out)
            })
    }
}
