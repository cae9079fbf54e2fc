internal import CLibXML2
import Foundation

/// A compiled XSD, shared by every validation that uses it (the native importer compiles its
/// `fieldwork-form-1.xsd` once: `XMLSchemaValidator.native` in `FormImport`).
public final class XMLSchemaValidator: @unchecked Sendable {
    // @unchecked: `schema` is written once in init and libxml2 only reads a compiled xmlSchema
    // during validation, so one compiled schema can be shared across tasks; each validation uses
    // its own xmlSchemaValidCtxt.
    private let schema: xmlSchemaPtr

    private init(schema: xmlSchemaPtr) { self.schema = schema }

    deinit { xmlSchemaFree(schema) }

    /// Why an XSD did not compile: libxml2's messages, joined.
    public struct CompileError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Compiles an XSD held in memory.
    public static func compile(_ xsd: [UInt8]) -> Result<XMLSchemaValidator, CompileError> {
        LibXML2.ensureInitialised()
        let parsed: (xmlSchemaPtr?, [XMLDiagnostic]) = xsd.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                guard let parserCtxt = xmlSchemaNewMemParserCtxt(chars.baseAddress, Int32(chars.count)) else {
                    return (nil, [])
                }
                defer { xmlSchemaFreeParserCtxt(parserCtxt) }
                let sink = DiagnosticSink()
                return withExtendedLifetime(sink) {
                    xmlSchemaSetParserStructuredErrors(
                        parserCtxt, DiagnosticSink.collect, Unmanaged.passUnretained(sink).toOpaque())
                    return (xmlSchemaParse(parserCtxt), sink.diagnostics)
                }
            }
        }
        guard let schema = parsed.0 else {
            return .failure(CompileError(description: parsed.1.map(\.message).joined(separator: "; ")))
        }
        return .success(XMLSchemaValidator(schema: schema))
    }

    /// Validates a document; returns every error found (empty when valid).
    public func validate(_ document: SafeXMLDocument) -> [XMLDiagnostic] {
        document.withDocPointer { doc in
            guard let validCtxt = xmlSchemaNewValidCtxt(schema) else {
                return [
                    XMLDiagnostic(
                        isError: true, code: -1, message: "libxml2 could not create a validation context", line: 0,
                        column: 0)
                ]
            }
            defer { xmlSchemaFreeValidCtxt(validCtxt) }
            let sink = DiagnosticSink()
            return withExtendedLifetime(sink) {
                xmlSchemaSetValidStructuredErrors(
                    validCtxt, DiagnosticSink.collect, Unmanaged.passUnretained(sink).toOpaque())
                let status = xmlSchemaValidateDoc(validCtxt, doc)
                let errors = sink.diagnostics.filter(\.isError)
                if status != 0 && errors.isEmpty {
                    return [
                        XMLDiagnostic(
                            isError: true, code: Int(status), message: "The document does not match the form schema",
                            line: 0, column: 0)
                    ]
                }
                return errors
            }
        }
    }
}
