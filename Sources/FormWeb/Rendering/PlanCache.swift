import FormModel

/// Prepared pages per form version, built on first use and kept until a newer version appears.
actor PlanCache {
    private struct Key: Hashable {
        var formID: String
        var version: Int
    }

    private let renderer: PageRenderer
    private var createViews: [Key: CreateView] = [:]
    private var parentPages: [Key: RenderPlan] = [:]
    private var index: (signature: [Key], plan: RenderPlan)?

    init(renderer: PageRenderer) {
        self.renderer = renderer
    }

    /// The create view of a stored form version, built once.
    func createView(for form: StoredForm) throws -> CreateView {
        let key = Key(formID: form.id, version: form.version)
        if let cached = createViews[key] { return cached }
        let view = try renderer.createView(for: try form.schema(), version: form.version)
        // Only the latest version is served, so older plans of the same form can go.
        createViews = createViews.filter { $0.key.formID != form.id }
        createViews[key] = view
        return view
    }

    /// The parent page of a stored form version, built once.
    func parentPage(for form: StoredForm) throws -> RenderPlan {
        let key = Key(formID: form.id, version: form.version)
        if let cached = parentPages[key] { return cached }
        let page = try renderer.parentPage(for: try form.schema())
        parentPages = parentPages.filter { $0.key.formID != form.id }
        parentPages[key] = page
        return page
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
