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

extension SafeXMLDocument {
    /// `parse(_:elementsOnly:)`, its refusal worded as an import error naming `file`.
    static func parse(
        _ bytes: [UInt8], file: String?, elementsOnly: Bool = false
    ) throws(ImportFailure) -> SafeXMLDocument {
        do {
            return try parse(bytes, elementsOnly: elementsOnly)
        } catch {
            throw ImportFailure([ImportError(error, file: file)])
        }
    }
}
