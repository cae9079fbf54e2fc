/// The "Service" section of an OData form's admin page (`admin/form`): the stored connection
/// (never its secret) with its drift report, the import's forms with their modes, the creates
/// of this form whose outcome is unknown, and the form that tests and connects.
package struct ServiceSection {
    package let formID: PageText
    package let connected: Bool
    package let url: PageText
    package let authentication: PageText
    package let sapClient: PageText
    package let sapLanguage: PageText
    package let tested: PageText
    package let updated: PageText
    /// The drift report of the last stored test.
    package let storedDrift: DriftReport?
    package let connectedForms: [ConnectedForm]
    package let unknownCreates: [UnknownCreate]
    package let hasUnknownCreates: Bool
    /// Shown when connected, or when creates of an earlier connection are still unknown.
    package let showsUnknown: Bool
    /// The answer of "Test connection", which stored nothing.
    package let testResult: TestResult?
    package let fields: Fields

    package init(
        formID: PageText, connected: Bool, url: PageText, authentication: PageText, sapClient: PageText,
        sapLanguage: PageText, tested: PageText, updated: PageText, storedDrift: DriftReport?,
        connectedForms: [ConnectedForm], unknownCreates: [UnknownCreate], testResult: TestResult?, fields: Fields
    ) {
        self.formID = formID
        self.connected = connected
        self.url = url
        self.authentication = authentication
        self.sapClient = sapClient
        self.sapLanguage = sapLanguage
        self.tested = tested
        self.updated = updated
        self.storedDrift = storedDrift
        self.connectedForms = connectedForms
        self.unknownCreates = unknownCreates
        hasUnknownCreates = !unknownCreates.isEmpty
        showsUnknown = connected || !unknownCreates.isEmpty
        self.testResult = testResult
        self.fields = fields
    }

    /// A drift report: each difference's message, or that there is none.
    package struct DriftReport {
        package let differences: [PageText]
        package let noDrift: Bool
        /// How many value helps in services of their own were followed; nil when there are none.
        package let references: PageText?
        /// Why each value help in a service of its own that was not followed was not.
        package let unresolved: [PageText]
        package let hasUnresolved: Bool

        package init(differences: [PageText], references: PageText?, unresolved: [PageText]) {
            self.differences = differences
            noDrift = differences.isEmpty
            self.references = references
            self.unresolved = unresolved
            hasUnresolved = !unresolved.isEmpty
        }
    }

    /// What a test found: the service answered, and its drift.
    package struct TestResult {
        package let url: PageText
        package let drift: DriftReport
        /// A password or token was typed for the test: Connect needs it typed again.
        package let secretTyped: Bool

        package init(url: PageText, drift: DriftReport, secretTyped: Bool) {
            self.url = url
            self.drift = drift
            self.secretTyped = secretTyped
        }
    }

    /// A form of the connected import and its mode, with its radio buttons.
    package struct ConnectedForm {
        package let id: PageText
        package let title: PageText
        package let isThisForm: Bool
        package let inService: Bool

        package init(id: PageText, title: PageText, isThisForm: Bool, inService: Bool) {
            self.id = id
            self.title = title
            self.isThisForm = isThisForm
            self.inService = inService
        }
    }

    /// A create sent to the service whose answer was lost.
    package struct UnknownCreate {
        package let href: PageText
        package let text: PageText
        package let requestID: PageText
        package let when: String

        package init(href: PageText, text: PageText, requestID: PageText, when: String) {
            self.href = href
            self.text = text
            self.requestID = requestID
            self.when = when
        }
    }

    /// The connect form's controls, each with its value and error.
    package struct Fields {
        package let url: TextInput
        package let authChoices: [Choice]
        package let authError: PageText
        package let credentials: [TextInput]
        package let sap: [TextInput]
        package let modeChoices: [Choice]
        package let modeError: PageText
        /// The ids of the two groups of choices (their errors).
        package let authField = ServiceSection.ids("auth")
        package let modeField = ServiceSection.ids("mode")

        package init(
            url: TextInput, authChoices: [Choice], authError: PageText, credentials: [TextInput], sap: [TextInput],
            modeChoices: [Choice], modeError: PageText
        ) {
            self.url = url
            self.authChoices = authChoices
            self.authError = authError
            self.credentials = credentials
            self.sap = sap
            self.modeChoices = modeChoices
            self.modeError = modeError
        }
    }

    /// The ids of the form's input `name` (`service-url`), or of a group of choices.
    package static func ids(_ name: String) -> ControlIDs { ControlIDs(id: "service-" + name) }

    /// The id of the choice `value` of the group `group` (`service-auth-none`).
    package static func choiceID(_ group: String, _ value: String) -> String { "service-\(group)-\(value)" }

    /// A text or password input with its label, hint and error (`admin/service-input`); the
    /// export form's dates are these too.
    package struct TextInput {
        package let ids: ControlIDs
        package let name: String
        package let label: String
        package let hint: PageText
        package let value: PageText
        package let error: PageText
        package let type: String
        package let autocomplete: String
        /// The ids of its hint and error, those it has.
        package let describedBy: PageText

        package init(
            ids: ControlIDs, name: String, label: String, hint: String?, value: String?, error: String?,
            type: String, autocomplete: String = "off"
        ) {
            self.ids = ids
            self.name = name
            self.label = label
            self.hint = PageText(hint)
            self.value = PageText(value)
            self.error = PageText(error)
            self.type = type
            self.autocomplete = autocomplete
            let describedBy = [hint.map { _ in ids.hintID }, error.map { _ in ids.errorID }].compactMap { $0 }
            self.describedBy = PageText.nonEmpty(describedBy.joined(separator: " ")) ?? .none
        }
    }

    /// A radio button of a group.
    package struct Choice {
        package let id: String
        package let name: String
        package let value: String
        package let label: String
        package let hint: PageText
        package let checked: Bool
        /// The id of its hint (``DOMID/hint(of:)``), stored: templates read stored values only.
        package let hintID: String

        package init(id: String, name: String, value: String, label: String, hint: String?, checked: Bool) {
            self.id = id
            self.name = name
            self.value = value
            self.label = label
            self.hint = PageText(hint)
            self.checked = checked
            hintID = DOMID.hint(of: id)
        }
    }
}
