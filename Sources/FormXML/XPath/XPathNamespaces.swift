/// The namespaces ODK expressions use, and how a form's declarations become the prefixes an
/// XPath context knows.
public enum XPathNamespaces {
    /// `jr:` (JavaRosa): `jr:itext`, `jr:choice-name`, `jr:constraintMsg`.
    public static let javaRosa = "http://openrosa.org/javarosa"
    /// `orx:` (OpenRosa): `orx:meta`, `orx:instanceID`. Some forms declare it with a trailing
    /// slash; both are read as this one.
    public static let openRosa = "http://openrosa.org/xforms"
    /// `odk:` (ODK XForms extensions).
    public static let odk = "http://www.opendatakit.org/xforms"
    /// The XForms namespace, the default one of a form's model: dropped from instance documents.
    public static let xforms = "http://www.w3.org/2002/xforms"

    /// The prefix an instance document declares for a namespace it copies (`XPathDocument`).
    static let usualPrefixes = [javaRosa: "jr", openRosa: "orx", odk: "odk"]

    /// A namespace URI as the evaluator reads it: OpenRosa's with a trailing slash without it.
    static func normalized(_ uri: String) -> String {
        uri == openRosa + "/" ? openRosa : uri
    }

    /// The prefixes an evaluation context registers: the form's (the default namespace has no
    /// prefix in XPath 1.0, so it is left out), plus `jr`, `orx` and `odk` unless the form binds
    /// them otherwise.
    static func bindings(_ declared: [String: String]) -> [String: String] {
        var result = ["jr": javaRosa, "orx": openRosa, "odk": odk]
        for (prefix, uri) in declared where !prefix.isEmpty {
            result[prefix] = normalized(uri)
        }
        return result
    }
}
