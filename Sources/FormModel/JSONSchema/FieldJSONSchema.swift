import Foundation

/// Which JSON a form's schema describes: the values an object is answered with, or the body of
/// a create or an edit of the JSON API.
public enum ValueSchemaUse: Sendable, Hashable, CaseIterable {
    /// `values` of the object JSON: what validation stored.
    case answer
    /// The body of a create: `{"field": value}`, left-out fields take their defaults.
    case create
    /// The body of an edit: the fields named change, `null` empties one.
    case edit

    /// The mode whose read-only fields the server fills; nil for an answer.
    var mode: FormMode? {
        switch self {
        case .answer: nil
        case .create: .create
        case .edit: .edit
        }
    }
}

/// The JSON Schema (2020-12) of one field's value, from the same constraints the validator
/// checks. A bound goes in only where JSON Schema says exactly what the server does: a request
/// that keeps to the schema can still be refused (422) for what JSON Schema cannot say (a date's
/// earliest day, a duration's bounds), and an answer always keeps to it.
///
/// Lengths are the one bound that differs between the two: the server counts characters as
/// people see them (grapheme clusters), JSON Schema counts code points, which are never fewer.
/// So a request within `maxLength` is never too long, but a stored text may have more code points
/// than the limit: answers carry `minLength` only.
public enum FieldJSONSchema {
    /// The schema of `field`'s value, or nil when the JSON of this use has no such value
    /// (attachments are uploaded with the browser's form, never in a JSON request).
    public static func schema(for field: Field, in form: FormSchema, use: ValueSchemaUse) -> JSONValue? {
        guard var schema = value(of: field, in: form, use: use) else { return nil }
        schema["title"] = .string(field.displayName)
        let notes = ([field.hint] + boundsInWords(field)).compactMap { $0 }
        if !notes.isEmpty { schema["description"] = .string(notes.joined(separator: " ")) }
        schema["x-fieldwork-kind"] = .string(field.kind.rawValue)
        let readOnly = use.mode.map { $0.isReadOnly(field) } ?? (field.editable == .no)
        // Files come with the browser's form only: never part of a JSON request.
        if readOnly || field.kind == .attachments { schema["readOnly"] = true }
        if use == .create, let value = defaultValue(of: field) { schema["default"] = value }
        if use != .answer && !field.required { schema = nullable(schema) }
        return schema
    }

    /// The schema by kind, without the presentation members.
    static func value(of field: Field, in form: FormSchema, use: ValueSchemaUse) -> JSONValue? {
        switch field.kind {
        case .text, .note: return text(field, use: use)
        case .number, .slider: return number(field)
        case .date: return ["type": "string", "format": "date"]
        case .time: return ["type": "string", "pattern": .string(Patterns.time)]
        case .datetime: return ["type": "string", "pattern": .string(Patterns.datetime)]
        case .duration: return ["type": "string", "pattern": .string(Patterns.duration)]
        case .switch:
            // A required switch must be on.
            return use != .answer && field.required ? ["type": "boolean", "const": true] : ["type": "boolean"]
        case .valueList, .buttons, .chips: return choice(field, in: form, use: use)
        case .attachments: return use == .answer ? files(field) : nil
        }
    }

    /// Patterns of the values JSON Schema has no format for, as the server writes them: times
    /// without a zone and with seconds only when there are some, ISO 8601 durations.
    public enum Patterns {
        public static let time = "^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$"
        public static let datetime =
            "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$"
        public static let duration =
            "^P(?!$)([0-9]+Y)?([0-9]+M)?([0-9]+W)?([0-9]+D)?(T(?=[0-9])([0-9]+H)?([0-9]+M)?([0-9]+(\\.[0-9]+)?S)?)?$"
        /// What ``TextRule`` takes as a telephone number: at least 5 digits among spaces, `+`, `-`, brackets.
        public static let telephone = "^(?=(?:[^0-9]*[0-9]){5})[0-9 +()-]+$"
    }

    /// Text and notes, and single choices of a list that has no options yet (checked as text).
    static func text(_ field: Field, use: ValueSchemaUse) -> JSONValue {
        var schema: JSONValue = ["type": "string"]
        let c = field.constraints
        // A required text sent empty is refused.
        let least = use != .answer && field.required ? max(c.minLength ?? 0, 1) : c.minLength
        if let least { schema["minLength"] = .int(least) }
        if use != .answer, let max = c.maxLength { schema["maxLength"] = .int(max) }
        if let format = c.format {
            // Sent grouped or not; stored as the bare run of characters.
            if let pattern = groupedPattern(format, separated: use != .answer) { schema["pattern"] = .string(pattern) }
        } else {
            switch c.textType {
            case .email?: schema["format"] = "email"
            case .url?: schema["format"] = "uri"
            case .tel?: schema["pattern"] = .string(Patterns.telephone)
            case .text?, nil: break
            }
        }
        // The spec's pattern applies to the stored text, after grouping is taken out and
        // letters are upper-cased: a request's text may differ from it before then.
        if let pattern = c.pattern, use == .answer || (c.format == nil && !c.upperCase) {
            schema["pattern"] = .string("^(?:\(pattern))$")
        }
        return schema
    }

    /// The pattern of a grouped format's text, when it is digits and literals only (a letter or
    /// any-character placeholder matches a character as people see it, which may be several
    /// code points): as stored, the bare run; `separated`, as sent, with any separators between.
    static func groupedPattern(_ format: String, separated: Bool) -> String? {
        let template = GroupedFormat(format).template
        guard !template.isEmpty, !template.contains(where: { $0 == "A" || $0 == "*" || $0.isLetter }) else {
            return nil
        }
        let tokens = template.map { $0 == "#" ? "[0-9]" : NSRegularExpression.escapedPattern(for: String($0)) }
        if separated {
            let separators = "[\\s\\-\u{2010}\u{2013}.()\\[\\]{}/\\\\]*"
            return "^" + separators + tokens.joined(separator: separators) + separators + "$"
        }
        var pattern = "^"
        var index = tokens.startIndex
        while index < tokens.endIndex {
            let run = tokens[index...].prefix { $0 == tokens[index] }.count
            pattern += run > 1 ? "\(tokens[index]){\(run)}" : tokens[index]
            index += run
        }
        return pattern + "$"
    }

    /// Numbers and sliders: whole numbers as `integer`, bounds, and `multipleOf` where the step
    /// counts from a multiple of itself (the server counts steps from `min`).
    static func number(_ field: Field) -> JSONValue {
        let c = field.constraints
        let min = c.min.flatMap(DecimalText.parse)
        let max = c.max.flatMap(DecimalText.parse)
        var whole = c.scale == 0
        var schema: JSONValue = [:]
        if let min { schema["minimum"] = .decimal(min) }
        if let max { schema["maximum"] = .decimal(max) }
        if let step = c.step.flatMap(DecimalText.parse), step > 0 {
            let base = min ?? 0
            if NumberRule.isWhole(base / step) {
                schema["multipleOf"] = .decimal(step)
                if NumberRule.isWhole(step) { whole = true }
            }
        } else if let scale = c.scale, scale > 0 {
            schema["multipleOf"] = .decimal(Decimal(sign: .plus, exponent: -scale, significand: 1))
        }
        schema["type"] = whole ? "integer" : "number"
        return schema
    }

    /// Value lists, buttons and chips: the options as an `enum` where the form holds them (not a
    /// list an admin uploads or a service serves, which is open until then). An answer names
    /// them only for options written in the field itself: a list's options can be replaced
    /// while objects keep the values they were given.
    static func choice(_ field: Field, in form: FormSchema, use: ValueSchemaUse) -> JSONValue {
        let options = form.options(for: field)
        let list = field.list.flatMap(form.list(id:))
        var item: JSONValue = ["type": "string"]
        if !options.isEmpty, list?.external != true, list?.remote != true, use != .answer || list == nil {
            item["enum"] = .strings(options.map(\.value))
        }
        guard field.takesSeveralValues else {
            // A list with no options yet takes any text within the field's limits.
            return options.isEmpty ? text(field, use: use) : item
        }
        var schema: JSONValue = ["type": "array", "items": item, "uniqueItems": true]
        if let min = field.constraints.minSelected { schema["minItems"] = .int(min) }
        if let max = field.constraints.maxSelected { schema["maxItems"] = .int(max) }
        return schema
    }

    /// Attachments, in answers only: an array of ``file(maxSize:)``.
    static func files(_ field: Field) -> JSONValue {
        let c = field.constraints
        var schema: JSONValue = ["type": "array", "items": file(maxSize: c.maxSize)]
        if let min = c.minCount { schema["minItems"] = .int(min) }
        if let max = c.maxCount { schema["maxItems"] = .int(max) }
        return schema
    }

    /// One stored file, as the object JSON writes it: `{"id", "name", "size", "contentType"}`.
    public static func file(maxSize: Int?) -> JSONValue {
        var size: JSONValue = ["type": "integer", "minimum": 0]
        if let maxSize { size["maximum"] = .int(maxSize) }
        return [
            "type": "object",
            "required": ["id", "name", "size"],
            "properties": [
                "id": ["type": "string"],
                "name": ["type": "string"],
                "size": size,
                "contentType": ["type": "string", "description": "The type sniffed from the content."],
            ],
        ]
    }

    /// The bounds JSON Schema has no words for, for people: a date's or a duration's range, the
    /// grouping of a formatted text, the types of files.
    static func boundsInWords(_ field: Field) -> [String?] {
        let c = field.constraints
        var words: [String?] = []
        if field.kind.isTemporal || field.kind == .duration {
            switch (c.min, c.max) {
            case (let min?, let max?): words.append("From \(min) to \(max).")
            case (let min?, nil): words.append("At least \(min).")
            case (nil, let max?): words.append("At most \(max).")
            case (nil, nil): break
            }
        }
        if let format = c.format {
            words.append("Written as \(format) (# a digit, A a letter, * any character); stored without separators.")
        }
        if let accept = c.accept, !accept.isEmpty { words.append("Files of type \(accept.joined(separator: ", ")).") }
        return words
    }

    /// The default a create takes for a field left out, typed as the schema says; none for the
    /// clock words (`today`, `now`), which are read at the create.
    static func defaultValue(of field: Field) -> JSONValue? {
        guard field.defaultValue != nil, !field.defaultsToClock, field.kind != .switch else { return nil }
        if field.takesSeveralValues { return .strings(field.defaultValues) }
        guard let text = field.defaultValues.first else { return nil }
        if field.kind.isNumeric { return DecimalText.parse(text).map(JSONValue.decimal) }
        return .string(text)
    }

    /// The schema with `null` taken too: a request's way to send no value.
    static func nullable(_ schema: JSONValue) -> JSONValue {
        var schema = schema
        if case .string(let type)? = schema["type"] { schema["type"] = [.string(type), "null"] }
        if case .array(let values)? = schema["enum"] { schema["enum"] = .array(values + [.null]) }
        return schema
    }
}
