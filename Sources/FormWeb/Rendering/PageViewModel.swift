import FormModel

/// The dictionaries the page templates render; every imported string passes ``HTML/clean(_:)``.
enum PageViewModel {
    static let siteName = "Fieldwork"

    static func form(_ schema: FormSchema, registry: SlotRegistry) -> [String: Any] {
        let marking = schema.requiredMarking
        let fields = FieldViewModel(schema: schema, marking: marking, registry: registry)
        let title = HTML.clean(schema.title)
        let sections: [[String: Any]] = schema.sections.map { section in
            let groups: [[String: Any]] = section.groups.enumerated().map { index, group in
                let label = group.label.map(HTML.clean).flatMap { $0.isEmpty ? nil : $0 }
                return [
                    "hasGroupLabel": label != nil,
                    "groupLabelText": label ?? "",
                    "groupID": "group-\(section.kind.rawValue)-\(index + 1)",
                    "fields": group.fields.map { fields.context(for: $0, inKeySection: section.kind == .key) },
                ]
            }
            return ["sectionKind": section.kind.rawValue, "groups": groups]
        }
        let formID = HTML.clean(schema.id)
        return [
            "pageTitle": registry.sentinel(.titlePrefix) + "\(title) – \(siteName)",
            "htmlClass": "fw-page \(registry.sentinel(.layoutClass)) fw-presentation-\(schema.regular.rawValue)",
            "bodyClass": "fw-body fw-body--create",
            "title": title,
            "submit": HTML.clean(schema.submit),
            "action": "/forms/\(formID)",
            "cancelHref": "/forms/\(formID)",
            "enctype": schema.contains(kind: .attachments) ? "multipart/form-data" : "application/x-www-form-urlencoded",
            "presentation": schema.regular.rawValue,
            "legend": marking.showsLegend ? [RequiredMarking.legend] : [],
            "csrf": registry.sentinel(.csrfToken),
            "csrfName": CSRF.fieldName,
            "errorSummary": registry.sentinel(.errorSummary),
            "sections": sections,
            "parent": parentContext(schema),
        ]
    }

    static func parent(_ schema: FormSchema) -> [String: Any] {
        let context = parentContext(schema)
        return [
            "pageTitle": "\(context["heading"]!) – \(siteName)",
            "htmlClass": "fw-page fw-layout-auto",
            "bodyClass": "fw-body fw-body--parent",
            "parent": context,
        ]
    }

    static func parentContext(_ schema: FormSchema) -> [String: Any] {
        let id = HTML.clean(schema.id)
        let plural = schema.object.map(HTML.clean).flatMap { $0.isEmpty ? nil : Plural.of($0) }
        return [
            "heading": plural ?? HTML.clean(schema.title),
            "emptyText": "No \((plural ?? "entries").lowercased()) yet",
            "newLabel": HTML.clean(schema.title),
            "newHref": "/forms/\(id)/new",
        ]
    }

    static func index(_ forms: [FormSchema]) -> [String: Any] {
        [
            "pageTitle": "Forms – \(siteName)",
            "htmlClass": "fw-page fw-layout-auto",
            "bodyClass": "fw-body fw-body--index",
            "forms": forms.map { form in
                ["formTitle": HTML.clean(form.title), "formHref": "/forms/\(HTML.clean(form.id))"]
            },
            "noForms": forms.isEmpty,
        ]
    }

    static func notFound() -> [String: Any] {
        [
            "pageTitle": "Page not found – \(siteName)",
            "htmlClass": "fw-page fw-layout-auto",
            "bodyClass": "fw-body fw-body--error",
        ]
    }
}

/// English plurals for object names ("Issue" → "Issues", "Entry" → "Entries").
enum Plural {
    static func of(_ word: String) -> String {
        let lower = word.lowercased()
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) {
            return word.dropLast() + "ies"
        }
        if ["s", "x", "z", "ch", "sh"].contains(where: { lower.hasSuffix($0) }) { return word + "es" }
        return word + "s"
    }
}
