import FluentKit
import Foundation

/// A row of `service_connections`: the OData service an import's forms are connected to. The
/// password, token or header value is kept only sealed (``SealingKey``); the key that opens it is
/// never in the database.
final class ServiceConnectionRecord: Model, @unchecked Sendable {
    static let schema = "service_connections"

    @ID(key: .id)
    var id: UUID?

    /// The service root, ending in `/`.
    @Field(key: "url")
    var url: String

    /// `none`, `basic`, `bearer` or `header`.
    @Field(key: "auth_kind")
    var authKind: String

    @OptionalField(key: "auth_user")
    var authUser: String?

    /// The header a `header` authentication sends (`APIKey`).
    @OptionalField(key: "header_name")
    var headerName: String?

    /// The secret sealed with the sealing key, base64.
    @OptionalField(key: "sealed_secret")
    var sealedSecret: String?

    @OptionalField(key: "sap_client")
    var sapClient: String?

    @OptionalField(key: "sap_language")
    var sapLanguage: String?

    /// A PEM file of CAs that sign the service's certificate (a company CA).
    @OptionalField(key: "ca_file")
    var caFile: String?

    @OptionalField(key: "timeout_seconds")
    var timeoutSeconds: Int?

    /// The last test's drift report, as JSON (``ServiceDrift``).
    @OptionalField(key: "drift")
    var drift: String?

    @OptionalField(key: "tested_at")
    var testedAt: Date?

    @Timestamp(key: "updated_at", on: .update)
    var updatedAt: Date?

    @OptionalField(key: "updated_by")
    var updatedBy: String?

    init() {}
}
