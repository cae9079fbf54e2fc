import FormModel

/// The dictionaries the page templates render; every imported string passes ``HTML/clean(_:)``.
enum PageViewModel {
    static let siteName = "Fieldwork"

    static func form(_ schema: FormSchema, registry: SlotRegistry, mode: FormMode = .create) -> [String: Any] {
        let marking = schema.requiredMarking
        let fields = FieldViewModel(schema: schema, marking: marking, registry: registry, mode: mode)
        let title = mode == .create ? HTML.clean(schema.title) : editTitle(schema)
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
        // The edit view posts to and cancels back to the object, whose id differs per request.
        let objectPath = registry.sentinel(.objectPath)
        var parent = parentContext(schema)
        if mode == .edit { parent["staticEmpty"] = false }
        return [
            "pageTitle": registry.sentinel(.titlePrefix) + "\(title) – \(siteName)",
            "htmlClass": "fw-page \(registry.sentinel(.layoutClass)) fw-presentation-\(schema.regular.rawValue)",
            "bodyClass": "fw-body fw-body--create",
            "title": title,
            "submit": mode == .create ? HTML.clean(schema.submit) : "Save",
            "action": mode == .create ? "/forms/\(formID)" : objectPath,
            "cancelHref": mode == .create ? "/forms/\(formID)" : objectPath,
            "deleteHref": mode == .edit ? ["\(objectPath)/delete"] : [],
            "deleteLabel": "Delete \(objectName(schema))",
            "prefillSeal": mode == .create ? registry.sentinel(.prefillSeal) : "",
            "enctype": schema.contains(kind: .attachments) ? "multipart/form-data" : "application/x-www-form-urlencoded",
            "presentation": schema.regular.rawValue,
            "legend": marking.showsLegend ? [RequiredMarking.legend] : [],
            "csrf": registry.sentinel(.csrfToken),
            "csrfName": CSRF.fieldName,
            "errorSummary": registry.sentinel(.errorSummary),
            "sections": sections,
            "parent": parent,
        ]
    }

    /// "Edit Issue", or "Edit" and the form's title when the form names no object.
    static func editTitle(_ schema: FormSchema) -> String {
        "Edit \(objectName(schema))"
    }

    /// The object's singular name ("Issue"), else "entry".
    static func objectName(_ schema: FormSchema) -> String {
        schema.object.map(HTML.clean).flatMap { $0.isEmpty ? nil : $0 } ?? "entry"
    }

    /// The detail page: the object's values in the form's groups, one row per field.
    static func detail(_ schema: FormSchema, registry: SlotRegistry) -> [String: Any] {
        let parent = parentContext(schema)
        let sections: [[String: Any]] = schema.sections.map { section in
            let groups: [[String: Any]] = section.groups.map { group in
                let label = group.label.map(HTML.clean).flatMap { $0.isEmpty ? nil : $0 }
                let fields = group.fields.flatMap { [$0] + ($0.children ?? []) }
                let rows: [[String: Any]] = fields.map { field in
                    let name = HTML.clean(field.name)
                    return [
                        "rowLabel": HTML.clean(field.displayName),
                        "sValue": registry.sentinel(.displayValue(field: name)),
                        "sRowHidden": registry.sentinel(.displayHidden(field: name)),
                    ]
                }
                return [
                    "hasGroupLabel": label != nil, "groupLabelText": label ?? "", "rows": rows,
                    "sGroupHidden": registry.sentinel(.displayGroupHidden(fields: fields.map { HTML.clean($0.name) })),
                ]
            }
            return ["sectionKind": section.kind.rawValue, "groups": groups]
        }
        return [
            "pageTitle": "\(registry.sentinel(.heading)) – \(parent["heading"]!) – \(siteName)",
            "htmlClass": "fw-page fw-layout-auto",
            "bodyClass": "fw-body fw-body--detail",
            "parentHref": "/forms/\(HTML.clean(schema.id))",
            "parentLabel": parent["heading"]!,
            "heading": registry.sentinel(.heading),
            "objectPath": registry.sentinel(.objectPath),
            "editLabel": "Edit",
            "sections": sections,
        ]
    }

    /// The page that asks before deleting an object.
    static func deleteConfirmation(_ schema: FormSchema, registry: SlotRegistry) -> [String: Any] {
        let name = objectName(schema)
        return [
            "pageTitle": "Delete \(name.lowercased())? – \(siteName)",
            "htmlClass": "fw-page fw-layout-auto",
            "bodyClass": "fw-body fw-body--confirm",
            "title": "Delete \(name.lowercased())?",
            "heading": registry.sentinel(.heading),
            "objectPath": registry.sentinel(.objectPath),
            "csrf": registry.sentinel(.csrfToken),
            "csrfName": CSRF.fieldName,
            "deleteLabel": "Delete \(name.lowercased())",
        ]
    }

    /// The sign-in page.
    static func login(registry: SlotRegistry) -> [String: Any] {
        func field(_ name: String) -> [String: String] {
            [
                "sCell": registry.sentinel(.cellState(field: name)),
                "sError": registry.sentinel(.fieldError(field: name)),
                "sInvalid": registry.sentinel(.invalid(field: name)),
                "sDescribedBy": registry.sentinel(.describedBy(field: name, ids: [])),
            ]
        }
        return [
            "pageTitle": registry.sentinel(.titlePrefix) + "Sign in – \(siteName)",
            "htmlClass": "fw-page fw-layout-auto",
            "bodyClass": "fw-body fw-body--login",
            "csrf": registry.sentinel(.csrfToken),
            "csrfName": CSRF.fieldName,
            "errorSummary": registry.sentinel(.errorSummary),
            "sNext": registry.sentinel(.value(field: "next")),
            "sNameValue": registry.sentinel(.value(field: "name")),
            "nameField": field("name"),
            "passwordField": field("password"),
        ]
    }

    static func parent(_ schema: FormSchema, registry: SlotRegistry) -> [String: Any] {
        var context = parentContext(schema)
        context["staticEmpty"] = false
        context["listItems"] = registry.sentinel(.listItems)
        context["listEmpty"] = registry.sentinel(.listEmpty(text: context["emptyText"] as! String))
        context["pager"] = registry.sentinel(.pager)
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
            // Behind the create sheet the list stays empty: filling it would cost a query per view.
            "staticEmpty": true,
            "listItems": "",
            "listEmpty": "",
            "pager": "",
        ]
    }

    static func index(_ forms: [(id: String, title: String)], registry: SlotRegistry) -> [String: Any] {
        [
            "account": registry.sentinel(.accountBar),
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
