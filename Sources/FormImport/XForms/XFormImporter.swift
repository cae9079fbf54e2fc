import FormModel
import FormXML

/// Imports an ODK XForm into one form and its rules (the XForms mapping: Input, Controls,
/// Texts, Import report). Only what the mapping refuses is refused: XML that is not well-formed
/// or has a DOCTYPE (the XML layer), a document that is no XForm (`XFormRecognizer`), and a bind
/// `nodeset` or control `ref` that matches no node of the primary instance; everything else
/// imports, with warnings for what it left out. Expressions are kept as written, each with its
/// place, in `XFormRules`.
enum XFormImporter {
    /// A parsed XForm, with the parts `XFormRecognizer.recognise` found.
    struct Document {
        var name: String
        var warnings: [XMLDiagnostic]
        var source: XFormSource
        var root: XFormElement
        var head: XFormElement
        var model: XFormElement
        /// The first `<instance>` of the model.
        var primaryInstance: XFormElement
        /// The primary instance's root element (`<data id="...">`).
        var data: XFormElement
    }

    struct Output {
        var form: FormSchema
        var rules: XFormRules
        var warnings: [ImportWarning]
    }

    /// What an `<output>` shows in a form's labels until the page evaluates it.
    static let outputPlaceholder = "…"

    /// Imports one parsed XForm; throws the refusals (every node that a bind or control names
    /// but the primary instance lacks, with line and column).
    static func importDocument(_ document: Document) throws(ImportFailure) -> Output {
        let mapper = XFormMapper(document)
        return try mapper.run()
    }
}
