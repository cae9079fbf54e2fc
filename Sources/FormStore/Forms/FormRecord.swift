import FluentKit
import Foundation

/// Who may fill a form: anyone (`public`) or signed-in users only (`users`).
package enum FormAccess: String, Codable, Sendable, Hashable, CaseIterable {
    case `public`
    case users
}

/// Whether a form can still be filled.
package enum FormState: String, Codable, Sendable, Hashable, CaseIterable {
    case active
    case retired
}

/// A row of `forms`: one form id (its URL slug) and the settings that outlive its versions.
final class FormRecord: Model, @unchecked Sendable {
    static let schema = "forms"

    @ID(custom: "id", generatedBy: .user)
    var id: String?

    @Field(key: "access")
    var access: String

    @Field(key: "state")
    var state: String

    @Timestamp(key: "created_at", on: .create)
    var createdAt: Date?

    /// Goes up by one whenever an admin uploads options for one of the form's lists, so pages
    /// prepared with the old options are rebuilt.
    @Field(key: "lists_revision")
    var listsRevision: Int

    /// The service connection of the import that made the form, when connected.
    @OptionalField(key: "service_connection_id")
    var serviceConnectionID: UUID?

    /// `service` (the service holds the objects) or `local`; nil when not connected.
    @OptionalField(key: "service_mode")
    var serviceMode: String?

    init() {}

    init(id: String, access: FormAccess, state: FormState = .active) {
        self.id = id
        self.access = access.rawValue
        self.state = state.rawValue
        self.listsRevision = 0
    }
}
