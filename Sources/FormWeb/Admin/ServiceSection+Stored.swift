import FormPages
import FormService
import FormStore
import Foundation

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
        let settings = stored?.settings
        let secretStored = stored?.hasSecret ?? false
        let form =
            entered
            ?? stored.map { ServiceConnectionForm(stored: $0, mode: $0.modes[formID] ?? .service) }
            ?? ServiceConnectionForm()
        self.init(
            formID: PageText(formID), connected: stored != nil, url: PageText(settings?.url),
            authentication: PageText(stored.map(Self.authentication)),
            sapClient: PageText.nonEmpty(settings?.sapClient) ?? PageText("not set"),
            sapLanguage: PageText.nonEmpty(settings?.sapLanguage) ?? PageText("not set"),
            tested: PageText(stored?.testedAt.map(AdminPage.timestamp) ?? "never"),
            updated: PageText(
                stored.map { stored in
                    (stored.updatedAt.map(AdminPage.timestamp) ?? "") + (stored.updatedBy.map { " by \($0)" } ?? "")
                }),
            storedDrift: stored.map { stored in
                DriftReport(
                    stored.drift.flatMap { try? JSONDecoder().decode(ServiceDrift.self, from: Data($0.utf8)) }
                        ?? ServiceDrift())
            },
            connectedForms: (stored?.modes ?? [:]).sorted { $0.key < $1.key }.map { id, mode in
                ConnectedForm(
                    id: PageText(id), title: PageText(titles[id] ?? id), isThisForm: id == formID,
                    inService: mode == .service)
            },
            unknownCreates: unknown.map { object in
                let id = object.id.uuidString.lowercased()
                return UnknownCreate(
                    href: PageText("/forms/\(object.formID)/\(id)"),
                    text: PageText(object.keyText.isEmpty ? id : object.keyText),
                    requestID: PageText(object.service?.requestID?.uuidString.lowercased() ?? "none recorded"),
                    when: object.createdAt.map(AdminPage.timestamp) ?? "")
            },
            testResult: test.map {
                TestResult(url: PageText(entered?.url), drift: DriftReport($0), secretTyped: secretTyped)
            },
            fields: Self.fields(form, secretStored: secretStored, secretTyped: secretTyped))
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
            TextInput(
                ids: Self.ids(name), name: name, label: label, hint: hint, value: value, error: form.errors[name],
                type: type, autocomplete: autocomplete)
        }
        func choice(_ group: String, _ value: String, _ label: String, hint: String? = nil, chosen: String) -> Choice {
            Choice(
                id: Self.choiceID(group, value), name: group, value: value, label: label, hint: hint,
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

extension ServiceSection.DriftReport {
    /// The report of what a test of the connection found.
    init(_ drift: ServiceDrift) {
        self.init(
            differences: drift.differences.map { PageText($0.message) },
            references: drift.valueHelpReferences.map { PageText($0.summary) },
            unresolved: drift.valueHelpReferences?.unresolved.map { PageText($0.message) } ?? [])
    }
}
