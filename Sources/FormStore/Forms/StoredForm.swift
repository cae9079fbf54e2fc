import FormImport
import FormModel
import Foundation

/// One stored version of a form with the form's settings: what the pages need.
package struct StoredForm: Sendable, Hashable {
    package var id: String
    package var access: FormAccess
    package var state: FormState
    package var version: Int
    package var sourceKind: SourceKind
    /// The canonical JSON, as served at `GET /api/forms/{id}`.
    package var schemaJSON: String
    package var importedAt: Date?
    package var importedBy: String?
    /// The import that made this version, when known.
    package var importID: UUID?
    /// Changes whenever an admin uploads options for one of the form's lists.
    package var listsRevision: Int = 0
    /// How this version maps onto its OData service, as JSON; nil for a native spec.
    package var bindingJSON: String? = nil
    /// An imported XForm's rules, as JSON; nil for other sources.
    package var rulesJSON: String? = nil
    /// The service the form is connected to and its mode; nil when not connected.
    package var service: FormConnection? = nil
    /// The language of its own a request shows the form in (an XForm's itext language, by the
    /// form's name for it); nil for its default language. Chosen per request, never stored.
    package var shownLanguage: String? = nil

    /// The schema decoded from its canonical JSON, as imported (without uploaded options; see
    /// `FormStore.schema(of:)`).
    package func schema() throws -> FormSchema {
        try FormSchema.fromCanonicalJSON(Data(schemaJSON.utf8))
    }

    /// The version's binding to its service, when it has one.
    package func binding() throws -> ServiceBinding? {
        guard let bindingJSON else { return nil }
        return try JSONDecoder().decode(ServiceBinding.self, from: Data(bindingJSON.utf8))
    }

    /// The version's XForm rules, when it was imported from an XForm.
    package func rules() throws -> XFormRules? {
        guard let rulesJSON else { return nil }
        return try JSONDecoder().decode(XFormRules.self, from: Data(rulesJSON.utf8))
    }

    /// Whether the service holds this form's objects: connected, in mode `service`, with a binding.
    package var usesService: Bool { service?.mode == .service && bindingJSON != nil }
}

/// A form's connection to its service.
package struct FormConnection: Sendable, Hashable {
    package var connectionID: UUID
    package var mode: ServiceMode

    package init(connectionID: UUID, mode: ServiceMode) {
        self.connectionID = connectionID
        self.mode = mode
    }
}

/// Where a connected form's objects live.
package enum ServiceMode: String, Codable, Sendable, Hashable, CaseIterable {
    /// The service holds them: creates, edits and deletes are sent to it.
    case service
    /// Fieldwork holds them, as for a form that is not connected.
    case local
}
