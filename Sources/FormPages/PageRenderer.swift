import FormModel
import Foundation
import Mustache

/// Renders pages from the Mustache templates in `Templates/`; used once per form version to
/// build plans, never on the hot path of the create view.
package struct PageRenderer: Sendable {
    let library: MustacheLibrary
    /// What the plans' slots write, from `Templates/slots/`.
    let markup: SlotMarkup
    /// Where the pages link the stylesheets and scripts: `/assets/<version>`, the `{{assets}}`
    /// of every template; empty links them at their plain paths (`/css/fieldwork.css`).
    package let assets: String

    /// Loads every `*.mustache` under the folder; `fields/text.mustache` becomes partial `fields/text`.
    /// - Parameter assets: the prefix of the stylesheets' and scripts' addresses.
    package init(templates: URL, assets: String = "") async throws {
        self.assets = assets
        library = try await MustacheLibrary(directory: templates.path)
        for name in Self.requiredTemplates where library.getTemplate(named: name) == nil {
            throw RenderPlanError.missingTemplate("\(templates.path)/\(name).mustache")
        }
        markup = try SlotMarkup(library: library)
    }

    static let requiredTemplates =
        [
            "layout", "form", "parent", "index", "not-found", "partials/field", "partials/label", "partials/item",
            "partials/parent-page",
            "detail", "delete", "login", "gone", "error",
        ] + FieldKind.allCases.map { "fields/\($0.rawValue)" }

    /// Builds the create (or edit) view of a form version: prepares the form and renders the
    /// page once with sentinels and splits it.
    /// - Parameters:
    ///   - listsRevision: the form's lists revision the schema's options are from.
    ///   - timeZone: where the view reads `today` and `now`.
    ///   - optionSearches: the value lists' searches of the version's other view, when built.
    ///   - rules: the version's rules beyond its fields' own (an XForm's binds).
    package func formView(
        for schema: FormSchema, version: Int, mode: FormMode = .create, listsRevision: Int = 0,
        timeZone: TimeZone = .current, optionSearches: [String: OptionSearch]? = nil, rules: (any RuleJudge)? = nil
    ) throws -> FormView {
        try formView(
            for: PreparedForm(
                schema: schema, version: version, mode: mode, listsRevision: listsRevision, timeZone: timeZone,
                optionSearches: optionSearches, rules: rules))
    }

    /// The create or edit view of a version prepared already: its page's plan beside it.
    package func formView(for form: PreparedForm) throws -> FormView {
        let registry = SlotRegistry()
        let items = ItemPlans(
            renderer: self, schema: form.schema, mode: form.mode, rules: form.rules, timeZone: form.timeZone,
            action: form.mode == .create ? "/forms/\(form.schema.id)" : "")
        let context = PageViewModel.Form(
            form.schema, registry: registry, mode: form.mode, rules: form.rules, items: items,
            language: form.language?.tag, languages: form.languages)
        return FormView(form: form, plan: try plan(context, template: "form", registry: registry))
    }

    /// The parent page of a form, with a slot for the viewer's list of objects.
    /// - Parameter canCreate: false for a retired form: its page lists its objects, without "+".
    package func parentPage(for schema: FormSchema, canCreate: Bool = true) throws -> RenderPlan {
        let registry = SlotRegistry()
        return try plan(
            PageViewModel.Parent(schema, registry: registry, canCreate: canCreate), template: "parent",
            registry: registry)
    }

    /// The detail page of objects created with a form version.
    package func detailPage(for schema: FormSchema) throws -> RenderPlan {
        let registry = SlotRegistry()
        return try plan(PageViewModel.Detail(schema, registry: registry), template: "detail", registry: registry)
    }

    /// The page asking whether to delete an object of a form.
    package func deletePage(for schema: FormSchema) throws -> RenderPlan {
        let registry = SlotRegistry()
        return try plan(PageViewModel.Delete(schema, registry: registry), template: "delete", registry: registry)
    }

    /// The sign-in page.
    package func loginPage() throws -> RenderPlan {
        let registry = SlotRegistry()
        return try plan(PageViewModel.Login(registry: registry), template: "login", registry: registry)
    }

    /// The page asking a signed-in user's second factor after the password.
    package func signInCodePage() throws -> RenderPlan {
        let registry = SlotRegistry()
        return try plan(PageViewModel.SignInCode(registry: registry), template: "login-code", registry: registry)
    }

    /// The change-password page of a signed-in user.
    package func changePasswordPage() throws -> RenderPlan {
        let registry = SlotRegistry()
        return try plan(PageViewModel.ChangePassword(registry: registry), template: "password", registry: registry)
    }

    /// Renders a page once with sentinels and splits it.
    func plan(_ context: some PageContext, template: String, registry: SlotRegistry) throws -> RenderPlan {
        RenderPlan(pieces: try registry.split(try render(context, template: template)), markup: markup)
    }

    /// The list of forms on `/`, each by its title, linking to its parent page.
    package func indexPage(forms: [FormLink]) throws -> RenderPlan {
        let registry = SlotRegistry()
        return try plan(PageViewModel.Index(forms, registry: registry), template: "index", registry: registry)
    }

    /// The 404 page.
    package func notFoundPage() throws -> RenderPlan {
        RenderPlan(
            staticPage: try render(PageViewModel.Plain(title: "Page not found"), template: "not-found"), markup: markup)
    }

    /// The 410 page of a retired form's create view.
    package func gonePage() throws -> RenderPlan {
        RenderPlan(staticPage: try render(PageViewModel.Plain(title: "Form retired"), template: "gone"), markup: markup)
    }

    /// The page for a request the database cannot serve now (503).
    package func unavailablePage() throws -> RenderPlan {
        RenderPlan(
            staticPage: try render(PageViewModel.Plain(title: "Service unavailable"), template: "unavailable"),
            markup: markup)
    }

    /// A part of a page (an item of a list) from its template context, outside any layout.
    func renderPartial(_ context: some KeyPathContext, template: String) throws(RenderPlanError) -> String {
        guard let output = library.render(context, withTemplate: template) else { throw .missingTemplate(template) }
        return output
    }

    /// A page from its template context.
    package func render(_ context: some PageContext, template: String) throws(RenderPlanError) -> String {
        guard let output = library.render(PageRoot(assets: assets, page: context), withTemplate: template) else {
            throw .missingTemplate(template)
        }
        return output
    }
}

/// A form on the list of forms: its id (the URL's) and title.
package struct FormLink: Sendable, Hashable {
    package var id: String
    package var title: String

    package init(id: String, title: String) {
        self.id = id
        self.title = title
    }
}

/// The root of every page's template context: the page's own names, and `assets`, the prefix
/// of the stylesheets' and scripts' addresses, which no page context needs to carry.
private struct PageRoot: MustacheParent {
    let assets: String
    let page: any PageContext

    func child(named name: String) -> Any? {
        if name == "assets" { return assets }
        if let page = page as? any MustacheParent { return page.child(named: name) }
        // A plain page context: its stored properties, as swift-mustache reads any value.
        guard let value = Mirror(reflecting: page).children.first(where: { $0.label == name })?.value else {
            return nil
        }
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional ? mirror.children.first?.value : value
    }
}
