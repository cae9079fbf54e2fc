/// Names of inputs a form page sends beside its fields' own values: written by the page's
/// markup, read back by the web layer's submission reader.
package enum InputName {
    /// The hidden input carrying the page's CSRF token (double submit: its cookie's HMAC).
    package static let csrf = "_csrf"

    /// The hidden input with the signed values a create view gave its read-only fields.
    package static let prefill = "_prefill"

    /// The hidden input with a create view's one-time token: the create it sends is stored once.
    package static let once = "_once"

    /// The hidden input with the signed draft a refused activation kept open in the service
    /// (a form in mode `service`): the corrected create goes on with it.
    package static let draft = "_draft"

    /// The hidden input with the ETag of the values an edit view of a service's object shows:
    /// its save is sent with it as `If-Match`.
    package static let etag = "_etag"

    /// The Cancel button of a create view that keeps a draft: the form goes to the discard route.
    package static let discard = "_discard"

    /// The checkbox that sends a kept file's id back, `NAME._kept`. The server only accepts ids
    /// it can resolve for this object or this browser's staged uploads.
    package static func keptFiles(of field: String) -> String { "\(field)._kept" }

    /// The submit button that searches a long value list instead of sending the form (without
    /// JavaScript); its value names the field. The form comes back with everything typed kept.
    package static let search = "_search"

    /// The submit button that takes the match chosen in a long value list's search, without
    /// JavaScript, and comes back with the fields that choice gives filled in; its value names
    /// the field. Nothing is validated or stored.
    package static let pick = "_pick"

    /// The submit button of a form with rules (an XForm's `relevant`) that shows the form again
    /// with the questions that apply to its answers, without JavaScript. Nothing is validated
    /// or stored.
    package static let update = "_update"
    /// A language switch's button (its value a language tag): the form again in that language,
    /// everything typed kept, and the choice kept in the `lang` cookie.
    package static let language = "_lang"

    /// The submit button that adds an item to an item list, without JavaScript; its value is
    /// the list's path (`members`, `members[0].doses`). The form comes back with everything kept
    /// and one more item. Nothing is validated or stored.
    package static let addItem = "_add"

    /// The submit button that removes an item, without JavaScript; its value is the item's
    /// path (`members[1]`). The form comes back without it, everything else kept.
    package static let removeItem = "_remove"

    /// The search box of a long value list, `NAME._q`.
    package static func searchQuery(of field: String) -> String { "\(field)._q" }

    /// The query whose matches the page shows for a long value list, `NAME._searched`: Enter
    /// in a search box with a new query searches, Enter anywhere else sends the form.
    package static func searchedQuery(of field: String) -> String { "\(field)._searched" }

    /// The hidden first submit button of a form with a long value list: the form's default
    /// button, which Enter in a text box clicks (implicit submission), so the server can tell
    /// Enter from a click on Create or Save.
    package static let enter = "_enter"
}
