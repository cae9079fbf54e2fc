import FormModel
import FormXML
import Foundation

/// Imports the native XML format (`urn:fieldwork:form:1`, defined by the bundled
/// `Resources/fieldwork-form-1.xsd` and the README's "The native form spec") into a `FormSchema`.
///
/// The steps stop at the first one that fails, but each reports everything it finds: XML that is
/// not well-formed (or breaks `XMLLimits`), then every XSD error, then every value that does not
/// parse together with every rule of `FormSchema.ruleViolations()`.
public enum NativeSpecImporter {
    /// The namespace of the native format.
    public static let namespace = FormSchema.format

    /// Whether this importer takes a document whose root element is this (`FormImporter`): any
    /// `form`, in any namespace or none, since this importer explains a wrong namespace best.
    static func takes(_ root: XMLRootElement) -> Bool {
        root.localName == "form"
    }

    /// How a native spec starts, for the refusal of a root no importer takes.
    static let expectedRoot = "<form xmlns=\"\(namespace)\"> (a native form spec)"

    /// Imports one native spec; throws `ImportFailure` listing every error, each with `file` set.
    /// - Parameters:
    ///   - bytes: The document as read from disk or upload.
    ///   - file: The name the user knows the document by, copied into every error and warning.
    public static func importSpec(
        _ bytes: [UInt8], file: String? = nil
    ) throws(ImportFailure) -> (FormSchema, [ImportWarning]) {
        let document = try SafeXMLDocument.parse(bytes, file: file)
        return try importSpec(document, file: file)
    }

    static func importSpec(
        _ document: SafeXMLDocument, file: String?
    ) throws(ImportFailure) -> (FormSchema, [ImportWarning]) {
        guard let root = document.root else {
            throw ImportFailure([
                ImportError(code: .malformedXML, message: "The document has no root element.", file: file)
            ])
        }
        guard root.localName == "form" else {
            throw ImportFailure([
                ImportError(
                    code: .wrongRoot,
                    message:
                        "The root element is <\(root.localName)>; a form spec starts with <form xmlns=\"\(namespace)\">.",
                    file: file, at: root.location())
            ])
        }
        guard root.namespaceURI == namespace else {
            let found = root.namespaceURI.map { "the namespace \($0)" } ?? "no namespace"
            throw ImportFailure([
                ImportError(
                    code: .wrongNamespace,
                    message: "<form> is in \(found); a form spec must use xmlns=\"\(namespace)\".",
                    file: file, at: root.location(attribute: "xmlns"))
            ])
        }

        let validator: XMLSchemaValidator
        switch XMLSchemaValidator.native {
        case .success(let compiled): validator = compiled
        case .failure(let error):
            throw ImportFailure([ImportError(code: error.code, message: error.message, file: file)])
        }
        let schemaErrors = validator.validate(document)
        if !schemaErrors.isEmpty {
            throw ImportFailure(SchemaMessage.importErrors(schemaErrors, in: document, file: file))
        }

        var reader = NativeSpecReader(file: file)
        let schema = reader.form(root)
        var errors = reader.errors
        for issue in schema.ruleViolations() {
            let location = issue.location ?? reader.location(forFormIssue: issue.code)
            errors.append(
                ImportError(
                    code: ImportCode(issue.code), message: issue.message, file: file, line: location.line,
                    column: location.column))
        }
        if !errors.isEmpty {
            // Document order reads best when one mistake causes several messages.
            throw ImportFailure(
                errors.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(
                    \.element))
        }

        var warnings = document.warnings.map {
            ImportWarning(code: .xmlWarning, message: $0.message, file: file, line: $0.line, column: $0.column)
        }
        warnings += semanticWarnings(schema, file: file)
        return (schema, warnings)
    }

    /// Things that import but are probably mistakes.
    static func semanticWarnings(_ schema: FormSchema, file: String?) -> [ImportWarning] {
        var warnings: [ImportWarning] = []
        // Required and read-only without a default: nobody can fill it, or only the link can.
        for field in schema.allFields where field.required && field.editable == .no && field.defaultValue == nil {
            let message: String
            switch field.prefill {
            case nil:
                message =
                    "\"\(field.name)\" is required but read-only with no default or prefill, so nobody can fill it in; drop editable=\"false\" or give it a default."
            case .query?:
                message =
                    "\"\(field.name)\" is required, read-only and filled only from the link (?\(field.name)=…): opened without it, the form cannot be sent; give it a default, or make sure every link carries it."
            }
            warnings.append(
                ImportWarning(
                    code: .unfillableField, message: message, file: file, line: field.location?.line ?? 0,
                    column: field.location?.column ?? 0))
        }
        let used = Set(schema.allFields.compactMap(\.list))
        for list in schema.lists where !used.contains(list.id) {
            warnings.append(
                ImportWarning(
                    code: .unusedList,
                    message:
                        "The list \"\(list.id)\" is not used by any <value-list>; remove it or name it in list=\"\(list.id)\".",
                    file: file, line: list.location?.line ?? 0))
        }
        return warnings
    }
}

/// Maps a schema-valid `<form>` element to the model, collecting values that do not parse.
struct NativeSpecReader {
    let file: String?
    var errors: [ImportError] = []
    private var formLocation = SourceLocation(line: 0)
    private var keyLocation: SourceLocation?

    init(file: String?) { self.file = file }

    /// Where an issue about the whole form points: the `<key>` element for an empty key, else `<form>`.
    func location(forFormIssue code: SchemaIssue.Code) -> SourceLocation {
        code == .emptyKey ? keyLocation ?? formLocation : formLocation
    }

    mutating func form(_ element: SafeXMLElement) -> FormSchema {
        formLocation = SourceLocation(element.location())
        var schema = FormSchema(
            id: element.attribute("id") ?? "",
            title: element.attribute("title") ?? "",
            object: element.attribute("object"),
            submit: element.attribute("submit") ?? "Create",
            regular: element.attribute("regular").flatMap(RegularPresentation.init(rawValue:)) ?? .formSheet)
        for child in element.children {
            if child.localName == "lists" {
                schema.lists = child.children.map(list)
            } else if let kind = SectionKind(rawValue: child.localName) {
                if kind == .key { keyLocation = SourceLocation(child.location()) }
                schema.sections.append(section(kind, child))
            }
        }
        return schema
    }

    private mutating func section(_ kind: SectionKind, _ element: SafeXMLElement) -> FormSection {
        FormSection(kind: kind, groups: groups(element))
    }

    /// A section's groups, or an item's: labelled groups, item lists, and runs of fields between.
    private mutating func groups(_ element: SafeXMLElement) -> [FieldGroup] {
        var groups: [FieldGroup] = []
        var run: [Field] = []
        for child in element.children {
            switch child.localName {
            case "group", "items":
                // A run of ungrouped fields between labelled groups stays a group of its own.
                if !run.isEmpty { groups.append(FieldGroup(label: nil, fields: run)) }
                run = []
                groups.append(
                    child.localName == "items"
                        ? FieldGroup(items: items(child))
                        : FieldGroup(label: child.attribute("label"), fields: child.children.compactMap { field($0) }))
            default:
                if let field = field(child) { run.append(field) }
            }
        }
        if !run.isEmpty { groups.append(FieldGroup(label: nil, fields: run)) }
        return groups
    }

    /// `<items name label object? min-count? max-count?>`: an item list and its item's groups.
    private mutating func items(_ element: SafeXMLElement) -> ItemList {
        ItemList(
            name: element.attribute("name") ?? "", label: element.attribute("label") ?? "",
            object: element.attribute("object"), minCount: integer(element, "min-count") ?? 0,
            maxCount: integer(element, "max-count") ?? ItemList.defaultMaxCount, groups: groups(element),
            location: SourceLocation(element.location()))
    }

    private mutating func field(_ element: SafeXMLElement) -> Field? {
        guard let kind = FieldKind(rawValue: element.localName) else { return nil }
        let name = element.attribute("name") ?? ""
        var field = Field(
            name: name, kind: kind,
            label: element.attribute("label"),
            placeholder: element.attribute("placeholder"),
            hint: element.attribute("hint"),
            required: element.attribute("required") == "true",
            editable: element.attribute("editable").flatMap(Editability.init(rawValue:)) ?? .yes,
            defaultValue: element.attribute("default"),
            prefill: element.attribute("prefill").flatMap(Prefill.init(rawValue:)),
            location: SourceLocation(element.location()))

        var k = Constraints()
        k.textType = element.attribute("type").flatMap(TextType.init(rawValue:))
        k.minLength = integer(element, "min-length")
        k.maxLength = integer(element, "max-length")
        k.pattern = element.attribute("pattern")
        k.format = element.attribute("format")
        k.min = element.attribute("min")
        k.max = element.attribute("max")
        k.step = element.attribute("step")
        k.scale = integer(element, "scale")
        k.multiple = element.attribute("multiple") == "true"
        k.minSelected = integer(element, "min-selected")
        k.maxSelected = integer(element, "max-selected")
        k.minCount = integer(element, "min-count")
        k.maxCount = integer(element, "max-count")
        if let text = element.attribute("max-size") {
            k.maxSize = ByteSize.parse(text)
            if k.maxSize == nil {
                let digits = text.filter { !$0.isLetter && !$0.isWhitespace }
                let zero = !digits.isEmpty && digits.allSatisfy { $0 == "0" }
                fail(
                    element, .badSize,
                    zero
                        ? "max-size of \"\(name)\" must be more than 0 bytes, like 10MB (got \"\(text)\")."
                        : "max-size of \"\(name)\" must be a number of bytes, or of KB or MB, like 10MB (got \"\(text)\").",
                    attribute: "max-size")
            }
        }
        if let text = element.attribute("accept") {
            let types = text.split(whereSeparator: \.isWhitespace).map(String.init)
            if types.isEmpty {
                fail(
                    element, .badAccept,
                    "accept of \"\(name)\" is empty; list MIME types such as image/png, or remove it.",
                    attribute: "accept")
            }
            k.accept = types
        }
        field.constraints = k
        field.presentation = Presentation(
            prefix: element.attribute("prefix"),
            suffix: element.attribute("suffix"),
            rows: integer(element, "rows"),
            searchable: element.attribute("searchable") == "true")

        if kind.hasOptions {
            field.list = element.attribute("list")
            let groups = optionGroups(element)
            field.options = groups.isEmpty ? nil : groups
        }
        if kind == .switch {
            let children = element.children.compactMap { self.field($0) }
            field.children = children.isEmpty ? nil : children
        }
        return field
    }

    private func list(_ element: SafeXMLElement) -> OptionList {
        OptionList(
            id: element.attribute("id") ?? "", groups: optionGroups(element),
            location: SourceLocation(element.location()))
    }

    /// Options of a field or list; a run of ungrouped options becomes a group without a label.
    private func optionGroups(_ element: SafeXMLElement) -> [OptionGroup] {
        var groups: [OptionGroup] = []
        var run: [Option] = []
        for child in element.children {
            switch child.localName {
            case "option":
                run.append(option(child))
            case "group":
                if !run.isEmpty { groups.append(OptionGroup(label: nil, options: run)) }
                run = []
                groups.append(OptionGroup(label: child.attribute("label"), options: child.children.map(option)))
            default:
                break
            }
        }
        if !run.isEmpty { groups.append(OptionGroup(label: nil, options: run)) }
        return groups
    }

    private func option(_ element: SafeXMLElement) -> Option {
        Option(
            value: element.attribute("value") ?? "",
            label: element.textContent.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A whole-number attribute. The XSD has checked the digits; this catches numbers too big for `Int`.
    private mutating func integer(_ element: SafeXMLElement, _ attribute: String) -> Int? {
        guard let text = element.attribute(attribute) else { return nil }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            let name = element.attribute("name") ?? element.localName
            fail(
                element, .badInteger,
                "\(attribute) of \"\(name)\" must be a whole number no larger than \(Int.max) (got \"\(text)\").",
                attribute: attribute)
            return nil
        }
        return value
    }

    private mutating func fail(
        _ element: SafeXMLElement, _ code: ImportCode, _ message: String, attribute: String? = nil
    ) {
        errors.append(ImportError(code: code, message: message, file: file, at: element.location(attribute: attribute)))
    }
}

extension SourceLocation {
    init(_ position: (line: Int, column: Int)) { self.init(line: position.line, column: position.column) }
}

extension ImportError {
    init(code: ImportCode, message: String, file: String?, at position: (line: Int, column: Int)) {
        self.init(code: code, message: message, file: file, line: position.line, column: position.column)
    }
}
