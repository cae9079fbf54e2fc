/// Stored values back to the strings a form's inputs hold, so the edit view shows them.
public enum InputStrings {
    /// Input name → strings for every value; attachments are listed separately (``files(of:)``).
    /// An item's values are under `LIST[INDEX].NAME`, its id under `LIST[INDEX]._id`, as the
    /// page's inputs name them (``Submission/gatheringItems(of:)`` reads them back).
    public static func of(_ values: [String: FieldValue], prefix: String = "") -> [String: [String]] {
        var strings: [String: [String]] = [:]
        for (name, value) in values {
            let name = prefix + name
            switch value {
            case .text(let text): strings[name] = [text]
            case .number(let number): strings[name] = [DecimalText.plain(number)]
            // A switch sends `on` when on and nothing when off.
            case .bool(let on): if on { strings[name] = ["on"] }
            case .date(let date): strings[name] = [date.description]
            case .time(let time): strings[name] = [time.description]
            case .datetime(let datetime): strings[name] = [datetime.description]
            case .duration(let duration): strings[name] = [duration.description]
            case .choice(let choice): strings[name] = [choice]
            case .choices(let choices): strings[name] = choices
            case .files: break
            case .items(let items):
                for (index, item) in items.enumerated() {
                    let path = "\(name)[\(index)]"
                    if let id = item.id { strings["\(path).\(FormValidator.itemIDName)"] = [id] }
                    strings.merge(of(item.values, prefix: path + ".")) { _, inner in inner }
                }
            }
        }
        return strings
    }

    /// The stored files per attachments field.
    /// An item's files are under `LIST[INDEX].NAME`, as its other values.
    public static func files(of values: [String: FieldValue], prefix: String = "") -> [String: [SubmittedFile]] {
        var files: [String: [SubmittedFile]] = [:]
        for (name, value) in values {
            switch value {
            case .files(let list): files[prefix + name] = list
            case .items(let items):
                for (index, item) in items.enumerated() {
                    files.merge(Self.files(of: item.values, prefix: "\(prefix)\(name)[\(index)].")) { _, inner in inner
                    }
                }
            default: break
            }
        }
        return files
    }

    /// The key information as text: the first key field that has a value.
    public static func keyText(_ values: [String: FieldValue], schema: FormSchema) -> String {
        for field in schema.section(.key)?.groups.flatMap(\.fields) ?? [] {
            if let value = values[field.name] {
                let text = value.displayText(for: field, in: schema)
                if !text.isEmpty { return text }
            }
        }
        return "Untitled"
    }
}
