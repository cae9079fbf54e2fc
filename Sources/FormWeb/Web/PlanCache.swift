import FormModel
import FormPages
import FormStore
import Foundation

/// Prepared pages per form version, built on first use and kept until a newer version appears
/// or an admin uploads options for one of the form's lists (the lists revision is in the key),
/// at most ``capacity`` per kind of page (least recently used out), so memory stays bounded
/// however many forms and versions there are.
actor PlanCache {
    /// How many plans of each kind are kept.
    static let capacity = 256

    private struct Key: Hashable {
        var formID: String
        var version: Int
        var listsRevision: Int
        /// Only for the parent page, which shows "+" unless the form is retired.
        var retired = false

        init(formID: String, version: Int, listsRevision: Int) {
            self.formID = formID
            self.version = version
            self.listsRevision = listsRevision
        }

        init(_ form: StoredForm) {
            self.init(formID: form.id, version: form.version, listsRevision: form.listsRevision)
        }
    }

    private let renderer: PageRenderer
    /// The schema of a stored version with its uploaded options; only called to build a plan.
    private let schemas: @Sendable (StoredForm) async throws -> FormSchema
    /// Create and edit views by mode. Edit views, detail and delete pages stay for every version
    /// objects were created with; create views only for the newest.
    private var views: [FormMode: LRUCache<Key, FormView>] = [:]
    private var detailPages = LRUCache<Key, RenderPlan>(capacity: capacity)
    private var deletePages = LRUCache<Key, RenderPlan>(capacity: capacity)
    private var parentPages = LRUCache<Key, RenderPlan>(capacity: capacity)
    /// Form lists by the forms they show (visitors and signed-in users see different lists).
    private var indexes: [[Key]: RenderPlan] = [:]

    /// Where the views read `today` and `now`.
    private let timeZone: TimeZone

    init(
        renderer: PageRenderer, timeZone: TimeZone = .current,
        schemas: @escaping @Sendable (StoredForm) async throws -> FormSchema
    ) {
        self.renderer = renderer
        self.timeZone = timeZone
        self.schemas = schemas
    }

    /// The plan in `table` under `key`, built by `build` the first time.
    /// - Parameter latestOnly: drop the plans of the form's other versions (pages that only
    ///   ever show the newest version); pages of objects keep every version they were made with.
    private static func memo<Plan>(
        _ table: inout LRUCache<Key, Plan>, _ key: Key, latestOnly: Bool = false, _ build: () throws -> Plan
    ) rethrows -> Plan {
        if let cached = table.value(for: key) { return cached }
        let plan = try build()
        // An older lists revision is stale for every version of the form.
        table.removeAll { other, _ in
            other.formID == key.formID && (other.listsRevision != key.listsRevision || latestOnly)
        }
        table.set(plan, for: key)
        return plan
    }

    /// The create view of a stored form version, built once.
    func createView(for form: StoredForm) async throws -> FormView {
        try await view(for: form, mode: .create)
    }

    /// The edit view of a form version, if built already: saves loading the version.
    func cachedEditView(formID: String, version: Int, listsRevision: Int) -> FormView? {
        views[.edit]?.value(for: Key(formID: formID, version: version, listsRevision: listsRevision))
    }

    /// The edit view of a stored form version, built once.
    func editView(for form: StoredForm) async throws -> FormView {
        try await view(for: form, mode: .edit)
    }

    /// The create or edit view of a stored form version, built once. Create views are only ever
    /// shown for the newest version; edit views keep every version their objects were made with.
    private func view(for form: StoredForm, mode: FormMode) async throws -> FormView {
        let key = Key(form)
        if let cached = views[mode]?.value(for: key) {
            FieldworkMetrics.cacheHit(.plans)
            return cached
        }
        FieldworkMetrics.cacheMiss(.plans)
        let schema = try await schemas(form)
        // A long list's search is the same in both views of a version: folded once.
        let searches = views[mode == .create ? .edit : .create]?.value(for: key)?.optionSearches
        return try Self.memo(&views[mode, default: LRUCache(capacity: Self.capacity)], key, latestOnly: mode == .create)
        {
            try renderer.formView(
                for: schema, version: form.version, mode: mode, listsRevision: form.listsRevision, timeZone: timeZone,
                optionSearches: searches)
        }
    }

    /// The detail page for objects of a form version, built once.
    func detailPage(for view: FormView) throws -> RenderPlan {
        try Self.memo(&detailPages, Key(formID: view.formID, version: view.version, listsRevision: view.listsRevision))
        {
            try renderer.detailPage(for: view.schema)
        }
    }

    /// The delete confirmation for objects of a form version, built once.
    func deletePage(for view: FormView) throws -> RenderPlan {
        try Self.memo(&deletePages, Key(formID: view.formID, version: view.version, listsRevision: view.listsRevision))
        {
            try renderer.deletePage(for: view.schema)
        }
    }

    /// The parent page of a stored form version, built once.
    func parentPage(for form: StoredForm) throws -> RenderPlan {
        var key = Key(form)
        key.retired = form.state == .retired
        return try Self.memo(&parentPages, key, latestOnly: true) {
            try renderer.parentPage(for: try form.schema(), canCreate: !key.retired)
        }
    }

    /// The form list, rebuilt only when a form or version was added.
    func indexPage(for forms: [FormListing]) throws -> RenderPlan {
        let signature = forms.map { Key(formID: $0.id, version: $0.version, listsRevision: $0.listsRevision) }
        if let plan = indexes[signature] { return plan }
        let plan = try renderer.indexPage(forms: forms.map { FormLink(id: $0.id, title: $0.title) })
        // Only a few lists are current at a time; older ones are not kept.
        if indexes.count >= 8 { indexes.removeAll() }
        indexes[signature] = plan
        return plan
    }
}
