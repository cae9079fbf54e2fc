import Foundation

/// Paths that are safe to redirect to after sign-in: this site's own.
enum LocalPath {
    /// The path when it stays on this site (`/x`, not `//host` or `/\host`), else `/`.
    static func safe(_ path: String?) -> String {
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), !path.hasPrefix("/\\"),
            !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\\" })
        else { return "/" }
        return path
    }

    static func percentEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "/"
    }
}
