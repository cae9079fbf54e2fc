import FormModel

/// The template contexts of the pages built from a form (create and edit view, parent, detail,
/// delete) and of the sign-in, index, not-found and gone pages. Imported text is ``PageText``;
/// per-request values are slot sentinels.
package enum PageViewModel {
    package static let siteName = "Fieldwork"

    /// The create or edit view (`form.mustache`): the sheet over the parent page.
    struct Form: PageContext, KeyPathContext {
        let layout: PageLayout
        let title: PageText
        let submit: PageText
        let action: PageText
        let cancelHref: PageText
        /// A create view's Cancel, a slot (``PageSlots/CreateCancel``); none in the edit view,
        /// whose Cancel is a plain link to the object.
        let cancelSlot: [String]
        let deleteHref: [PageText]
        let deleteLabel: PageText
        let prefillSeal: String
        let enctype: String
        let presentation: String
        let legend: [String]
        let csrf: String
        let csrfName: String
        let errorSummary: String
        let sections: [Section]
        let parent: ParentList
        /// What closing the view with changed input asks: "Discard this new issue?".
        let unsaved: PageText
        /// Whether the form is long enough for dividers between its sections.
        let long: Bool
        /// The hidden default button (``InputName/enter``) of a form with a long value list.
        let enterName: [String]
        /// For a form with rules (an XForm's `relevant`): where the page asks which questions
        /// apply to the answers (`data-rules`), and the name of the Update button that asks
        /// without JavaScript; empty for a form without.
        let rules: [Rules]
        /// The form's language when it is shown in one of its own other than its default (its
        /// texts are; Fieldwork's own are the page's): the form's `lang`.
        let lang: [String]
        /// The name of the language switch's buttons (``InputName/language``).
        let languageName = InputName.language
        /// The language switch: each of the form's languages, the one shown marked current;
        /// empty for a form with one.
        let languages: [Language]
        let hasLanguages: Bool

        static let templateKeys: [String: PartialKeyPath<Form> & Sendable] = [
            "layout": \.layout, "title": \.title, "submit": \.submit, "action": \.action, "cancelHref": \.cancelHref,
            "cancelSlot": \.cancelSlot, "deleteHref": \.deleteHref, "deleteLabel": \.deleteLabel,
            "prefillSeal": \.prefillSeal,
            "enctype": \.enctype, "presentation": \.presentation, "legend": \.legend, "csrf": \.csrf,
            "csrfName": \.csrfName, "errorSummary": \.errorSummary, "sections": \.sections, "parent": \.parent,
            "unsaved": \.unsaved, "long": \.long, "enterName": \.enterName, "rules": \.rules, "lang": \.lang,
            "languages": \.languages, "languageName": \.languageName, "hasLanguages": \.hasLanguages,
        ]

        /// A section of the form: its groups of field cells.
        typealias Section = PageSection<Group>

        /// A group of cells, labelled or not.
        struct Group: KeyPathContext {
            let hasGroupLabel: Bool
            let groupLabelText: PageText
            let groupID: String
            let fields: [FieldViewModel]
            /// ` hidden` while none of its questions applies (a slot; empty for a form without rules).
            let groupHidden: String
            /// The slot of the item list standing here (``ItemListSlot``), which then stands
            /// instead of a group; empty for a group of cells.
            let items: [String]

            static let templateKeys: [String: PartialKeyPath<Group> & Sendable] = [
                "hasGroupLabel": \.hasGroupLabel, "groupLabelText": \.groupLabelText, "groupID": \.groupID,
                "fields": \.fields, "groupHidden": \.groupHidden, "items": \.items,
            ]
        }

        init(
            _ schema: FormSchema, registry: SlotRegistry, mode: FormMode = .create, rules judge: (any RuleJudge)? = nil,
            items: ItemPlans? = nil, language: String? = nil,
            languages: [(tag: String, name: String, current: Bool)] = []
        ) {
            lang = language.map { [$0] } ?? []
            self.languages = languages.map { Language(tag: $0.tag, name: PageText($0.name), current: $0.current) }
            hasLanguages = !languages.isEmpty
            let hasRules = judge != nil
            let cells = FieldViewModel.Builder(schema: schema, registry: registry, mode: mode, rules: judge)
            /// The slot of an item list standing among the groups.
            func itemList(_ list: ItemList?) -> [String] {
                guard let list, let items else { return [] }
                return [registry.sentinel(ItemListSlot(list: list, parent: nil, plans: items))]
            }
            let title = mode == .create ? PageText(schema.title) : editTitle(schema)
            // The edit view posts to and cancels back to the object, whose id differs per request.
            let objectPath = registry.sentinel(PageSlots.ObjectPath())
            let home: PageText = mode == .create ? "/forms/\(schema.id)" : "\(slot: objectPath)"
            let marking = schema.requiredMarking
            layout = PageLayout(
                title: "\(slot: registry.sentinel(PageSlots.TitlePrefix()))\(title) – \(siteName)",
                htmlClass:
                    "fw-page \(slot: registry.sentinel(PageSlots.LayoutClass())) fw-presentation-\(schema.regular.rawValue)",
                regularMedia: "\(slot: registry.sentinel(PageSlots.RegularMedia()))",
                body: "create", items: !schema.itemLists.isEmpty, rich: schema.hasFormattedText,
                languages: !languages.isEmpty)
            self.title = title
            submit = mode == .create ? PageText(schema.submit) : "Save"
            action = home
            cancelHref = home
            cancelSlot =
                mode == .create
                ? [
                    registry.sentinel(
                        PageSlots.CreateCancel(home: home.text, discard: "/forms/\(schema.id)/draft/discard"))
                ]
                : []
            deleteHref = mode == .edit ? ["\(slot: objectPath)/delete"] : []
            deleteLabel = "Delete \(objectName(schema))"
            let object = FieldWording.lowercased(schema.object?.trimmingCharacters(in: .whitespaces) ?? "")
            unsaved = PageText(
                mode == .create
                    ? "Discard this new \(object.isEmpty ? "entry" : object)?"
                    : "Discard your changes to this \(object.isEmpty ? "entry" : object)?")
            // More than eight fields make a long form, whose sections are divided, as the create
            // pattern asks; a short form's run on.
            long = schema.allFields.count > 8
            enterName = schema.allFields.contains(where: schema.isLongList) ? [InputName.enter] : []
            rules =
                hasRules
                ? [Rules(url: "\(home)/rules", updateName: InputName.update, updateAction: "\(home)#fw-update")] : []
            prefillSeal =
                mode == .create
                ? [.prefill, .once, .draft].map { registry.sentinel(PageSlots.HiddenToken(token: $0)) }.joined()
                : registry.sentinel(PageSlots.HiddenToken(token: .etag))
            enctype = schema.contains(kind: .attachments) ? "multipart/form-data" : "application/x-www-form-urlencoded"
            presentation = schema.regular.rawValue
            legend =
                marking.showsLegend || !(judge?.conditionallyRequired.isEmpty ?? true) ? [RequiredMarking.legend] : []
            csrf = registry.sentinel(PageSlots.CSRFToken())
            csrfName = InputName.csrf
            errorSummary = registry.sentinel(PageSlots.ErrorSummary())
            sections = schema.sections.map { section in
                Section(
                    sectionKind: section.kind.rawValue,
                    groups: section.groups.enumerated().map { index, group in
                        let label = PageText.nonEmpty(group.label)
                        // Hidden when none of its questions applies (only a form with rules has any such).
                        let hidden =
                            hasRules ? registry.sentinel(InputSlots.GroupHidden(fields: group.fields.map(\.name))) : ""
                        return Group(
                            hasGroupLabel: label != nil, groupLabelText: label ?? "",
                            groupID: "group-\(section.kind.rawValue)-\(index + 1)",
                            fields: group.fields.map { cells.cell(for: $0) }, groupHidden: hidden,
                            items: itemList(group.items))
                    })
            }
            // Behind the edit sheet the list is left out, empty-state text and all.
            parent = ParentList(schema, staticEmpty: mode == .create)
        }
    }

    /// "Edit Issue", or "Edit entry" when the form names no object.
    static func editTitle(_ schema: FormSchema) -> PageText {
        "Edit \(objectName(schema))"
    }

    /// The object's singular name ("Issue"), else "entry".
    static func objectName(_ schema: FormSchema) -> PageText {
        PageText.nonEmpty(schema.object) ?? "entry"
    }

    /// The header and list of a form's parent page (`partials/parent-page`), also shown behind
    /// the create sheet.
    struct ParentList: KeyPathContext {
        let heading: PageText
        let emptyText: PageText
        let newLabel: PageText
        let newHref: PageText
        /// Whether the empty-state text is static: behind the create sheet the list stays empty,
        /// since filling it would cost a query per view.
        let staticEmpty: Bool
        /// Whether "+" opens the create view in a modal (modal.js): on the parent page itself,
        /// not on the inert copy behind a create sheet.
        let opensModal: Bool
        /// Whether "+" is there: not on a retired form's page, whose objects stay listed.
        let canCreate: Bool
        let listItems: String
        let listEmpty: String
        let pager: String

        static let templateKeys: [String: PartialKeyPath<ParentList> & Sendable] = [
            "heading": \.heading, "emptyText": \.emptyText, "newLabel": \.newLabel, "newHref": \.newHref,
            "staticEmpty": \.staticEmpty, "opensModal": \.opensModal, "canCreate": \.canCreate,
            "listItems": \.listItems, "listEmpty": \.listEmpty, "pager": \.pager,
        ]

        /// The list without slots: empty.
        init(_ schema: FormSchema, staticEmpty: Bool = true) {
            let plural = PageText.nonEmpty(schema.object).map { object -> PageText in "\(Plural.of(object.text))" }
            heading = plural ?? PageText(schema.title)
            emptyText = "No \((plural?.text ?? "entries").lowercased()) yet"
            newLabel = PageText(schema.title)
            newHref = "/forms/\(schema.id)/new"
            self.staticEmpty = staticEmpty
            opensModal = false
            canCreate = true
            listItems = ""
            listEmpty = ""
            pager = ""
        }

        /// The list with slots for the viewer's objects, their empty state and the pager.
        init(_ schema: FormSchema, registry: SlotRegistry, canCreate: Bool) {
            let empty = ParentList(schema)
            heading = empty.heading
            emptyText = empty.emptyText
            newLabel = empty.newLabel
            newHref = empty.newHref
            staticEmpty = false
            opensModal = true
            self.canCreate = canCreate
            listItems = registry.sentinel(ListSlots.Items())
            listEmpty = registry.sentinel(ListSlots.Empty(text: empty.emptyText.text))
            pager = registry.sentinel(ListSlots.Pager())
        }
    }

    /// A form's parent page (`parent.mustache`): its objects, newest first.
    struct Parent: PageContext {
        let layout: PageLayout
        let parent: ParentList

        init(_ schema: FormSchema, registry: SlotRegistry, canCreate: Bool) {
            parent = ParentList(schema, registry: registry, canCreate: canCreate)
            layout = PageLayout(title: "\(parent.heading) – \(siteName)", body: "parent")
        }
    }

    /// The detail page (`detail.mustache`): the object's values in the form's groups, one row per field.
    struct Detail: PageContext, KeyPathContext {
        let layout: PageLayout
        let parentHref: PageText
        let parentLabel: PageText
        let heading: String
        let objectPath: String
        let editLabel: String
        let sections: [Section]
        /// What the page must say about where the values come from (a service that did not
        /// answer, a create whose outcome is unknown), in the error summary's box; usually nothing.
        let errorSummary: String

        static let templateKeys: [String: PartialKeyPath<Detail> & Sendable] = [
            "layout": \.layout, "parentHref": \.parentHref, "parentLabel": \.parentLabel, "heading": \.heading,
            "objectPath": \.objectPath, "editLabel": \.editLabel, "sections": \.sections,
            "errorSummary": \.errorSummary,
        ]

        /// A section of the page: its groups of rows.
        typealias Section = PageSection<Group>

        /// A group's rows, hidden when none of its fields has a value.
        struct Group: KeyPathContext {
            let hasGroupLabel: Bool
            let groupLabelText: PageText
            let rows: [Row]
            let slot: DetailGroupSlots
            /// The slot of the item list standing here (``ItemTableSlot``), instead of rows.
            let items: [String]

            static let templateKeys: [String: PartialKeyPath<Group> & Sendable] = [
                "hasGroupLabel": \.hasGroupLabel, "groupLabelText": \.groupLabelText, "rows": \.rows, "slot": \.slot,
                "items": \.items,
            ]
        }

        /// One field's label and value, hidden when it has none.
        struct Row: KeyPathContext {
            let rowLabel: PageText
            let slot: DetailRowSlots

            static let templateKeys: [String: PartialKeyPath<Row> & Sendable] = [
                "rowLabel": \.rowLabel, "slot": \.slot,
            ]
        }

        init(_ schema: FormSchema, registry: SlotRegistry) {
            let parent = ParentList(schema)
            sections = schema.sections.map { section in
                Section(
                    sectionKind: section.kind.rawValue,
                    groups: section.groups.map { group in
                        let label = PageText.nonEmpty(group.label)
                        let fields = group.fields.flatMap { [$0] + ($0.children ?? []) }
                        let names = fields.map { PageText($0.name).text }
                        return Group(
                            hasGroupLabel: label != nil, groupLabelText: label ?? "",
                            rows: zip(fields, names).map { field, name in
                                Row(
                                    rowLabel: PageText(field.displayName),
                                    slot: DetailRowSlots(field: name, registry: registry))
                            },
                            slot: DetailGroupSlots(fields: names, registry: registry),
                            items: group.items.map { [registry.sentinel(ItemTableSlot(list: $0))] } ?? [])
                    })
            }
            heading = registry.sentinel(PageSlots.Heading())
            layout = PageLayout(
                title: "\(slot: heading) – \(parent.heading) – \(siteName)", body: "detail",
                items: !schema.itemLists.isEmpty)
            parentHref = "/forms/\(schema.id)"
            parentLabel = parent.heading
            objectPath = registry.sentinel(PageSlots.ObjectPath())
            errorSummary = registry.sentinel(PageSlots.ErrorSummary())
            editLabel = "Edit"
        }
    }

    /// The page that asks before deleting an object (`delete.mustache`).
    struct Delete: PageContext {
        let layout: PageLayout
        let title: PageText
        let heading: String
        let objectPath: String
        let csrf: String
        let csrfName: String
        /// The ETag of the service's object the page was shown for (`_etag`), when it has one: the
        /// delete is sent with it as `If-Match`, so a change made meanwhile stops it.
        let etag: String
        let deleteLabel: PageText

        init(_ schema: FormSchema, registry: SlotRegistry) {
            let name = objectName(schema).text.lowercased()
            layout = PageLayout(title: "Delete \(name)? – \(siteName)", body: "confirm")
            title = "Delete \(name)?"
            heading = registry.sentinel(PageSlots.Heading())
            objectPath = registry.sentinel(PageSlots.ObjectPath())
            etag = registry.sentinel(PageSlots.HiddenToken(token: .etag))
            csrf = registry.sentinel(PageSlots.CSRFToken())
            csrfName = InputName.csrf
            deleteLabel = "Delete \(name)"
        }
    }

    /// The sign-in page (`login.mustache`).
    struct Login: PageContext {
        let layout: PageLayout
        let csrf: String
        let csrfName: String
        let errorSummary: String
        /// The slots of the hidden `next` input and of the two fields.
        let next: FieldSlots
        let nameField: FieldSlots
        let passwordField: FieldSlots

        init(registry: SlotRegistry) {
            layout = PageLayout(
                title: "\(slot: registry.sentinel(PageSlots.TitlePrefix()))Sign in – \(siteName)", body: "login")
            csrf = registry.sentinel(PageSlots.CSRFToken())
            csrfName = InputName.csrf
            errorSummary = registry.sentinel(PageSlots.ErrorSummary())
            next = FieldSlots("next", registry: registry)
            nameField = FieldSlots("name", registry: registry)
            passwordField = FieldSlots("password", registry: registry)
        }
    }

    /// The second step of signing in, after a right password (`login-code.mustache`): the code
    /// from the authenticator app, or a recovery code.
    struct SignInCode: PageContext {
        let layout: PageLayout
        let csrf: String
        let csrfName: String
        let errorSummary: String
        let next: FieldSlots
        let codeField: FieldSlots

        init(registry: SlotRegistry) {
            layout = PageLayout(
                title: "\(slot: registry.sentinel(PageSlots.TitlePrefix()))Enter your code – \(siteName)", body: "login"
            )
            csrf = registry.sentinel(PageSlots.CSRFToken())
            csrfName = InputName.csrf
            errorSummary = registry.sentinel(PageSlots.ErrorSummary())
            next = FieldSlots("next", registry: registry)
            codeField = FieldSlots(
                "code", traits: FieldSlots.Traits(describedBy: DOMID.hint("code")), registry: registry)
        }
    }

    /// The page where a signed-in user changes their password (`password.mustache`).
    struct ChangePassword: PageContext {
        let layout: PageLayout
        let csrf: String
        let csrfName: String
        let errorSummary: String
        /// The slots of the current password and the new one (never a value: nothing typed in a
        /// password field is ever sent back).
        let currentField: FieldSlots
        let passwordField: FieldSlots

        init(registry: SlotRegistry) {
            layout = PageLayout(
                title: "\(slot: registry.sentinel(PageSlots.TitlePrefix()))Change your password – \(siteName)",
                body: "password")
            csrf = registry.sentinel(PageSlots.CSRFToken())
            csrfName = InputName.csrf
            errorSummary = registry.sentinel(PageSlots.ErrorSummary())
            currentField = FieldSlots("current", registry: registry)
            passwordField = FieldSlots(
                "password", traits: FieldSlots.Traits(describedBy: DOMID.hint("password")), registry: registry)
        }
    }

    /// The list of forms on `/` (`index.mustache`).
    struct Index: PageContext {
        let layout: PageLayout
        let account: String
        let forms: [Entry]
        let noForms: Bool

        /// A form in the list: its title, linking to its parent page.
        struct Entry {
            let formTitle: PageText
            let formHref: PageText
        }

        init(_ forms: [FormLink], registry: SlotRegistry) {
            account = registry.sentinel(PageSlots.AccountBar())
            layout = PageLayout(title: "Forms – \(siteName)", body: "index")
            self.forms = forms.map { Entry(formTitle: PageText($0.title), formHref: "/forms/\($0.id)") }
            noForms = forms.isEmpty
        }
    }

    /// A page with nothing but its title and fixed text (`not-found.mustache`, `gone.mustache`).
    struct Plain: PageContext {
        let layout: PageLayout

        init(title: PageText) {
            layout = PageLayout(title: "\(title) – \(siteName)", body: "error")
        }
    }

    /// A refusal that says why (`error.mustache`): 403, 413 and the like.
    package struct Refusal: PageContext {
        package let layout: PageLayout
        let heading: PageText
        let message: PageText
        /// Whether to point to the Back button: the refused form, values and all, is one step back.
        let backToForm: Bool

        /// - Parameters:
        ///   - heading: what happened.
        ///   - message: what to do; it may quote the request.
        ///   - backToForm: point to the Back button, for a refused form.
        package init(heading: String, message: String, backToForm: Bool = false) {
            self.heading = PageText(heading)
            layout = PageLayout(title: "\(self.heading) – \(siteName)", body: "error")
            self.message = PageText(message)
            self.backToForm = backToForm
        }
    }
}

/// English plurals for object names ("Issue" → "Issues", "Entry" → "Entries").
enum Plural {
    /// An English plural of an object's name. Services often name an entity type in the plural
    /// already (CAP's `Bookings`, `Incidents`): a name ending in a lone `s` is kept as it is;
    /// `-ss` and `-us` take `-es` (Address, Status), `-is` becomes `-es` (Analysis).
    static func of(_ word: String) -> String {
        let lower = word.lowercased()
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) {
            return word.dropLast() + "ies"
        }
        if lower.hasSuffix("is") { return word.dropLast(2) + "es" }
        if ["ss", "us", "x", "z", "ch", "sh"].contains(where: { lower.hasSuffix($0) }) { return word + "es" }
        if lower.hasSuffix("s") { return word }
        return word + "s"
    }
}

/// A section of a form's page (key information, properties, accessory) and its groups: the
/// create and edit view's groups of cells, the detail page's groups of rows.
struct PageSection<Group>: KeyPathContext {
    let sectionKind: String
    let groups: [Group]

    static var templateKeys: [String: PartialKeyPath<PageSection> & Sendable] {
        ["sectionKind": \.sectionKind, "groups": \.groups]
    }
}
