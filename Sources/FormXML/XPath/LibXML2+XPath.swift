internal import CLibXML2

extension LibXML2 {
    /// Calls `body` with `string` as the NUL-terminated UTF-8 `xmlChar` text libxml2 takes,
    /// without copying it.
    static func withXMLChars<R>(_ string: String, _ body: (UnsafePointer<xmlChar>) -> R) -> R {
        string.withCString { body(UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self)) }
    }

    /// The same for two strings.
    static func withXMLChars<R>(
        _ first: String, _ second: String, _ body: (UnsafePointer<xmlChar>, UnsafePointer<xmlChar>) -> R
    ) -> R {
        withXMLChars(first) { a in withXMLChars(second) { b in body(a, b) } }
    }
}
