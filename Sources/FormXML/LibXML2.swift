internal import CLibXML2
import Foundation

// FormXML is the XML layer, the only target that imports CLibXML2. A document is parsed once,
// into one of two representations, each a type of its own: libxml2's DOM (`SafeXMLDocument`,
// `SafeXMLElement`), which the XSD validator (`XMLSchemaValidator`) and XPath need, or the lean
// SAX-built tree element-only formats such as EDMX are read into (`LeanXMLDocument`: a
// `LeanTree` built by `LeanBuilder`, walked as `XMLNode`). Which one a document needs is decided
// before it is parsed, from its root element (`XMLRootElement.probe`, which reads up to the
// root's start tag only). Around them: diagnostics (`XMLDiagnostic`) and the parse guards every
// parse shares (`ParseState.parse`, `XMLLimits`). The XPath evaluator the XForms importer will
// need goes here too, in a file of its own beside `SafeXMLDocument`, over the libxml2 tree.
//
// Everything here follows one safe-parsing recipe: a fresh parser context per document, no
// network, no entity substitution, no DTD loading, per-context error capture, a deny-all
// external entity loader, and any DOCTYPE refused as soon as the parser sees it. Never pass
// XML_PARSE_NOENT: despite its name it turns entity substitution on (an XXE payload then reads
// local files). libxml2's structured-error function is per thread, useless under Swift
// concurrency, so errors are captured per context (the parser's `sax->serror`, the schema
// contexts' handlers).

/// Process-wide libxml2 set-up and small conversions.
enum LibXML2 {
    private static let initialised: Bool = {
        xmlInitParser()
        // A second wall behind NONET and the DOCTYPE refusal: no external entity, DTD or
        // schema import is ever loaded, from disk or network.
        xmlSetExternalEntityLoader { _, _, _ in nil }
        return true
    }()

    static func ensureInitialised() { _ = initialised }

    static func string(_ chars: UnsafePointer<xmlChar>?) -> String? {
        chars.map { String(cString: $0) }
    }

    /// An attribute's value. With no DTD there are no entity references left in it, so it is
    /// almost always one text node whose content can be read in place.
    static func attributeValue(_ attr: xmlAttrPtr) -> String {
        if let text = attr.pointee.children, text.pointee.next == nil, text.pointee.type == XML_TEXT_NODE {
            return text.pointee.content.map { String(cString: $0) } ?? ""
        }
        return owned(xmlNodeListGetString(attr.pointee.doc, attr.pointee.children, 1)) ?? ""
    }

    /// Converts and frees a string libxml2 allocated for us.
    static func owned(_ chars: UnsafeMutablePointer<xmlChar>?) -> String? {
        guard let chars else { return nil }
        defer { fieldwork_xmlFree(chars) }
        return String(cString: chars)
    }
}
