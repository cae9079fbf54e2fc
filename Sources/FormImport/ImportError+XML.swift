import FormModel
import FormXML

extension ImportError {
    /// Why the XML layer refused a document, in the words of an import: `too-large`, `doctype`,
    /// `too-deep`, `malformed-xml`, or `internal` when libxml2 could not make a parser.
    init(_ error: XMLParseError, file: String?) {
        switch error.reason {
        case .tooLarge(let size):
            self.init(
                code: .tooLarge,
                message:
                    "The document is \(ByteSize.describe(size)); documents over \(ByteSize.describe(XMLLimits.maximumDocumentBytes)) are refused.",
                file: file)
        case .doctype:
            self.init(
                code: .doctype,
                message:
                    "The document has a DOCTYPE; form specs must not declare one (remove <!DOCTYPE ...> and any entities).",
                file: file, line: error.line)
        case .tooDeep:
            self.init(
                code: .tooDeep,
                message:
                    "Elements are nested more than \(XMLLimits.maximumDepth) deep; a form spec needs far fewer levels.",
                file: file, line: error.line, column: error.column)
        case .malformed(let message?):
            self.init(
                code: .malformedXML, message: "Malformed XML: \(message). Fix the XML and import again.",
                file: file, line: error.line, column: error.column)
        case .malformed(nil):
            self.init(
                code: .malformedXML, message: "The document is not well-formed XML; fix it and import again.",
                file: file)
        case .noParser:
            self.init(code: .internal, message: "libxml2 could not create a parser; try again.", file: file)
        }
    }
}

extension ImportError {
    /// `unknown-format`: a document whose root element no importer takes, or that the importer
    /// that took it found not to be of its format. `why` follows "The root element is <name> in
    /// namespace …" (or "in no namespace") and says what was expected.
    static func unknownFormat(_ root: XMLRootElement, _ why: String, file: String) -> ImportError {
        let found = "<\(root.localName)>" + (root.namespaceURI.map { " in namespace \($0)" } ?? " in no namespace")
        return ImportError(
            code: .unknownFormat, message: "The root element is \(found)\(why)", file: file, line: root.line)
    }
}

extension SafeXMLDocument {
    /// `parse(_:)`, its refusal worded as an import error naming `file`.
    static func parse(_ bytes: [UInt8], file: String?) throws(ImportFailure) -> SafeXMLDocument {
        do {
            return try parse(bytes)
        } catch {
            throw ImportFailure([ImportError(error, file: file)])
        }
    }
}

extension LeanXMLDocument {
    /// `parse(_:)`, its refusal worded as an import error naming `file`.
    static func parse(_ bytes: [UInt8], file: String?) throws(ImportFailure) -> LeanXMLDocument {
        do {
            return try parse(bytes)
        } catch {
            throw ImportFailure([ImportError(error, file: file)])
        }
    }
}
