import FormModel
import Foundation
import Mustache

/// Renders pages from the Mustache templates in `Templates/`; used once per form version to
/// build plans, never on the hot path of the create view.
public struct PageRenderer: Sendable {
    let library: MustacheLibrary
    /// What the plans' slots write, from `Templates/slots/`.
    let markup: SlotMarkup

    /// Loads every `*.mustache` under the folder; `fields/text.mustache` becomes partial `fields/text`.
    public init(templates: URL) async throws {
        library = try await MustacheLibrary(directory: templates.path)
        for name in Self.requiredTemplates where library.getTemplate(named: name) == nil {
            throw RenderPlanError.missingTemplate("\(templates.path)/\(name).mustache")
        }
        markup = try SlotMarkup(library: library)
    }

    static let requiredTemplates =
        [
            "layout", "form", "parent", "index", "not-found", "partials/field", "partials/label",
            "partials/parent-page",
            "detail", "delete", "login", "gone", "error",
        ] + FieldKind.allCases.map { "fields/\($0.rawValue)" }
        + SlotMarkup.templates

    /// Builds the create (or edit) view of a form version: renders it once with sentinels and splits it.
    /// - Parameter optionSearches: the value lists' searches of the version's other view, when built.
    public func formView(
        for schema: FormSchema, version: Int, mode: FormMode = .create, optionSearches: [String: OptionSearch]? = nil
    ) throws -> FormView {
        let registry = SlotRegistry()
        let context = PageViewModel.Form(schema, registry: registry, mode: mode)
        return FormView(
            schema: schema, version: version, mode: mode, plan: try plan(context, template: "form", registry: registry),
            optionSearches: optionSearches)
    }

    /// The parent page of a form, with a slot for the viewer's list of objects.
    /// - Parameter canCreate: false for a retired form: its page lists its objects, without "+".
    public func parentPage(for schema: FormSchema, canCreate: Bool = true) throws -> RenderPlan {
        let registry = SlotRegistry()
        return try plan(
            PageViewModel.Parent(schema, registry: registry, canCreate: canCreate), template: "parent",
            registry: registry)
    }

    /// The detail page of objects created with a form version.
    public func detailPage(for schema: FormSchema) throws -> RenderPlan {
        let registry = SlotRegistry()
        return try plan(PageViewModel.Detail(schema, registry: registry), template: "detail", registry: registry)
    }

    /// The page asking whether to delete an object of a form.
    public func deletePage(for schema: FormSchema) throws -> RenderPlan {
        let registry = SlotRegistry()
        return try plan(PageViewModel.Delete(schema, registry: registry), template: "delete", registry: registry)
    }

    /// The sign-in page.
    public func loginPage() throws -> RenderPlan {
        let registry = SlotRegistry()
        return try plan(PageViewModel.Login(registry: registry), template: "login", registry: registry)
    }

    /// Renders a page once with sentinels and splits it.
    func plan(_ context: some PageContext, template: String, registry: SlotRegistry) throws -> RenderPlan {
        RenderPlan(pieces: try registry.split(try render(context, template: template)), markup: markup)
    }

    /// The list of forms on `/`, each by its title, linking to its parent page.
    public func indexPage(forms: [FormListing]) throws -> RenderPlan {
        let registry = SlotRegistry()
        return try plan(PageViewModel.Index(forms, registry: registry), template: "index", registry: registry)
    }

    /// The 404 page.
    public func notFoundPage() throws -> RenderPlan {
        RenderPlan(
            staticPage: try render(PageViewModel.Plain(title: "Page not found"), template: "not-found"), markup: markup)
    }

    /// The 410 page of a retired form's create view.
    public func gonePage() throws -> RenderPlan {
        RenderPlan(staticPage: try render(PageViewModel.Plain(title: "Form retired"), template: "gone"), markup: markup)
    }

    /// The page for a request the database cannot serve now (503).
    public func unavailablePage() throws -> RenderPlan {
        RenderPlan(
            staticPage: try render(PageViewModel.Plain(title: "Service unavailable"), template: "unavailable"),
            markup: markup)
    }

    /// A page from its template context.
    func render(_ context: some PageContext, template: String) throws(RenderPlanError) -> String {
        guard let output = library.render(context, withTemplate: template) else {
            throw .missingTemplate(template)
        }
        return output
    }
}
