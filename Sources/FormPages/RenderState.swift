import FormModel
import Foundation

/// An error shown for one field: in the summary at the top and under the field's cell.
package struct FieldError: Sendable, Hashable {
    /// The field's name.
    package var field: String
    /// What to do, e.g. "Enter a title".
    package var message: String
    /// The item the field belongs to, as people name it ("Member 2"): the error summary says
    /// it before the message; nil for a form's own field.
    package var item: String?

    package init(field: String, message: String, item: String? = nil) {
        self.field = field
        self.message = message
        self.item = item
    }
}

/// One object in the parent page's list.
package struct ListItem: Sendable, Hashable {
    package var href: String
    package var text: String

    package init(href: String, text: String) {
        self.href = href
        self.text = text
    }
}

/// What a long value list's search found: the query as typed and a page of matches.
package struct ListSearchResult: Sendable, Hashable {
    package var query: String
    package var matches: [OptionSearch.Match]
    /// How many options match in all; more than `matches` when only the first page is shown.
    package var total: Int
    /// The labels of the other fields a chosen match gives values to (its value help's `Out`
    /// parameters): the page then offers to take the choice and fill them in.
    package var gives: [String]

    package init(query: String, matches: [OptionSearch.Match], total: Int? = nil, gives: [String] = []) {
        self.query = query
        self.matches = matches
        self.total = total ?? matches.count
        self.gives = gives
    }
}

/// Which layout a page uses: the viewport decides (`auto`), or `?layout=` forces one.
package enum LayoutMode: String, Sendable, Hashable, CaseIterable {
    case auto
    case compact
    case regular

    /// The class on `<html>` that the stylesheet keys on.
    package var htmlClass: String { "fw-layout-\(rawValue)" }

    /// When `regular.css`, the form sheet over the parent page, applies: from 600 px wide, always,
    /// or never. One stylesheet serves the viewport's choice and the forced one.
    package var regularMedia: String {
        switch self {
        case .auto: "(min-width: 600px)"
        case .regular: "all"
        case .compact: "not all"
        }
    }

    /// `?layout=compact|regular`; anything else lets the viewport decide.
    package init(query value: String?) {
        self = value.flatMap { LayoutMode(rawValue: $0) } ?? .auto
    }
}

/// Everything that differs between two requests for the same create view.
package struct RenderState: Sendable {
    /// Current values by input name: a field's name, or `<name>.hours` / `<name>.minutes` for a
    /// duration's parts. Several values for multiple choices.
    package var values: [String: [String]]
    /// Errors in the order they should be listed (the fields' order).
    package var errors: [FieldError]
    package var csrfToken: String
    package var layout: LayoutMode
    /// `/forms/{id}/{object}` on the edit, detail and delete pages.
    package var objectPath: String = ""
    /// The signed read-only values the create view carries (``SignedPrefill``).
    package var prefillSeal: String?
    /// The create view's one-time token (``SubmissionToken``).
    /// The signed draft a refused activation kept open in the service (``InputName/draft``):
    /// the create view carries it, and its Cancel discards the draft.
    package var keptDraft: String?
    /// The ETag of the service's object an edit view shows (``InputName/etag``).
    package var serviceETag: String?
    package var submissionToken: String?
    /// Files already received, per attachments field: staged on a failed create, stored on edit.
    package var files: [String: [SubmittedFile]] = [:]
    /// Which of ``files`` are staged uploads rather than an object's files (they are served apart).
    package var stagedFileIDs: Set<String> = []
    /// Values formatted for the detail page, per field.
    package var display: [String: String] = [:]
    /// Every item of a multi-value field on the detail page, when ``display`` summarises them
    /// ("A, B and 3 more"): the page offers the whole list behind a disclosure.
    package var displayItems: [String: [String]] = [:]
    /// When the detail page's files were added ("21 Nov 2026").
    package var filesDate: String = ""
    /// The object's key information, for headings.
    package var heading: String = ""
    /// The signed-in account's name, for the sign-out button; nil shows "Sign in".
    package var accountName: String?
    /// Whether the signed-in account is an admin: the form list links to the admin page.
    package var isAdmin = false
    /// The searches of long value lists asked for without JavaScript, by field name.
    package var listSearches: [String: ListSearchResult] = [:]
    /// The labels of chosen values of lists whose options are not in the plan (a form's OData
    /// service feeds them), by field and value.
    package var choiceLabels: [String: [String: String]] = [:]
    /// On an edit view, the object's stored choices that their fields no longer offer
    /// (``OfferedChoices/missing(in:)``), shown as extra options so they are kept.
    package var noLongerOffered: [String: [String]] = [:]
    /// The fields whose questions do not apply to the values (a form's rules, an XForm's
    /// `relevant`): their cells are hidden, what was typed in them kept.
    package var hidden: Set<String> = []
    /// The options of each field that it does not offer for the values (an XForm's filtered
    /// itemset): hidden, by field.
    package var unoffered: [String: Set<String>] = [:]
    /// The values the fields' labels and hints show, computed from the answers (``ComputedText``).
    package var outputs: [String: [String]] = [:]
    /// The questions that must be answered for the values, of those whose rules say so
    /// conditionally: their labels are marked required.
    package var required: Set<String> = []
    /// How many items each item list shows, by the list's path (`members`, `members[0].doses`).
    package var itemCounts: [String: Int] = [:]
    /// The parent page's list.
    package var listItems: [ListItem] = []
    /// Where the parent page's newer and older pages are, when the list has more than one.
    package var newerPage: String?
    package var olderPage: String?

    package init(values: [String: [String]], errors: [FieldError] = [], csrfToken: String, layout: LayoutMode = .auto) {
        self.values = values
        self.errors = errors
        self.csrfToken = csrfToken
        self.layout = layout
    }

    /// What a plan specialised for this state depends on, when nothing but the values and the
    /// layout sets it apart from a fresh view (no errors, files, searches…); the tokens may differ.
    var freshKey: FreshKey? {
        guard errors.isEmpty, objectPath.isEmpty, files.isEmpty, stagedFileIDs.isEmpty, display.isEmpty,
            displayItems.isEmpty, filesDate.isEmpty, heading.isEmpty, accountName == nil, !isAdmin,
            listSearches.isEmpty, choiceLabels.isEmpty, noLongerOffered.isEmpty, listItems.isEmpty, newerPage == nil,
            olderPage == nil
        else { return nil }
        return FreshKey(
            values: values, layout: layout, hidden: hidden, unoffered: unoffered, outputs: outputs,
            required: required, itemCounts: itemCounts)
    }

    struct FreshKey: Hashable, Sendable {
        var values: [String: [String]]
        var layout: LayoutMode
        var hidden: Set<String>
        var unoffered: [String: Set<String>]
        var outputs: [String: [String]]
        var required: Set<String>
        var itemCounts: [String: Int]
    }

    /// Shows what a form's rules made of the values: the questions that do not apply hidden
    /// (what was typed in them kept), the read-only fields showing the server's computed values.
    /// An item list whose count the rules give shows as many items as they say.
    package mutating func show(_ verdict: RuleVerdict, of form: PreparedForm) {
        hidden = Set(form.schema.allFields.map(\.name)).subtracting(verdict.relevant)
        itemCounts.merge(verdict.itemCounts) { _, given in given }
        // An item's cells by input name (`members[1].age`), and the lists by path.
        for name in Self.itemNames(of: form.schema.itemLists, counts: itemCounts, parent: nil)
        where !verdict.relevant.contains(name) {
            hidden.insert(name)
        }
        outputs = verdict.outputs
        required = verdict.required
        unoffered = [:]
        for (name, offered) in verdict.offered {
            guard let field = form.schema.field(named: name) ?? form.schema.field(atInput: name) else { continue }
            let left = Set(form.schema.options(for: field).map(\.value)).subtracting(offered)
            if !left.isEmpty { unoffered[name] = left }
        }
        values.merge(form.computedInputs(of: verdict)) { _, computed in computed }
    }

    /// The paths of the lists of `lists` (an item's, at `parent`) and the input names of their
    /// items' fields, for the items `counts` gives, in order.
    package static func itemNames(of lists: [ItemList], counts: [String: Int], parent: String?) -> [String] {
        var names: [String] = []
        for list in lists {
            let path = parent.map { "\($0).\(list.name)" } ?? list.name
            names.append(path)
            for index in 0..<(counts[path] ?? 0) {
                let item = ItemList.itemPath(list.name, index, in: parent)
                names += list.fields.flatMap { [$0] + ($0.children ?? []) }.map { "\(item).\($0.name)" }
                names += itemNames(of: list.lists, counts: counts, parent: item)
            }
        }
        return names
    }

    /// Each item list of a fresh form shows its first items: `min-count` of them (none by
    /// default), and theirs within.
    /// Their fields' defaults are among the values (`today` and `now` read from `clock`).
    package mutating func startItems(of schema: FormSchema, clock: ClockReading?) {
        let lists = schema.itemLists
        let start = Submission.starting(lists, clock: clock)
        itemCounts = start.itemCounts(of: lists)
        values.merge(start.pageInputs) { given, _ in given }
    }

    /// Shows an item list's items on the detail page (``ItemTableSlot``): their count, and each
    /// value's display text under its page name (`members[0].age`); a list within an item the
    /// same under the item's path (`members[0].doses`, `members[0].doses[1].given`).
    package mutating func showItems(
        _ value: FieldValue?, of list: ItemList, in schema: FormSchema, parent: String? = nil
    ) {
        let listPath = parent.map { "\($0).\(list.name)" } ?? list.name
        guard case .items(let items) = value else {
            itemCounts[listPath] = 0
            return
        }
        itemCounts[listPath] = items.count
        for (index, item) in items.enumerated() {
            let path = ItemList.itemPath(list.name, index, in: parent)
            for field in list.fields.flatMap({ [$0] + ($0.children ?? []) }) {
                guard let value = item.values[field.name] else { continue }
                display["\(path).\(field.name)"] = value.displayText(for: field, in: schema)
            }
            // A list within an item: its items as a table of their own in the item's cell.
            for inner in list.lists { showItems(item.values[inner.name], of: inner, in: schema, parent: path) }
        }
    }

    func firstValue(_ name: String) -> String? {
        values[name]?.first
    }

    /// Whether the detail page has something to show for a field.
    func hasDisplayValue(_ field: String) -> Bool {
        display[field] != nil || !(files[field] ?? []).isEmpty
    }

    func error(for field: String) -> FieldError? {
        errors.first { $0.field == field }
    }
}
