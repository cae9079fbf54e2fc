/// Names of inputs a form page sends beside its fields' own values: written by the page's
/// markup, read back by ``SubmissionReader``.
enum InputName {
    /// The checkbox that sends a kept file's id back, `NAME._kept`. The server only accepts ids
    /// it can resolve for this object or this browser's staged uploads.
    static func keptFiles(of field: String) -> String { "\(field)._kept" }
}
