/// Names of inputs a form page sends beside its fields' own values: written by the page's
/// markup, read back by ``SubmissionReader``.
enum InputName {
    /// The checkbox that sends a kept file's id back, `NAME._kept`. The server only accepts ids
    /// it can resolve for this object or this browser's staged uploads.
    static func keptFiles(of field: String) -> String { "\(field)._kept" }

    /// The submit button that searches a long value list instead of sending the form (without
    /// JavaScript); its value names the field. The form comes back with everything typed kept.
    static let search = "_search"

    /// The search box of a long value list, `NAME._q`.
    static func searchQuery(of field: String) -> String { "\(field)._q" }

    /// The query whose matches the page shows for a long value list, `NAME._searched`: Enter
    /// in a search box with a new query searches, Enter anywhere else sends the form.
    static func searchedQuery(of field: String) -> String { "\(field)._searched" }

    /// The hidden first submit button of a form with a long value list: the form's default
    /// button, which Enter in a text box clicks (implicit submission), so the server can tell
    /// Enter from a click on Create or Save.
    static let enter = "_enter"
}
