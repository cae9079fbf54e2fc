import FormImport
import FormModel

/// The text of `fieldwork check --summary`: what one import would store, one line per item so
/// that two runs compare with `diff` (the OData corpus run keeps one as a golden file).
///
/// ```
/// import meta.xml
///   + annotations.xml
///   OData V2: 1 form, 2 fields, 1 skipped, 3 warnings
///   assumed meta.xml:5: <Schema> and the elements in it are in no namespace; they are read as ...
///   form gwsample-basic-productset
///     title "New Product"
///     source OData V2
///     required for create: ProductSet (Product): the service requires Category to create one ...
///     field key | - | Name | text | "Name" | required | editable
///     field properties | "General" | Category | value-list | "Category" | optional | editable | list category "Categories": 0 options, uploaded
///   skipped VH_Sex (meta.xml:120): Not insertable: sap:creatable="false".
///   warning UI.LineItem [annotation-not-used]: 2
///   warning - [unknown-alias]: 1
/// ```
///
/// Paths are printed as given; nothing depends on the machine or the time.
enum ImportSummaryText {
    static func render(_ outcome: ImportOutcome) -> String {
        var lines: [String] = []
        for (index, document) in outcome.documents.enumerated() {
            lines.append(index == 0 ? "import \(document)" : "  + \(document)")
        }
        switch outcome.result {
        case .failure(let failure):
            lines.append("  refused: \(Words.count(failure.errors.count, "error"))")
            lines += failure.errors.map { "  \($0.description)" }
        case .success(let result):
            let fieldCount = result.forms.reduce(0) { $0 + $1.allFields.count }
            let warningCount = result.warnings.reduce(0) { $0 + $1.count }
            lines.append(
                "  \(result.kind.displayName): \(Words.count(result.forms.count, "form")), \(Words.count(fieldCount, "field")), "
                    + "\(result.skipped.count) skipped, \(Words.count(warningCount, "warning"))")
            // What was assumed about a sloppy document holds for every form of the import.
            for warning in result.warnings where warning.code == .assumedNamespace {
                lines.append("  assumed \(place(warning)): \(oneLine(warning.message))")
            }
            for form in result.forms {
                lines += formLines(form, kind: result.kind, warnings: result.warnings, rules: result.rules[form.id])
            }
            for skip in result.skipped {
                var place = skip.file ?? "<input>"
                if skip.line > 0 { place += ":\(skip.line)" }
                lines.append("  skipped \(skip.name) (\(place)): \(oneLine(skip.reason))")
            }
            lines += warningLines(result.warnings)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A form: its id, title and source, the fields added because the service requires them
    /// for a create, then each field in document order.
    private static func formLines(
        _ form: FormSchema, kind: SourceKind, warnings: [ImportWarning], rules: XFormRules?
    ) -> [String] {
        var lines = ["  form \(form.id)", "    title \(quoted(form.title))", "    source \(kind.displayName)"]
        for warning in warnings where warning.code == .requiredForCreate && warning.form == form.id {
            lines.append("    required for create: \(oneLine(warning.message))")
        }
        if let rules { lines += ruleLines(rules) }
        for section in form.sections {
            lines += groupLines(section.groups, section: section, form: form, rules: rules, lists: [])
        }
        return lines
    }

    /// The fields of groups in order (an item's at `lists`, the names of the lists it is in),
    /// each item list as a line of its own with its items' fields after it (`members[].age`).
    private static func groupLines(
        _ groups: [FieldGroup], section: FormSection, form: FormSchema, rules: XFormRules?, lists: [String]
    ) -> [String] {
        var lines: [String] = []
        let prefix = lists.map { "\($0)[]." }.joined()
        for group in groups {
            if let list = group.items {
                var counts = "\(list.minCount)..\(list.maxCount)"
                if let start = list.startCount { counts += ", starts with \(start)" }
                let node = rules?.nodes.first {
                    $0.repeat?.list == list.name && rules!.repeatLists(around: $0) == lists
                }
                if let count = node?.repeat?.count {
                    counts += ", count \(count.compiled ?? count.source)"
                } else if !list.addRemove {
                    counts += ", fixed"
                }
                var line =
                    "    items \(prefix)\(list.name) | \(quoted(list.label)) | \(quoted(list.object)) | \(counts)"
                if let binds = node?.bind { line += " | rules " + expressions(binds) }
                lines.append(line)
                lines += groupLines(list.groups, section: section, form: form, rules: rules, lists: lists + [list.name])
                continue
            }
            for field in group.fields {
                var line = fieldLine(field, path: prefix + field.name, section: section, group: group, form: form)
                let node = rules?.nodes.first { $0.field == field.name && rules!.repeatLists(around: $0) == lists }
                if let binds = node?.bind { line += " | rules " + expressions(binds) }
                lines.append(line)
                for child in field.children ?? [] {
                    lines.append(
                        fieldLine(
                            child, path: "\(prefix)\(field.name)/\(child.name)", section: section, group: group,
                            form: form))
                }
            }
        }
        return lines
    }

    /// An XForm's languages, and how many of its nodes carry each kind of bind expression (the
    /// hidden calculated values among them).
    private static func ruleLines(_ rules: XFormRules) -> [String] {
        let languages = rules.translations.languages.map {
            $0 == rules.translations.defaultLanguage ? "\($0) (default)" : $0
        }
        var lines = ["    languages " + (languages.isEmpty ? "-" : languages.joined(separator: ", "))]
        let binds = rules.nodes.filter { $0.leftOut == nil }.compactMap(\.bind)
        let counts = [
            ("relevant", binds.filter { $0.relevant != nil }.count),
            ("required", binds.filter { $0.required != nil }.count),
            ("readonly", binds.filter { $0.readonly != nil }.count),
            ("constraint", binds.filter { $0.constraint != nil }.count),
            ("calculate", binds.filter { $0.calculate != nil }.count),
        ]
        let hidden = rules.nodes.filter {
            $0.leftOut == nil && $0.field == nil && !$0.isGroup && $0.bind?.calculate != nil
        }
        lines.append(
            "    expressions " + counts.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
                + "; \(Words.count(hidden.count, "hidden calculated value"))")
        return lines
    }

    /// The bind expressions a field's node has, by attribute, in a fixed order; `-` for none.
    private static func expressions(_ bind: XFormBind) -> String {
        let present = [
            ("relevant", bind.relevant), ("required", bind.required), ("readonly", bind.readonly),
            ("constraint", bind.constraint), ("calculate", bind.calculate),
        ].filter { $0.1 != nil }.map(\.0)
        return present.isEmpty ? "-" : present.joined(separator: ", ")
    }

    /// `field section | group | name | kind | label | required | editable [| options]`, the options
    /// being a count or a list's id, title (if any) and count; a switch's fields are named `switch/field`.
    private static func fieldLine(
        _ field: Field, path: String, section: FormSection, group: FieldGroup, form: FormSchema
    ) -> String {
        var kind = field.kind.rawValue
        if let textType = field.constraints.textType, textType != .text { kind += "(\(textType.rawValue))" }
        if field.constraints.multiple { kind += ", multiple" }
        if field.presentation.displayOnly { kind += ", display only" }
        // A label or hint with ODK's formatting: its marks read (RichText), the label its words.
        let formatted = [
            field.presentation.labelFormat.map { _ in "label" }, field.presentation.hintFormat.map { _ in "hint" },
        ].compactMap { $0 }
        if !formatted.isEmpty { kind += ", formatted " + formatted.joined(separator: " and ") }
        var columns = [
            section.kind.rawValue, group.label.map(quoted) ?? "-", path, kind, field.label.map(quoted) ?? "-",
            field.required ? "required" : "optional", editability(field.editable),
        ]
        if field.kind.hasOptions {
            if let listID = field.list {
                let list = form.list(id: listID)
                let options = Words.count(list?.options.count ?? 0, "option")
                let title = list?.title.map { " " + quoted($0) } ?? ""
                columns.append(
                    "list \(listID)\(title): \(options)"
                        + (list == nil ? ", missing" : list!.external ? ", uploaded" : ""))
            } else {
                columns.append(Words.count(form.options(for: field).count, "option"))
            }
        }
        return "    field " + columns.joined(separator: " | ")
    }

    private static func editability(_ editable: Editability) -> String {
        switch editable {
        case .yes: "editable"
        case .no: "read-only"
        case .createOnly: "create-only"
        }
    }

    /// Warnings counted by term, or for a warning about one form its form (and code, since one
    /// term can be passed over for several reasons), in alphabetical order, warnings without either last.
    private static func warningLines(_ warnings: [ImportWarning]) -> [String] {
        struct Key: Hashable, Comparable {
            var term: String?
            var code: String
            static func < (a: Key, b: Key) -> Bool {
                switch (a.term, b.term) {
                case (nil, nil): a.code < b.code
                case (nil, _): false
                case (_, nil): true
                case (let x?, let y?): x == y ? a.code < b.code : x < y
                }
            }
        }
        var counts: [Key: Int] = [:]
        for warning in warnings {
            counts[Key(term: warning.term ?? warning.form, code: warning.code.rawValue), default: 0] += warning.count
        }
        return counts.keys.sorted().map { "  warning \($0.term ?? "-") [\($0.code)]: \(counts[$0]!)" }
    }

    private static func place(_ warning: ImportWarning) -> String {
        var place = warning.file ?? "<input>"
        if warning.line > 0 { place += ":\(warning.line)" }
        return place
    }

    private static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
    }

    /// A label in double quotes, with quotes, backslashes and line breaks escaped so it stays one line.
    private static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n", "\r\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out.append(character)
            }
        }
        return out + "\""
    }
}
