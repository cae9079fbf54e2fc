import FormModel
import Foundation
import Mustache

/// Renders pages from the Mustache templates in `Templates/`; used once per form version to
/// build plans, never on the hot path of the create view.
public struct PageRenderer: Sendable {
    let library: MustacheLibrary

    /// Loads every `*.mustache` under the folder; `fields/text.mustache` becomes partial `fields/text`.
    public init(templates: URL) async throws {
        library = try await MustacheLibrary(directory: templates.path)
        for name in Self.requiredTemplates where library.getTemplate(named: name) == nil {
            throw RenderPlanError.missingTemplate("\(templates.path)/\(name).mustache")
        }
    }

    static let requiredTemplates =
        ["layout", "form", "parent", "index", "not-found", "partials/field", "partials/label", "partials/error-summary",
         "partials/parent-page"] + FieldKind.allCases.map { "fields/\($0.rawValue)" }

    /// Builds the create view of a form version: renders it once with sentinels and splits it.
    public func createView(for schema: FormSchema, version: Int) throws -> CreateView {
        let registry = SlotRegistry()
        let context = PageViewModel.form(schema, registry: registry)
        let rendered = try render(context, template: "form")
        let summary = try render(["items": registry.sentinel(.errorItems)], template: "partials/error-summary")
        let plan = RenderPlan(
            pieces: try RenderPlan.split(rendered, registry: registry),
            errorSummary: try RenderPlan.split(summary, registry: registry))
        return CreateView(
            formID: schema.id, version: version, plan: plan, initialRules: schema.allFields.map(InitialValueRule.init))
    }

    /// The parent page of a form: the same bytes for everyone until submissions exist.
    public func parentPage(for schema: FormSchema) throws -> RenderPlan {
        RenderPlan(staticPage: try render(PageViewModel.parent(schema), template: "parent"))
    }

    /// The list of forms on `/`.
    public func indexPage(forms: [FormSchema]) throws -> RenderPlan {
        RenderPlan(staticPage: try render(PageViewModel.index(forms), template: "index"))
    }

    /// The 404 page.
    public func notFoundPage() throws -> RenderPlan {
        RenderPlan(staticPage: try render(PageViewModel.notFound(), template: "not-found"))
    }

    func render(_ context: [String: Any], template: String) throws(RenderPlanError) -> String {
        guard let output = library.render(context, withTemplate: template) else {
            throw .missingTemplate(template)
        }
        return output
    }
}
