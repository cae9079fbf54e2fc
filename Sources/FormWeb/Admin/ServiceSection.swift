import FormPages
import FormService
import FormStore
import Foundation

/// The "Service" section of an OData form's admin page (`admin/form`): the stored connection
/// (never its secret) with its drift report, the import's forms with their modes, the creates
/// of this form whose outcome is unknown, and the form that tests and connects.
struct ServiceSection {
    let formID: PageText
    let connected: Bool
    let url: PageText
    let authentication: PageText
    let sapClient: PageText
    let sapLanguage: PageText
    let tested: PageText
    let updated: PageText
    /// The drift report of the last stored test.
    let storedDrift: DriftReport?
    let connectedForms: [ConnectedForm]
    let unknownCreates: [UnknownCreate]
    let hasUnknownCreates: Bool
    /// Shown when connected, or when creates of an earlier connection are still unknown.
    let showsUnknown: Bool
    /// The answer of "Test connection", which stored nothing.
    let testResult: TestResult?
    let fields: Fields
    /// Whether a secret is stored for the connection (the form then says an empty field keeps it).
    let secretStored: Bool

    /// A drift report: each difference's message, or that there is none.
    struct DriftReport {
        let differences: [PageText]
        let noDrift: Bool
        /// How many value helps in services of their own were followed; nil when there are none.
        let references: PageText?
        /// Why each value help in a service of its own that was not followed was not.
        let unresolved: [PageText]
        let hasUnresolved: Bool

        init(_ drift: ServiceDrift) {
            differences = drift.differences.map { PageText($0.message) }
            noDrift = drift.isEmpty
            references = drift.valueHelpReferences.map { PageText($0.summary) }
            unresolved = drift.valueHelpReferences?.unresolved.map { PageText($0.message) } ?? []
            hasUnresolved = !unresolved.isEmpty
        }
    }

    /// What a test found: the service answered, and its drift.
    struct TestResult {
        let url: PageText
        let drift: DriftReport
        /// A password or token was typed for the test: Connect needs it typed again.
        let secretTyped: Bool
    }

    /// A form of the connected import and its mode, with its radio buttons.
    struct ConnectedForm {
        let id: PageText
        let title: PageText
        let isThisForm: Bool
        let inService: Bool
    }

    /// A create sent to the service whose answer was lost.
    struct UnknownCreate {
        let href: PageText
        let text: PageText
        let requestID: PageText
        let when: String
    }

    /// The connect form's controls, each with its value and error.
    struct Fields {
        let url: TextInput
        let authChoices: [Choice]
        let authError: PageText
        let credentials: [TextInput]
        let sap: [TextInput]
        let modeChoices: [Choice]
        let modeError: PageText
        /// The ids of the two groups of choices (their errors).
        let authField = ServiceSection.ids("auth")
        let modeField = ServiceSection.ids("mode")
    }

    /// The ids of the form's input `name` (`service-url`), or of a group of choices.
    static func ids(_ name: String) -> ControlIDs { ControlIDs(id: "service-" + name) }

    /// The id of the choice `value` of the group `group` (`service-auth-none`).
    static func choiceID(_ group: String, _ value: String) -> String { "service-\(group)-\(value)" }

    /// A text or password input with its label, hint and error (`admin/service-input`).
    struct TextInput {
        let ids: ControlIDs
        let name: String
        let label: String
        let hint: PageText
        let value: PageText
        let error: PageText
        let type: String
        let autocomplete: String
        let describedBy: PageText
    }

    /// A radio button of a group.
    struct Choice {
        let id: String
        let name: String
        let value: String
        let label: String
        let hint: PageText
        let checked: Bool
        /// The id of its hint (``DOMID/hint(of:)``), stored: templates read stored values only.
        let hintID: String

        init(id: String, name: String, value: String, label: String, hint: PageText, checked: Bool) {
            self.id = id
            self.name = name
            self.value = value
            self.label = label
            self.hint = hint
            self.checked = checked
            hintID = DOMID.hint(of: id)
        }
    }
}

extension ServiceSection {
    /// The section for a form, from what is stored and what was sent.
    /// - Parameters:
    ///   - stored: the connection of the form's import, if any.
    ///   - titles: the title of each connected form, by id.
    ///   - unknown: this form's creates whose outcome is unknown.
    ///   - entered: the form as sent (after a refusal or a test), else nil to fill it from `stored`.
    ///   - test: the drift a test found, when this page answers one.
    init(
        formID: String, stored: StoredConnection?, titles: [String: String], unknown: [StoredObject],
        entered: ServiceConnectionForm?, test: ServiceDrift?, secretTyped: Bool = false
    ) {
        self.formID = PageText(formID)
        connected = stored != nil
        let settings = stored?.settings
        url = PageText(settings?.url)
        authentication = PageText(stored.map(Self.authentication))
        sapClient = PageText.nonEmpty(settings?.sapClient) ?? PageText("not set")
        sapLanguage = PageText.nonEmpty(settings?.sapLanguage) ?? PageText("not set")
        tested = PageText(stored?.testedAt.map(AdminPage.timestamp) ?? "never")
        updated = PageText(
            stored.map { stored in
                (stored.updatedAt.map(AdminPage.timestamp) ?? "") + (stored.updatedBy.map { " by \($0)" } ?? "")
            })
        storedDrift = stored.map { stored in
            DriftReport(
                stored.drift.flatMap { try? JSONDecoder().decode(ServiceDrift.self, from: Data($0.utf8)) }
                    ?? ServiceDrift())
        }
        connectedForms = (stored?.modes ?? [:]).sorted { $0.key < $1.key }.map { id, mode in
            ConnectedForm(
                id: PageText(id), title: PageText(titles[id] ?? id), isThisForm: id == formID,
                inService: mode == .service)
        }
        unknownCreates = unknown.map { object in
            let id = object.id.uuidString.lowercased()
            return UnknownCreate(
                href: PageText("/forms/\(object.formID)/\(id)"),
                text: PageText(object.keyText.isEmpty ? id : object.keyText),
                requestID: PageText(object.service?.requestID?.uuidString.lowercased() ?? "none recorded"),
                when: object.createdAt.map(AdminPage.timestamp) ?? "")
        }
        hasUnknownCreates = !unknown.isEmpty
        showsUnknown = stored != nil || !unknown.isEmpty
        testResult = test.map {
            TestResult(url: PageText(entered?.url), drift: DriftReport($0), secretTyped: secretTyped)
        }
        secretStored = stored?.hasSecret ?? false
        let form =
            entered
            ?? stored.map { ServiceConnectionForm(stored: $0, mode: $0.modes[formID] ?? .service) }
            ?? ServiceConnectionForm()
        fields = Self.fields(form, secretStored: secretStored, secretTyped: secretTyped)
    }

    /// "Basic, user ana; a password is stored": what the page says of the credentials.
    static func authentication(_ stored: StoredConnection) -> String {
        let settings = stored.settings
        let stored = stored.hasSecret
        switch settings.auth {
        case .none:
            return "None"
        case .basic:
            return "Basic, user \(settings.user ?? "")"
                + (stored ? "; a password is stored" : "; no password is stored")
        case .bearer:
            return "Bearer token" + (stored ? "; a token is stored" : "; no token is stored")
        case .header:
            return "Header \(settings.headerName ?? "")" + (stored ? "; its value is stored" : "; no value is stored")
        }
    }

    private static func fields(_ form: ServiceConnectionForm, secretStored: Bool, secretTyped: Bool) -> Fields {
        func input(
            _ name: String, label: String, hint: String?, value: String, type: String = "text",
            autocomplete: String = "off"
        ) -> TextInput {
            let ids = Self.ids(name)
            let error = form.errors[name]
            let describedBy = [hint.map { _ in ids.hintID }, error.map { _ in ids.errorID }].compactMap { $0 }
            return TextInput(
                ids: ids, name: name, label: label, hint: PageText(hint), value: PageText(value),
                error: PageText(error), type: type, autocomplete: autocomplete,
                describedBy: PageText.nonEmpty(describedBy.joined(separator: " ")) ?? .none)
        }
        func choice(_ group: String, _ value: String, _ label: String, hint: String? = nil, chosen: String) -> Choice {
            Choice(
                id: Self.choiceID(group, value), name: group, value: value, label: label, hint: PageText(hint),
                checked: value == chosen)
        }
        let auth = ServiceConnectionSettings.Auth(rawValue: form.auth) == nil ? "none" : form.auth
        let mode = ServiceMode(rawValue: form.mode) == nil ? "service" : form.mode
        return Fields(
            url: input(
                "url", label: "Service root URL",
                hint:
                    "The URL the service's $metadata is under, ending in /, such as https://host/sap/opu/odata/sap/GWSAMPLE_BASIC/",
                value: form.url, type: "url"),
            authChoices: [
                choice("auth", "none", "None", chosen: auth),
                choice("auth", "basic", "Basic (user and password)", chosen: auth),
                choice("auth", "bearer", "Bearer token", chosen: auth),
                choice("auth", "header", "A named header (an API key)", chosen: auth),
            ],
            authError: PageText(form.errors["auth"]),
            credentials: [
                input("user", label: "User", hint: "For basic authentication.", value: form.user),
                input(
                    "header", label: "Header name", hint: "For a named header, such as APIKey.", value: form.header),
                input(
                    "secret", label: "Password or token",
                    hint: (secretStored
                        ? "The password, token or header value. One is stored: leave this empty to keep it."
                        : "The password, token or header value. It is stored sealed and never shown again.")
                        + (secretTyped ? " What you typed is never written back into the page: type it again." : ""),
                    value: "", type: "password", autocomplete: "new-password"),
            ],
            sap: [
                input(
                    "sap-client", label: "sap-client (optional)", hint: "The SAP client, such as 100.",
                    value: form.sapClient),
                input(
                    "sap-language", label: "sap-language (optional)",
                    hint: "The language the service answers in, such as EN.",
                    value: form.sapLanguage),
            ],
            modeChoices: [
                choice(
                    "mode", "service", "Service",
                    hint: "The service holds the objects: creates, edits and deletes are sent to it.", chosen: mode),
                choice(
                    "mode", "local", "Local", hint: "Fieldwork holds the objects, as before connecting.", chosen: mode),
            ],
            modeError: PageText(form.errors["mode"]))
    }
}
