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

    /// The edit view of a form version, if built already: saves loading the version.
    func cachedEditView(formID: String, version: Int) -> CreateView? {
        editViews[Key(formID: formID, version: version)]
    }

    /// The edit view of a stored form version, built once.
    func editView(for form: StoredForm) throws -> CreateView {
        let key = Key(formID: form.id, version: form.version)
        if let cached = editViews[key] { return cached }
        let view = try renderer.createView(for: try form.schema(), version: form.version, mode: .edit)
        editViews[key] = view
        return view
    }

    /// The detail page for objects of a form version, built once.
    func detailPage(for view: CreateView) throws -> RenderPlan {
        let key = Key(formID: view.formID, version: view.version)
        if let cached = detailPages[key] { return cached }
        let page = try renderer.detailPage(for: view.schema)
        detailPages[key] = page
        return page
    }

    /// The delete confirmation for objects of a form version, built once.
    func deletePage(for view: CreateView) throws -> RenderPlan {
        let key = Key(formID: view.formID, version: view.version)
        if let cached = deletePages[key] { return cached }
        let page = try renderer.deletePage(for: view.schema)
        deletePages[key] = page
        return page
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
