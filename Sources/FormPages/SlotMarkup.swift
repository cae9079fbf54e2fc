import Mustache

/// The markup the slots of every plan write, as fragments of the templates in `Templates/slots/`
/// (and the error summary box, `partials/error-summary`); built once per ``PageRenderer``.
///
/// A slot template is inline markup with `{{part}}` holes (``Fragment/Part``), no sections: what
/// varies per request is chosen in ``RenderPlan`` by writing one fragment or another. The file's
/// last newline is not part of the fragment.
final class SlotMarkup: Sendable {
    /// The error summary box; its `{{items}}` are error items.
    let errorSummary: Fragment
    /// One error in the summary: `{{field}}`, `{{message}}`.
    let errorItem: Fragment
    /// The error under a field's cell: `{{field}}`, `{{message}}`.
    let fieldError: Fragment
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
    /// An option of a long value list: `{{type}}`, `{{id}}`, `{{name}}`, `{{value}}`, `{{checked}}`, `{{text}}`.
    let choiceOption: Fragment
    /// A long list's search that found nothing: `{{text}}`.
    let noMatches: Fragment
    /// A select's option no longer offered: `{{value}}`, `{{checked}}` (as ` selected`), `{{text}}`.
    let keptOption: Fragment

    /// The templates the fragments come from, for the check that every template is there.
    static let templates =
        ["partials/error-summary"]
        + [
            "error-item", "field-error", "hidden-input", "file-list", "kept-file", "shown-file", "file-date",
            "file-image",
            "file-icon", "more-items", "more-item", "list-item", "list-empty", "account", "admin-link", "sign-in",
            "pager",
            "pager-newer", "pager-older", "choice-option", "no-matches", "kept-option",
        ].map { "slots/\($0)" }

    init(library: MustacheLibrary) throws(RenderPlanError) {
        errorSummary = try Self.fragment("partials/error-summary", library: library, inline: false)
        errorItem = try Self.fragment("slots/error-item", library: library)
        fieldError = try Self.fragment("slots/field-error", library: library)
        hiddenInput = try Self.fragment("slots/hidden-input", library: library)
        fileList = try Self.fragment("slots/file-list", library: library)
        keptFile = try Self.fragment("slots/kept-file", library: library)
        shownFile = try Self.fragment("slots/shown-file", library: library)
        fileDate = try Self.fragment("slots/file-date", library: library)
        fileImage = try Self.fragment("slots/file-image", library: library)
        fileIcon = try Self.fragment("slots/file-icon", library: library)
        moreItems = try Self.fragment("slots/more-items", library: library)
        moreItem = try Self.fragment("slots/more-item", library: library)
        listItem = try Self.fragment("slots/list-item", library: library)
        listEmpty = try Self.fragment("slots/list-empty", library: library)
        account = try Self.fragment("slots/account", library: library)
        adminLink = try Self.fragment("slots/admin-link", library: library)
        signIn = try Self.fragment("slots/sign-in", library: library)
        pager = try Self.fragment("slots/pager", library: library)
        pagerNewer = try Self.fragment("slots/pager-newer", library: library)
        pagerOlder = try Self.fragment("slots/pager-older", library: library)
        choiceOption = try Self.fragment("slots/choice-option", library: library)
        noMatches = try Self.fragment("slots/no-matches", library: library)
        keptOption = try Self.fragment("slots/kept-option", library: library)
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
