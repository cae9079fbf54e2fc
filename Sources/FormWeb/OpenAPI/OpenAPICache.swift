import FormStore
import NIOCore
import Synchronization

/// The bytes of each form's OpenAPI description, built on first request and kept until the form
/// changes: a new version, options uploaded for one of its lists (the lists revision), its
/// service mode or its access (who may call it). At most ``capacity`` forms, least recently
/// used out, as ``PlanCache`` keeps its plans.
final class OpenAPICache: Sendable {
    static let capacity = 256

    struct Key: Hashable {
        var formID: String
        var version: Int
        var listsRevision: Int
        var usesService: Bool
        var access: FormAccess

        init(_ form: StoredForm) {
            formID = form.id
            version = form.version
            listsRevision = form.listsRevision
            usesService = form.usesService
            access = form.access
        }
    }

    private let documents = Mutex(LRUCache<Key, ByteBuffer>(capacity: capacity))

    /// The description of `form`, built by `build` (JSON, escaped for the API) the first time.
    func bytes(for form: StoredForm, build: () async throws -> ByteBuffer) async rethrows -> ByteBuffer {
        let key = Key(form)
        if let cached = documents.withLock({ $0.value(for: key) }) { return cached }
        let built = try await build()
        documents.withLock { table in
            // An older description of the form is stale for good.
            table.removeAll { other, _ in other.formID == key.formID }
            table.set(built, for: key)
        }
        return built
    }
}
