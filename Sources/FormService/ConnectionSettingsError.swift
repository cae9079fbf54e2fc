/// A connection setting that cannot work, said as what to do; the text is shown on the admin
/// page and in the admin API's answer.
package struct ConnectionSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Stable: `root-url`, `root-scheme`, `root-credentials`, `root-query`, `limits`.
    package var code: String
    package var message: String

    package init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
