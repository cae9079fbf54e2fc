internal import CLibXML2
import Foundation

/// A message libxml2 reported while parsing or validating, with where it points.
public struct XMLDiagnostic: Sendable, Hashable {
    public var isError: Bool
    /// libxml2's `xmlParserErrors` code.
    public var code: Int
    /// libxml2's text, trimmed.
    public var message: String
    /// 1-based, 0 when unknown.
    public var line: Int
    /// 1-based, 0 when unknown (validation errors have none).
    public var column: Int
    /// For validation errors: the element concerned, its parent and the attribute, when libxml2 names them.
    public var element: String?
    public var parentElement: String?
    public var attribute: String?

    public init(
        isError: Bool, code: Int, message: String, line: Int, column: Int, element: String? = nil,
        parentElement: String? = nil, attribute: String? = nil
    ) {
        self.isError = isError
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.element = element
        self.parentElement = parentElement
        self.attribute = attribute
    }

    /// One of libxml2's structured errors, with the element and attribute it points at.
    init(_ error: xmlErrorPtr) {
        let e = error.pointee
        self.init(
            isError: e.level.rawValue >= XML_ERR_ERROR.rawValue,
            code: Int(e.code),
            message: (e.message.map { String(cString: $0) } ?? "unknown error").trimmingCharacters(
                in: .whitespacesAndNewlines),
            line: Int(e.line),
            column: Int(e.int2))
        // Validation errors point at the node concerned: an element, or an attribute of one.
        if let raw = e.node {
            var node = raw.assumingMemoryBound(to: xmlNode.self)
            if node.pointee.type == XML_ATTRIBUTE_NODE {
                attribute = LibXML2.string(node.pointee.name)
                if let owner = node.pointee.parent { node = owner }
            }
            if node.pointee.type == XML_ELEMENT_NODE {
                element = LibXML2.string(node.pointee.name)
                if let parent = node.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE {
                    parentElement = LibXML2.string(parent.pointee.name)
                }
                if line == 0 { line = Int(xmlGetLineNo(node)) }
            }
        }
    }
}

/// Collects diagnostics from one libxml2 context; reached through the context's user data.
final class DiagnosticSink {
    var diagnostics: [XMLDiagnostic] = []

    /// Structured-error callback for schema contexts; the user data is a `DiagnosticSink`.
    static let collect: xmlStructuredErrorFunc = { userData, error in
        guard let userData, let error else { return }
        Unmanaged<DiagnosticSink>.fromOpaque(userData).takeUnretainedValue().diagnostics.append(XMLDiagnostic(error))
    }
}
