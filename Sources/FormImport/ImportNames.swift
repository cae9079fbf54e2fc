/// Names an importer makes for fields, item lists and option lists from what a document calls
/// them: one rule for ODK XForms and OData alike.
enum ImportNames {
    /// `[A-Za-z_][A-Za-z0-9_]*` (``FormModel/FormSchema/isValidName(_:)``) from any name: other
    /// characters become `_`, a leading digit gets `_` before it, nothing at all is `field`.
    static func valid(_ name: String) -> String {
        var out = String(
            name.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
                    ? Character(scalar) : "_"
            })
        if out.isEmpty { return "field" }
        if let first = out.unicodeScalars.first, ("0"..."9").contains(first) { out = "_" + out }
        return out
    }

    /// `base`, or `base_2`, `base_3`… when `taken` holds it.
    static func unique(_ base: String, taken: Set<String>) -> String {
        guard taken.contains(base) else { return base }
        var n = 2
        while taken.contains("\(base)_\(n)") { n += 1 }
        return "\(base)_\(n)"
    }
}
