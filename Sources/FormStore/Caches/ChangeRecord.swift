import FluentKit
import Foundation

/// A row of `cache_changes`: something an instance changed that every instance's caches must
/// drop (``CacheChange``). Rows are numbered in order; instances read the ones after the last
/// they saw (``ChangeFeed``).
final class ChangeRecord: Model, @unchecked Sendable {
    static let schema = "cache_changes"

    @ID(custom: "seq", generatedBy: .database)
    var id: Int?

    /// `form`, `session` or `account`.
    @Field(key: "kind")
    var kind: String

    /// The form's id, the session's storage key, or the account's id.
    @Field(key: "key")
    var key: String

    init() {}

    /// The stored properties, named rather than found by reflection (see ``ObjectRecord/properties``):
    /// every instance reads the feed several times a second.
    var properties: [any AnyProperty] { [_id, _kind, _key] }

    init(_ change: CacheChange) {
        (kind, key) =
            switch change {
            case .form(let id): ("form", id)
            case .session(let key): ("session", key)
            case .account(let id): ("account", id.uuidString)
            }
    }

    /// The change the row records; nil for a kind this version does not know.
    var change: CacheChange? {
        switch kind {
        case "form": .form(key)
        case "session": .session(key)
        case "account": UUID(uuidString: key).map(CacheChange.account)
        default: nil
        }
    }
}
