import Foundation
import Synchronization

/// What the pages read of forms on every request: a form's latest version with its settings
/// (access, state, lists revision), and the list of every form. ``FormStore`` reads them from
/// the database; the server reads them through ``CachedFormHeads``.
package protocol FormHeads: Sendable {
    /// The latest version of a form, or nil when no form has the id.
    func latest(formID: String) async throws -> StoredForm?

    /// Every form with its latest version's number, kind and title, ordered by id.
    func list() async throws -> [FormListing]

    /// The latest version of a form when it is in memory, without waiting; nil otherwise.
    func cachedLatest(formID: String) -> StoredForm?
}

extension FormStore: FormHeads {}

extension FormHeads {
    /// Nothing is in memory (the store itself).
    package func cachedLatest(formID: String) -> StoredForm? { nil }

    /// The latest version of a form; throws ``FormLookupError/unknown(_:)`` when there is none.
    package func require(_ formID: String) async throws -> StoredForm {
        guard let form = try await latest(formID: formID) else { throw FormLookupError.unknown(formID) }
        return form
    }

    /// The latest version of a form that is offered; throws ``FormLookupError/unknown(_:)`` when
    /// there is none, ``FormLookupError/retired(_:)`` when it is retired.
    package func requireActive(_ formID: String) async throws -> StoredForm {
        try await require(formID).requireActive()
    }
}

extension StoredForm {
    /// The form itself when it is offered; ``FormLookupError/retired(_:)`` when retired.
    package func requireActive() throws -> StoredForm {
        guard state == .active else { throw FormLookupError.retired(id) }
        return self
    }
}

/// Why a form asked for cannot be used: the web layer answers 404 or 410.
package enum FormLookupError: Error, Hashable {
    /// No form has the id.
    case unknown(String)
    /// The form is retired: its objects stay, but it takes no new ones.
    case retired(String)
}

/// Form heads kept in memory, at most `capacity` forms (least recently used out), and the form
/// list, dropped when the ``ChangeFeed`` says a form changed (an import, an access or state
/// change, an options upload) here or on another instance.
package final class CachedFormHeads: FormHeads {
    private let base: any FormHeads
    private let heads: FeedCache<String, StoredForm>
    /// Every form, as the form list shows them (one entry): a few small columns per form, read
    /// again after any form changed.
    private let listing = FeedCache<Bool, [FormListing]>(capacity: 1, metrics: .forms)

    package init(_ base: any FormHeads, feed: ChangeFeed, capacity: Int = 256) {
        self.base = base
        heads = FeedCache(capacity: capacity, metrics: .forms)
        feed.subscribe { [weak self] change in
            guard case .form(let id) = change, let self else { return }
            heads.drop { $0.removeValue(for: id) }
            listing.drop { $0.removeAll { _, _ in true } }
        }
    }

    package func latest(formID: String) async throws -> StoredForm? {
        try await heads.value(for: formID) { try await base.latest(formID: formID) }
    }

    package func cachedLatest(formID: String) -> StoredForm? {
        heads.cached(for: formID)
    }

    package func list() async throws -> [FormListing] {
        try await listing.value(for: true) { try await base.list() } ?? []
    }
}
