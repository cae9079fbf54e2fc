import FormModel
import FormXML

/// What makes a document an ODK XForm: the XForms importer's answers to `FormImporter`. It
/// takes a root `html` in the XHTML namespace (`takes`); the document is parsed once into the
/// lean tree, and `recognise` finds the XForm's parts, or refuses it saying which is missing.
enum XFormRecognizer {
    /// Whether the XForms importer takes a document whose root element is this: `html` in the
    /// XHTML namespace, whatever its prefix.
    static func takes(_ root: XMLRootElement) -> Bool {
        root.localName == "html" && root.namespaceURI == XFormNamespace.xhtml
    }

    /// How an XForm starts, for the refusal of a root no importer takes.
    static let expectedRoot = "<h:html> (ODK XForm)"

    /// A parsed `h:html` document, ready for `XFormImporter`: its head, model and primary
    /// instance found by namespace URI; throws `not-an-xform` naming what is missing.
    static func recognise(
        _ xml: LeanXMLDocument, bytes: [UInt8], name: String
    ) throws(ImportFailure)
        -> XFormImporter.Document
    {
        let (root, count) = XFormElement.copy(xml)
        let source = XFormSource(bytes, elementCount: count)
        func refuse(_ message: String, line: Int) -> ImportFailure {
            ImportFailure([ImportError(code: .notAnXForm, message: message, file: name, line: line)])
        }
        guard let head = root.child("head", in: XFormNamespace.xhtml) else {
            throw refuse(
                "The document is no XForm: its <h:html> has no <h:head> (in the XHTML namespace \(XFormNamespace.xhtml)).",
                line: root.line)
        }
        guard let model = head.child("model", in: XFormNamespace.xforms) else {
            throw refuse(
                "The document is no XForm: its <h:head> has no <model> in the XForms namespace (\(XFormNamespace.xforms)).",
                line: head.line)
        }
        guard let instance = model.child("instance", in: XFormNamespace.xforms) else {
            throw refuse(
                "The document is no XForm: its <model> has no <instance> (the primary instance, with the form's data nodes).",
                line: model.line)
        }
        guard let data = instance.children.first else {
            throw refuse(
                "The document is no XForm: its primary <instance> is empty; it must hold one root element with the form's data nodes.",
                line: instance.line)
        }
        return XFormImporter.Document(
            name: name, warnings: xml.warnings, source: source, root: root, head: head, model: model,
            primaryInstance: instance, data: data)
    }
}
