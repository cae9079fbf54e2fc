internal import CLibXML2
import Foundation

/// The first error libxml2 reported on an XPath context, through the context's structured
/// error callback (`install(on:)`): per context, so nothing goes to stderr or to another
/// thread's handler. `XPathEvaluationState` is one, with the rest of an evaluation's state.
class XPathErrorRecorder {
    /// libxml2's code, its message (or ours, for an ODK function's error) and the offset in the
    /// expression where it stopped.
    var error: (code: Int, message: String, offset: Int)?

    /// Keeps the first error of a run: later ones are consequences of it.
    func record(code: Int, message: String, offset: Int = 0) {
        if error == nil { error = (code, message, offset) }
    }

    /// Makes this recorder the context's error callback's target (`userData`), for as long as
    /// the caller keeps it alive.
    func install(on context: xmlXPathContextPtr) {
        context.pointee.userData = Unmanaged.passUnretained(self).toOpaque()
        context.pointee.error = { userData, error in
            guard let userData, let error else { return }
            let code = Int(error.pointee.code)
            // xmlXPathErr fills in the code but not the message on a context's error.
            let message =
                error.pointee.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
                ?? XPathErrorRecorder.message(code)
            Unmanaged<XPathErrorRecorder>.fromOpaque(userData).takeUnretainedValue().record(
                code: code, message: message, offset: Int(error.pointee.int1))
        }
    }

    /// libxml2's message for an XPath error code (`xmlXPathErrorMessages` in xpath.c, 2.9.14).
    static func message(_ code: Int) -> String {
        let index = code - 1200
        return messages.indices.contains(index) ? messages[index] : "XPath error \(code)"
    }

    private static let messages = [
        "Ok", "Number encoding", "Unfinished literal", "Start of literal", "Expected $ for variable reference",
        "Undefined variable", "Invalid predicate", "Invalid expression", "Missing closing curly brace",
        "Unregistered function", "Invalid operand", "Invalid type", "Invalid number of arguments",
        "Invalid context size", "Invalid context position", "Memory allocation error", "Syntax error",
        "Resource error", "Sub resource error", "Undefined namespace prefix", "Encoding error",
        "Char out of XML range", "Invalid or incomplete context", "Stack usage error", "Forbidden variable",
        "Operation limit exceeded", "Recursion depth limit exceeded",
    ]

    /// Compiles one expression on `context`, whose errors this recorder receives.
    func compile(_ expression: String, on context: xmlXPathContextPtr) -> xmlXPathCompExprPtr? {
        error = nil
        return LibXML2.withXMLChars(expression) { fieldwork_xpath_compile(context, $0) }
    }
}
