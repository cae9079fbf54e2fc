import FormPages
import FormStore

/// The admin page's service form as sent, or as the stored connection fills it: kept after a
/// refusal or a test. Never the secret: a password or token typed once is not written back
/// into any page.
struct ServiceConnectionForm: Sendable, Hashable {
    var url = ""
    /// `none`, `basic`, `bearer` or `header` (``ServiceConnectionSettings/Auth``), as sent.
    var auth = "none"
    var user = ""
    var header = ""
    var sapClient = ""
    var sapLanguage = ""
    /// `service` or `local`, as sent.
    var mode = "service"
    /// The message for each setting in error, by input name (`url`, `auth`, `user`, `header`,
    /// `secret`, `sap-client`, `sap-language`, `mode`).
    var errors: [String: String] = [:]

    /// The input names in the order the form shows them: the error summary's order.
    static let order = ["url", "auth", "user", "header", "secret", "sap-client", "sap-language", "mode"]

    init() {}

    /// The form as sent (the secret is read separately and not kept).
    init(fields: [String: [String]]) {
        func value(_ name: String) -> String { (fields[name]?.first ?? "").trimmingCharacters(in: .whitespaces) }
        url = value("url")
        auth = value("auth")
        user = value("user")
        header = value("header")
        sapClient = value("sap-client")
        sapLanguage = value("sap-language")
        mode = value("mode")
    }

    /// The form filled from a stored connection, in the mode of one of its forms.
    init(stored: StoredConnection, mode: ServiceMode) {
        let settings = stored.settings
        url = settings.url
        auth = settings.auth.rawValue
        user = settings.user ?? ""
        header = settings.headerName ?? ""
        sapClient = settings.sapClient ?? ""
        sapLanguage = settings.sapLanguage ?? ""
        self.mode = mode.rawValue
    }

    /// The element an error of an input is shown at (the first radio button of a group).
    static func anchor(_ name: String) -> String {
        switch name {
        case "auth": "#" + ServiceSection.choiceID("auth", "none")
        case "mode": "#" + ServiceSection.choiceID("mode", "service")
        default: ServiceSection.ids(name).link
        }
    }

    /// The error summary's lines, in the form's order.
    var problems: [AdminProblem] {
        Self.order.compactMap { name in errors[name].map { AdminProblem(text: $0, href: Self.anchor(name)) } }
    }
}
