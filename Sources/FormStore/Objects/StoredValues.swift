import FormModel
import Foundation

/// An object's typed values as stored: each value a one-key JSON object naming its type
/// (`{"date":"2026-11-21"}`), so a row decodes without the form version that wrote it.
///
/// The model's `FieldValue` has no `Codable` of its own in this tree; this adapter owns the
/// stored format, so the database does not change if the model later gains one.
struct StoredValues: Codable, Sendable, Hashable {
    var values: [String: FieldValue]

    init(_ values: [String: FieldValue]) {
        self.values = values
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private enum Tag: String, CodingKey {
        case text, number, bool, date, time, datetime, duration, choice, choices, files, items
    }

    /// An item as stored: `{"id": "…", "values": {…}}`, its values tagged as an object's.
    private struct StoredItem: Codable {
        var id: String?
        var values: StoredValues
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        var values: [String: FieldValue] = [:]
        for key in container.allKeys {
            let tagged = try container.nestedContainer(keyedBy: Tag.self, forKey: key)
            guard let tag = tagged.allKeys.first else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "Value without a type")
            }
            func text() throws -> String { try tagged.decode(String.self, forKey: tag) }
            func parsed<T>(_ make: (String) -> T?) throws -> T {
                guard let value = make(try text()) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: tag, in: tagged, debugDescription: "Unreadable \(tag)")
                }
                return value
            }
            switch tag {
            case .text: values[key.stringValue] = .text(try text())
            case .number:
                values[key.stringValue] = .number(
                    try parsed { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) })
            case .bool: values[key.stringValue] = .bool(try tagged.decode(Bool.self, forKey: tag))
            case .date: values[key.stringValue] = .date(try parsed(LocalDate.init))
            case .time: values[key.stringValue] = .time(try parsed(LocalTime.init))
            case .datetime: values[key.stringValue] = .datetime(try parsed(LocalDateTime.init))
            case .duration: values[key.stringValue] = .duration(try parsed(ISODuration.init))
            case .choice: values[key.stringValue] = .choice(try text())
            case .choices: values[key.stringValue] = .choices(try tagged.decode([String].self, forKey: tag))
            case .files: values[key.stringValue] = .files(try tagged.decode([SubmittedFile].self, forKey: tag))
            case .items:
                values[key.stringValue] = .items(
                    try tagged.decode([StoredItem].self, forKey: tag).map {
                        ItemValues(id: $0.id, values: $0.values.values)
                    })
            }
        }
        self.values = values
    }

    /// The JSON ``encode(to:)`` makes (the members in any order), written by hand: it is bound on
    /// every create and every settled service create, where `JSONEncoder` cost more than the
    /// rest of the write. A test decodes it back for every kind of value.
    var jsonText: String {
        var out = "{"
        out.reserveCapacity(values.count * 32)
        for (index, (name, value)) in values.enumerated() {
            if index > 0 { out += "," }
            JSONText.quote(name, into: &out)
            out += ":{\"" + Self.tag(of: value).rawValue + "\":"
            // As the model writes it, but a number as its text (`encode(to:)` does so).
            switch value {
            case .number(let number): JSONText.quote(DecimalText.plain(number), into: &out)
            case .items(let items):
                out += "["
                for (position, item) in items.enumerated() {
                    if position > 0 { out += "," }
                    out += "{"
                    if let id = item.id {
                        out += #""id":"#
                        JSONText.quote(id, into: &out)
                        out += ","
                    }
                    out += #""values":"# + StoredValues(item.values).jsonText + "}"
                }
                out += "]"
            default: value.writeJSON(into: &out)
            }
            out += "}"
        }
        return out + "}"
    }

    private static func tag(of value: FieldValue) -> Tag {
        switch value {
        case .text: .text
        case .number: .number
        case .bool: .bool
        case .date: .date
        case .time: .time
        case .datetime: .datetime
        case .duration: .duration
        case .choice: .choice
        case .choices: .choices
        case .files: .files
        case .items: .items
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            var tagged = container.nestedContainer(keyedBy: Tag.self, forKey: Key(stringValue: name))
            switch value {
            case .text(let text): try tagged.encode(text, forKey: .text)
            case .number(let number): try tagged.encode(DecimalText.plain(number), forKey: .number)
            case .bool(let bool): try tagged.encode(bool, forKey: .bool)
            case .date(let date): try tagged.encode(date.description, forKey: .date)
            case .time(let time): try tagged.encode(time.description, forKey: .time)
            case .datetime(let datetime): try tagged.encode(datetime.description, forKey: .datetime)
            case .duration(let duration): try tagged.encode(duration.description, forKey: .duration)
            case .choice(let choice): try tagged.encode(choice, forKey: .choice)
            case .choices(let choices): try tagged.encode(choices, forKey: .choices)
            case .files(let files): try tagged.encode(files, forKey: .files)
            case .items(let items):
                try tagged.encode(items.map { StoredItem(id: $0.id, values: StoredValues($0.values)) }, forKey: .items)
            }
        }
    }
}
