import FormModel
import Foundation

/// An entity's key as Fieldwork keeps it beside an object: each key property's value as plain
/// text, in a JSON object in the key's order, read back with the key's types. Kept as text so the
/// store needs to know nothing of OData.
package enum ServiceKey {
    /// The key as JSON text (`{"ID":"4711","IsActiveEntity":"true"}`).
    package static func encode(
        _ key: [String: FieldValue], binding: ServiceBinding, timeZone: TimeZone = .utc
    )
        -> String
    {
        var object: [String: String] = [:]
        for property in binding.keys {
            guard let value = key[property.name], let type = EdmType(name: property.type),
                let edm = try? EdmValue(value, type: type, property: property.name, timeZone: timeZone)
            else { continue }
            object[property.name] = edm.plainText
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(object)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The key a ``encode(_:binding:timeZone:)`` wrote, typed again; nil when a key property is
    /// missing or no longer reads as its type.
    package static func decode(
        _ text: String, binding: ServiceBinding, timeZone: TimeZone = .utc
    )
        -> [String: FieldValue]?
    {
        guard let object = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)) else { return nil }
        var key: [String: FieldValue] = [:]
        for property in binding.keys {
            guard let raw = object[property.name], let type = EdmType(name: property.type),
                let edm = try? EdmValue(text: raw, type: type, property: property.name, timeZone: timeZone)
            else { return nil }
            key[property.name] = edm.fieldValue(kind: nil, timeZone: timeZone)
        }
        return key
    }

    /// The key as people read it: the value alone for a single key, `Name=value` pairs otherwise;
    /// draft bookkeeping (`IsActiveEntity`, an all-zero `DraftUUID`) left out.
    package static func display(_ text: String, binding: ServiceBinding) -> String {
        guard let object = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)) else { return "" }
        let shown = binding.keys.filter { property in
            guard let value = object[property.name] else { return false }
            if property.name == "IsActiveEntity" { return false }
            return !(property.type == "Edm.Guid" && value == "00000000-0000-0000-0000-000000000000")
        }
        if shown.count == 1, let only = shown.first { return object[only.name] ?? "" }
        return shown.map { "\($0.name)=\(object[$0.name] ?? "")" }.joined(separator: ", ")
    }
}
