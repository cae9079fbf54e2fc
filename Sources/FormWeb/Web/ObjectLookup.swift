import FormModel
import FormPages
import FormStore
import Foundation
import Hummingbird

/// The object a route's path names (`{object}` of the request's form) with the version it was
/// made with, for whoever may see it: 404 for anyone else, as for no such object. The browser's
/// object pages get the version's edit view, the JSON API's object routes and the rules route
/// the version as prepared (no page built).
struct ObjectLookup: Sendable {
    let objects: ObjectStore
    let forms: FormStore
    let plans: PlanCache

    /// The object and its version's edit view, in the form's language the request asks for
    /// (``LanguageChoice``; its newest version's languages decide).
    /// - Parameter languages: the languages asked for, most wanted first, in place of the
    ///   request's (a language switch's choice).
    func callAsFunction(
        _ context: AppRequestContext, request: Request? = nil, languages: [String]? = nil
    ) async throws -> (StoredObject, FormView) {
        let (form, object) = try await find(context)
        let language = try plans.versions.language(
            of: form, for: languages ?? request.map(LanguageChoice.ranges) ?? [])
        if let cached = plans.cachedEditView(
            formID: form.id, version: object.formVersion, listsRevision: form.listsRevision, language: language)
        {
            return (object, cached)
        }
        return (object, try await plans.editView(for: try await version(of: object, form: form, in: language)))
    }

    /// The object and its version prepared for an edit, in the form's language the request asks
    /// for (the rules route's answers are in it).
    func prepared(_ context: AppRequestContext, request: Request? = nil) async throws -> (StoredObject, PreparedForm) {
        let (form, object) = try await find(context)
        let language = try plans.versions.language(of: form, for: request.map(LanguageChoice.ranges) ?? [])
        if let cached = plans.cachedEditView(
            formID: form.id, version: object.formVersion, listsRevision: form.listsRevision, language: language)
        {
            return (object, cached.form)
        }
        return (
            object,
            try await plans.versions.prepared(try await version(of: object, form: form, in: language), mode: .edit)
        )
    }

    private func find(_ context: AppRequestContext) async throws -> (StoredForm, StoredObject) {
        let form = try context.form
        guard let objectID = UUID(uuidString: try context.parameters.require("object")),
            let object = try await objects.find(formID: form.id, id: objectID),
            try context.viewer.mayAccess(object)
        else { throw HTTPError(.notFound) }
        return (form, object)
    }

    /// The stored version the object was made with, shown in `language` (the form's own).
    private func version(of object: StoredObject, form: StoredForm, in language: String?) async throws -> StoredForm {
        guard var version = try await forms.version(formID: form.id, version: object.formVersion) else {
            throw HTTPError(.notFound)
        }
        version.shownLanguage = language
        return version
    }
}
