import FormModel
import FormPages
import FormStore
import Foundation
import Synchronization

/// The pages of each form version, their render plans built on first use over the version as
/// ``FormVersions`` prepared it, and kept until a newer version appears or an admin uploads
/// options for one of the form's lists (the lists revision is in the key), at most ``capacity``
/// per kind of page (least recently used out), so memory stays bounded however many forms and
/// versions there are.
///
/// A view whose options a form's service gave (its fixed-value lists, read whole) holds until
/// the prepared version does, then is built again over the version prepared anew.
///
/// A lookup is a few instructions under a lock, on the request's own thread: no actor to hop to
/// and back on every page. A plan is built outside the lock; two requests that miss at once may
/// both build it, and the second one's is kept: the same plan, built from the same version.
final class PlanCache: Sendable {
    /// How many plans of each kind are kept.
    static let capacity = 256

    private struct Key: Hashable {
        var version: VersionKey
        /// Only for the parent page, which shows "+" unless the form is retired.
        var retired = false

        init(formID: String, version: Int, listsRevision: Int, language: String? = nil) {
            self.version = VersionKey(
                formID: formID, version: version, listsRevision: listsRevision, language: language)
        }

        init(_ form: StoredForm) {
            version = VersionKey(form)
        }
    }

    /// A view as kept: until when its options hold, nil for ever.
    private struct BuiltView: Sendable {
        var view: FormView
        var expires: ContinuousClock.Instant?

        var isCurrent: Bool { expires.map { $0 > .now } ?? true }
    }

    private struct Tables {
        /// Create and edit views by mode. Edit views, detail and delete pages stay for every
        /// version objects were created with; create views only for the newest.
        var views: [FormMode: LRUCache<Key, BuiltView>] = [:]
        var detailPages = LRUCache<Key, RenderPlan>(capacity: capacity)
        var deletePages = LRUCache<Key, RenderPlan>(capacity: capacity)
        var parentPages = LRUCache<Key, RenderPlan>(capacity: capacity)
        /// Form lists by the forms they show (visitors and signed-in users see different lists).
        var indexes: [[Key]: RenderPlan] = [:]
    }

    private let tables = Mutex(Tables())
    private let renderer: PageRenderer
    /// The versions the views are built over.
    let versions: FormVersions

    /// Counts the views built.
    private let built: BuiltViews

    init(renderer: PageRenderer, versions: FormVersions, built: BuiltViews = BuiltViews()) {
        self.renderer = renderer
        self.versions = versions
        self.built = built
    }

    /// Keeps a plan built for `key`, dropping those it makes stale (``VersionKey/makesStale(_:latestOnly:)``).
    private static func keep<Plan: Sendable>(
        _ plan: Plan, in table: inout LRUCache<Key, Plan>, for key: Key, latestOnly: Bool = false
    ) {
        table.removeAll { other, _ in key.version.makesStale(other.version, latestOnly: latestOnly) }
        table.set(plan, for: key)
    }

    /// The plan in the table at `path` under `key`, built by `build` the first time.
    private func plan<Plan: Sendable>(
        _ path: WritableKeyPath<Tables, LRUCache<Key, Plan>>, _ key: Key, latestOnly: Bool = false,
        _ build: () throws -> Plan
    ) rethrows -> Plan {
        if let cached = tables.withLock({ $0[keyPath: path].value(for: key) }) { return cached }
        let plan = try build()
        tables.withLock { Self.keep(plan, in: &$0[keyPath: path], for: key, latestOnly: latestOnly) }
        return plan
    }

    /// The create view of a stored form version, built once. Built, it comes back without an
    /// `await` (a create view's every request asks for it).
    func createView(for form: StoredForm) async throws -> FormView {
        if let view = cachedView(for: form, mode: .create) { return view }
        return try await view(for: form, mode: .create)
    }

    /// The view when it is built already, counted as a hit; nil otherwise.
    private func cachedView(for form: StoredForm, mode: FormMode) -> FormView? {
        guard let built = tables.withLock({ $0.views[mode]?.value(for: Key(form)) }), built.isCurrent else {
            return nil
        }
        FieldworkMetrics.cacheHit(.plans)
        return built.view
    }

    /// The edit view of a form version, if built already: saves loading the version.
    func cachedEditView(formID: String, version: Int, listsRevision: Int, language: String? = nil) -> FormView? {
        let key = Key(formID: formID, version: version, listsRevision: listsRevision, language: language)
        let built = tables.withLock { $0.views[.edit]?.value(for: key) }
        return built?.isCurrent == true ? built?.view : nil
    }

    /// The edit view of a stored form version, built once.
    func editView(for form: StoredForm) async throws -> FormView {
        try await view(for: form, mode: .edit)
    }

    /// The create or edit view of a stored form version, built once. Create views are only ever
    /// shown for the newest version; edit views keep every version their objects were made with.
    private func view(for form: StoredForm, mode: FormMode) async throws -> FormView {
        let key = Key(form)
        if let cached = tables.withLock({ $0.views[mode]?.value(for: key) }), cached.isCurrent {
            FieldworkMetrics.cacheHit(.plans)
            return cached.view
        }
        FieldworkMetrics.cacheMiss(.plans)
        let prepared = try await versions.entry(form, mode: mode)
        let view = try renderer.formView(for: prepared.form)
        built.add()
        tables.withLock { tables in
            Self.keep(
                BuiltView(view: view, expires: prepared.expires),
                in: &tables.views[mode, default: LRUCache(capacity: Self.capacity)], for: key,
                latestOnly: mode == .create)
        }
        return view
    }

    /// The detail page for objects of a form version, built once.
    func detailPage(for view: FormView) throws -> RenderPlan {
        try plan(\.detailPages, Self.key(of: view)) {
            try renderer.detailPage(for: view.schema)
        }
    }

    /// The delete confirmation for objects of a form version, built once.
    func deletePage(for view: FormView) throws -> RenderPlan {
        try plan(\.deletePages, Self.key(of: view)) {
            try renderer.deletePage(for: view.schema)
        }
    }

    /// A view's version and language, as its detail and delete pages are kept by.
    private static func key(of view: FormView) -> Key {
        Key(
            formID: view.formID, version: view.version, listsRevision: view.listsRevision,
            language: view.form.language?.name)
    }

    /// The parent page of a stored form version, built once.
    func parentPage(for form: StoredForm) throws -> RenderPlan {
        var key = Key(form)
        key.retired = form.state == .retired
        return try plan(\.parentPages, key, latestOnly: true) {
            try renderer.parentPage(for: try form.schema(), canCreate: !key.retired)
        }
    }

    /// The form list, rebuilt only when a form or version was added.
    func indexPage(for forms: [FormListing]) throws -> RenderPlan {
        let signature = forms.map { Key(formID: $0.id, version: $0.version, listsRevision: $0.listsRevision) }
        if let plan = tables.withLock({ $0.indexes[signature] }) { return plan }
        let plan = try renderer.indexPage(forms: forms.map { FormLink(id: $0.id, title: $0.title) })
        tables.withLock { tables in
            // Only a few lists are current at a time; older ones are not kept.
            if tables.indexes.count >= 8 { tables.indexes.removeAll() }
            tables.indexes[signature] = plan
        }
        return plan
    }
}

/// The schema a view is built from, and until when its options hold: a connected form's
/// fixed-value lists read whole from its service hold for ``ServiceValueHelps/lifetime``; nil
/// for ever.
struct ViewSchema: Sendable {
    var schema: FormSchema
    var expires: ContinuousClock.Instant?
    /// For an XForm, the external instances admins uploaded, as XML, by list id.
    var instances: [String: String] = [:]

    init(_ schema: FormSchema, expires: ContinuousClock.Instant? = nil) {
        self.schema = schema
        self.expires = expires
    }
}
