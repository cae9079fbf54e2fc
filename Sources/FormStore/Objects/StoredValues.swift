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
        case text, number, bool, date, time, datetime, duration, choice, choices, files
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
            out += ":{"
            switch value {
            case .text(let text): Self.member("text", text, into: &out)
            case .number(let number): Self.member("number", DecimalText.plain(number), into: &out)
            case .bool(let bool): out += bool ? #""bool":true"# : #""bool":false"#
            case .date(let date): Self.member("date", date.description, into: &out)
            case .time(let time): Self.member("time", time.description, into: &out)
            case .datetime(let datetime): Self.member("datetime", datetime.description, into: &out)
            case .duration(let duration): Self.member("duration", duration.description, into: &out)
            case .choice(let choice): Self.member("choice", choice, into: &out)
            case .choices(let choices):
                out += #""choices":["#
                for (index, choice) in choices.enumerated() {
                    if index > 0 { out += "," }
                    JSONText.quote(choice, into: &out)
                }
                out += "]"
            case .files(let files):
                out += #""files":["#
                for (index, file) in files.enumerated() {
                    if index > 0 { out += "," }
                    out += "{"
                    Self.member("id", file.id, into: &out)
                    out += ","
                    Self.member("name", file.name, into: &out)
                    out += #","size":\#(file.size)"#
                    if let type = file.contentType {
                        out += ","
                        Self.member("contentType", type, into: &out)
                    }
                    out += "}"
                }
                out += "]"
            }
            out += "}"
        }
        return out + "}"
    }

    private static func member(_ name: String, _ text: String, into out: inout String) {
        out += "\""
        out += name
        out += "\":"
        JSONText.quote(text, into: &out)
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
            }
        }
    }
}
