import FormModel

/// Prepared pages per form version, built on first use and kept until a newer version appears.
actor PlanCache {
    private struct Key: Hashable {
        var formID: String
        var version: Int
    }

    private let renderer: PageRenderer
    private var createViews: [Key: CreateView] = [:]
    /// Edit views, detail and delete pages stay for every version objects were created with.
    private var editViews: [Key: CreateView] = [:]
    private var detailPages: [Key: RenderPlan] = [:]
    private var deletePages: [Key: RenderPlan] = [:]
    private var parentPages: [Key: RenderPlan] = [:]
    private var index: (signature: [Key], plan: RenderPlan)?

    init(renderer: PageRenderer) {
        self.renderer = renderer
    }

    /// The plan in `table` under `key`, built by `build` the first time.
    /// - Parameter latestOnly: drop the plans of the form's other versions (pages that only
    ///   ever show the newest version); pages of objects keep every version they were made with.
    private static func memo<Plan>(
        _ table: inout [Key: Plan], _ key: Key, latestOnly: Bool = false, _ build: () throws -> Plan
    ) rethrows -> Plan {
        if let cached = table[key] { return cached }
        let plan = try build()
        if latestOnly { table = table.filter { $0.key.formID != key.formID } }
        table[key] = plan
        return plan
    }

    /// The create view of a stored form version, built once.
    func createView(for form: StoredForm) throws -> CreateView {
        try Self.memo(&createViews, Key(formID: form.id, version: form.version), latestOnly: true) {
            try renderer.createView(for: try form.schema(), version: form.version)
        }
    }

    /// The edit view of a form version, if built already: saves loading the version.
    func cachedEditView(formID: String, version: Int) -> CreateView? {
        editViews[Key(formID: formID, version: version)]
    }

    /// The edit view of a stored form version, built once.
    func editView(for form: StoredForm) throws -> CreateView {
        try Self.memo(&editViews, Key(formID: form.id, version: form.version)) {
            try renderer.createView(for: try form.schema(), version: form.version, mode: .edit)
        }
    }

    /// The detail page for objects of a form version, built once.
    func detailPage(for view: CreateView) throws -> RenderPlan {
        try Self.memo(&detailPages, Key(formID: view.formID, version: view.version)) {
            try renderer.detailPage(for: view.schema)
        }
    }

    /// The delete confirmation for objects of a form version, built once.
    func deletePage(for view: CreateView) throws -> RenderPlan {
        try Self.memo(&deletePages, Key(formID: view.formID, version: view.version)) {
            try renderer.deletePage(for: view.schema)
        }
    }

    /// The parent page of a stored form version, built once.
    func parentPage(for form: StoredForm) throws -> RenderPlan {
        try Self.memo(&parentPages, Key(formID: form.id, version: form.version), latestOnly: true) {
            try renderer.parentPage(for: try form.schema())
        }
    }

    /// The form list, rebuilt only when a form or version was added.
    func indexPage(for forms: [StoredForm]) throws -> RenderPlan {
        let signature = forms.map { Key(formID: $0.id, version: $0.version) }
        if let index, index.signature == signature { return index.plan }
        let plan = try renderer.indexPage(forms: try forms.map { try $0.schema() })
        index = (signature, plan)
        return plan
    }
}
