import Mustache

/// The markup the slots of every plan write, as fragments of the templates in `Templates/slots/`
/// (and the error summary box, `partials/error-summary`): every tag, attribute and id a slot
/// writes comes from there, never from Swift. Built once per ``PageRenderer``.
///
/// A slot template is inline markup with `{{part}}` holes (``Fragment/Part``), no sections: what
/// varies per request is chosen by the slot (`Slots/`) writing one fragment or another. The
/// file's last newline is not part of the fragment; a leading space is.
final class SlotMarkup: Sendable {
    /// The error summary box; its `{{items}}` are error items.
    let errorSummary: Fragment
    /// One error in the summary: `{{href}}` (``DOMID/link(_:)``), `{{message}}`.
    let errorItem: Fragment
    /// An error of no field (a service's message about the whole object): no link.
    let errorNote: Fragment
    /// The error under a field's cell: `{{errorID}}` (``DOMID/error(_:)``), `{{message}}`.
    let fieldError: Fragment
    /// "Error: " before a page's title while it shows errors.
    let titleError: Fragment
    /// ` value="{{value}}"` on an input.
    let valueAttribute: Fragment
    /// ` checked` on a checkbox or radio.
    let checked: Fragment
    /// ` selected` on an option.
    let selected: Fragment
    /// ` hidden` on an element with nothing to show.
    let hidden: Fragment
    /// ` disabled` on a control that cannot be used.
    let disabled: Fragment
    /// The marks after the label of a question required, or optional, for the answers given.
    let requiredMark: Fragment
    let optionalMark: Fragment
    /// The span a question whose `required` depends on the answers has after its label, with
    /// its mark as `{{items}}`; the second in a form that marks optional questions.
    let requiredNow: Fragment
    let requiredNowOptional: Fragment
    /// A value computed from the answers in a label or hint: `{{name}}` (`FIELD.INDEX`), `{{value}}`.
    let output: Fragment
    /// ` aria-invalid="true"` on a field's control while it has an error.
    let invalid: Fragment
    /// ` aria-describedby="{{ids}}"` on a field's control.
    let describedBy: Fragment
    /// The class a field's cell takes while it has an error, with its leading space.
    let cellError: Fragment
    /// A hidden input: `{{name}}`, `{{value}}`.
    let hiddenInput: Fragment
    /// A list of files: `{{items}}`.
    let fileList: Fragment
    /// A file already received on a form, with its Keep box: `{{thumbnail}}`, `{{name}}`, `{{size}}`,
    /// `{{keptName}}`, `{{id}}`.
    let keptFile: Fragment
    /// A file on the detail page: `{{url}}`, `{{thumbnail}}`, `{{name}}`, `{{size}}`, `{{date}}`.
    let shownFile: Fragment
    /// When the detail page's files were added: `{{date}}`.
    let fileDate: Fragment
    /// An image file's thumbnail: `{{url}}`.
    let fileImage: Fragment
    /// Any other file's type icon: `{{icon}}`.
    let fileIcon: Fragment
    /// Every item of a summarised value, behind a disclosure: `{{count}}`, `{{items}}`.
    let moreItems: Fragment
    /// One of those items: `{{text}}`.
    let moreItem: Fragment
    /// An object in a parent page's list: `{{href}}`, `{{text}}`.
    let listItem: Fragment
    /// A parent page's empty list: `{{text}}`.
    let listEmpty: Fragment
    /// The signed-in account and its Sign out button: `{{adminLink}}`, `{{name}}`, `{{csrf}}`.
    let account: Fragment
    /// The link to the admin page.
    let adminLink: Fragment
    /// The Sign in link.
    let signIn: Fragment
    /// The links to a list's other pages: `{{newer}}`, `{{older}}`.
    let pager: Fragment
    /// `{{href}}`.
    let pagerNewer: Fragment
    /// `{{href}}`.
    let pagerOlder: Fragment
    /// A radio or checkbox of a choice whose options are not in the plan: `{{type}}`, `{{id}}`,
    /// `{{name}}`, `{{value}}`, `{{checked}}`, `{{text}}`.
    let choiceOption: Fragment
    /// A long value list's search that found nothing: `{{query}}`.
    let noMatches: Fragment
    /// A long value list's search that found more than the page shows: `{{count}}`, `{{total}}`.
    let moreMatches: Fragment
    /// The button that takes a long value list's chosen match and fills the fields it gives
    /// (without JavaScript): `{{name}}`, `{{value}}` (the field), `{{text}}` (those fields).
    let pick: Fragment
    /// A select's option no longer offered: `{{value}}`, `{{checked}}` (as ` selected`), `{{text}}`.
    let keptOption: Fragment
    /// The label of a choice no longer offered: `{{value}}`.
    let noLongerOffered: Fragment
    /// A create view's Cancel: `{{href}}`.
    let cancelLink: Fragment
    /// Cancel while a draft is kept in the service, posting the form to discard it: `{{href}}`, `{{name}}`.
    let cancelDraft: Fragment
    /// An item list: `{{id}}`, its path `{{value}}`, `{{hidden}}`, its label `{{text}}` and
    /// `{{count}}`, its `{{items}}`, and its `{{actions}}`: Add, with its `{{name}}`, `{{value}}`,
    /// `{{href}}` and `{{label}}`.
    let itemList: Fragment
    let itemAdd: Fragment
    /// A new item for the page's script: `{{label}}`, `{{text}}` (what one is called),
    /// `{{name}}` (the same in a sentence), `{{count}}` (the most items), `{{items}}` (the item).
    let itemTemplate: Fragment
    /// An item list on the detail page: `{{text}}` (its label), `{{count}}`, `{{items}}` (the
    /// table, or the none text); the table (`{{label}}` the heading's cells, `{{items}}` the
    /// rows), a heading cell, a row (`{{items}}`), a cell (`{{label}}`, `{{text}}`), none (`{{text}}`).
    let itemTable: Fragment
    let itemTableRows: Fragment
    let itemTableHead: Fragment
    let itemTableRow: Fragment
    let itemTableCell: Fragment
    let itemTableNone: Fragment

    init(library: MustacheLibrary) throws(RenderPlanError) {
        func slot(_ name: String) throws(RenderPlanError) -> Fragment {
            try Self.fragment("slots/\(name)", library: library)
        }
        errorSummary = try Self.fragment("partials/error-summary", library: library, inline: false)
        errorItem = try slot("error-item")
        errorNote = try slot("error-note")
        fieldError = try slot("field-error")
        titleError = try slot("title-error")
        valueAttribute = try slot("value-attribute")
        checked = try slot("checked")
        selected = try slot("selected")
        hidden = try slot("hidden")
        disabled = try slot("disabled")
        requiredMark = try slot("required-mark")
        optionalMark = try slot("optional-mark")
        requiredNow = try slot("required-now")
        requiredNowOptional = try slot("required-now-optional")
        output = try slot("output")
        invalid = try slot("invalid")
        describedBy = try slot("described-by")
        cellError = try slot("cell-error")
        hiddenInput = try slot("hidden-input")
        fileList = try slot("file-list")
        keptFile = try slot("kept-file")
        shownFile = try slot("shown-file")
        fileDate = try slot("file-date")
        fileImage = try slot("file-image")
        fileIcon = try slot("file-icon")
        moreItems = try slot("more-items")
        moreItem = try slot("more-item")
        listItem = try slot("list-item")
        listEmpty = try slot("list-empty")
        account = try slot("account")
        adminLink = try slot("admin-link")
        signIn = try slot("sign-in")
        pager = try slot("pager")
        pagerNewer = try slot("pager-newer")
        pagerOlder = try slot("pager-older")
        choiceOption = try slot("choice-option")
        noMatches = try slot("no-matches")
        moreMatches = try slot("more-matches")
        keptOption = try slot("kept-option")
        pick = try slot("pick")
        noLongerOffered = try slot("no-longer-offered")
        cancelLink = try slot("cancel-link")
        cancelDraft = try slot("cancel-draft")
        itemList = try slot("item-list")
        itemAdd = try slot("item-add")
        itemTemplate = try slot("item-template")
        itemTable = try slot("item-table")
        itemTableRows = try slot("item-table-rows")
        itemTableHead = try slot("item-table-head")
        itemTableRow = try slot("item-table-row")
        itemTableCell = try slot("item-table-cell")
        itemTableNone = try slot("item-table-none")
    }

    /// Renders a template once with a sentinel for each part and splits it.
    /// - Parameter inline: drop the file's last newline (slot templates are inline markup).
    private static func fragment(
        _ template: String, library: MustacheLibrary, inline: Bool = true
    ) throws(RenderPlanError)
        -> Fragment
    {
        let parts = PartSentinels()
        guard var rendered = library.render(parts, withTemplate: template) else { throw .missingTemplate(template) }
        if let unknown = parts.unknown.first { throw .unknownPart(template: template, name: unknown) }
        if inline, rendered.hasSuffix("\n") { rendered.removeLast() }
        return Fragment(chunks: try parts.registry.split(rendered))
    }
}

extension SlotMarkup {
    /// A hidden input sending a value back as it is.
    func writeHiddenInput(name: String, value: String, to buffer: inout PageBuffer) {
        hiddenInput.write(to: &buffer) { part in
            switch part {
            case .name: name
            case .value: value
            default: nil
            }
        }
    }

    /// ` value="…"`, or nothing for no value or an empty one.
    func writeValueAttribute(_ value: String?, to buffer: inout PageBuffer) {
        guard let value, !value.isEmpty else { return }
        valueAttribute.write(to: &buffer) { $0 == .value ? value : nil }
    }

    /// A radio (or with `several` a checkbox) of a choice whose options are not in the plan,
    /// its id `id` (``DOMID/listOption(_:index:)`` or ``DOMID/keptOption(_:index:)``) and its
    /// label written by `text`.
    func writeChoice(
        id: String, field: String, several: Bool, value: String, checked: Bool,
        to buffer: inout PageBuffer, text: (inout PageBuffer) -> Void
    ) {
        choiceOption.write(to: &buffer) { part, buffer in
            switch part {
            case .type: buffer.writeStaticString(several ? "checkbox" : "radio")
            case .id: HTML.writeEscaped(id, to: &buffer)
            case .name: HTML.writeEscaped(field, to: &buffer)
            case .value: HTML.writeEscaped(value, to: &buffer)
            case .checked: if checked { self.checked.write(to: &buffer) }
            case .text: text(&buffer)
            default: break
            }
        }
    }
}

/// A fragment template's context: every name is a part's sentinel; names that are no part are noted.
private final class PartSentinels: MustacheParent {
    let registry = SentinelRegistry<Fragment.Part>()
    private(set) var unknown: [String] = []

    func child(named name: String) -> Any? {
        guard let part = Fragment.Part(rawValue: name) else {
            unknown.append(name)
            return nil
        }
        return registry.sentinel(part)
    }
}
