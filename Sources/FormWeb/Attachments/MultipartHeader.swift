import Foundation

/// The two header values a multipart/form-data reader needs to understand: the request's
/// `Content-Type` (for the boundary) and each part's `Content-Disposition`.
enum MultipartHeader {
    /// The boundary of a `multipart/form-data` content type, or nil when it is something else.
    static func boundary(ofContentType contentType: String?) -> String? {
        guard let contentType else { return nil }
        let (type, parameters) = split(contentType)
        guard type == "multipart/form-data", let boundary = parameters["boundary"] else { return nil }
        // RFC 2046: 1 to 70 characters; longer ones only serve to slow the parser down.
        guard (1...70).contains(boundary.utf8.count) else { return nil }
        return boundary
    }

    /// The input name and file name (nil for a plain field) of a part's `Content-Disposition`.
    static func disposition(_ value: String) -> (name: String?, filename: String?)? {
        let (type, parameters) = split(value)
        guard type == "form-data" else { return nil }
        var filename = parameters["filename"]
        // RFC 5987 form, which browsers do not send but other clients may; it wins when readable.
        if let extended = parameters["filename*"], let decoded = decodeExtended(extended) {
            filename = decoded
        }
        return (parameters["name"], filename)
    }

    /// `type; a=b; c="d \"e\""` → ("type", ["a": "b", "c": "d \"e\""]), names lowercased.
    static func split(_ value: String) -> (type: String, parameters: [String: String]) {
        var scalars = Substring(value).unicodeScalars[...]
        func skipSpaces() { while let s = scalars.first, s == " " || s == "\t" { scalars.removeFirst() } }
        func token() -> String {
            var out = String.UnicodeScalarView()
            while let s = scalars.first, s != ";", s != "=" {
                out.append(s)
                scalars.removeFirst()
            }
            return String(out).trimmingCharacters(in: .whitespaces)
        }
        let type = token().lowercased()
        var parameters: [String: String] = [:]
        while let s = scalars.first, s == ";" {
            scalars.removeFirst()
            skipSpaces()
            let name = token().lowercased()
            guard scalars.first == "=" else { continue }
            scalars.removeFirst()
            skipSpaces()
            var parameter = String.UnicodeScalarView()
            if scalars.first == "\"" {
                scalars.removeFirst()
                while let s = scalars.popFirst(), s != "\"" {
                    // A quoted-pair: the next character stands for itself.
                    if s == "\\", let next = scalars.popFirst() { parameter.append(next) } else { parameter.append(s) }
                }
                while let s = scalars.first, s != ";" { scalars.removeFirst() }
            } else {
                while let s = scalars.first, s != ";" {
                    parameter.append(s)
                    scalars.removeFirst()
                }
            }
            if !name.isEmpty, parameters[name] == nil {
                parameters[name] = String(parameter).trimmingCharacters(in: .whitespaces)
            }
        }
        return (type, parameters)
    }

    /// `UTF-8''na%C3%AFve.txt` → `naïve.txt`; nil for other charsets or bad escapes.
    static func decodeExtended(_ value: String) -> String? {
        let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3, pieces[0].lowercased() == "utf-8" else { return nil }
        return String(pieces[2]).removingPercentEncoding
    }
}
