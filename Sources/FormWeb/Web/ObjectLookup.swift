import FormPages
import FormStore
import Foundation
import Hummingbird

/// The object a route's path names (`{object}` of the request's form) with the form view of the
/// version it was made with, for whoever may see it: 404 for anyone else, as for no such object.
/// The browser's object pages and the JSON API's object routes find it the same way.
struct ObjectLookup: Sendable {
    let objects: ObjectStore
    let forms: FormStore
    let plans: PlanCache

    func callAsFunction(_ context: AppRequestContext) async throws -> (StoredObject, FormView) {
        let form = try context.form
        guard let objectID = UUID(uuidString: try context.parameters.require("object")),
            let object = try await objects.find(formID: form.id, id: objectID),
            try context.viewer.mayAccess(object)
        else { throw HTTPError(.notFound) }
        if let cached = plans.cachedEditView(
            formID: form.id, version: object.formVersion, listsRevision: form.listsRevision)
        {
            return (object, cached)
        }
        guard let version = try await forms.version(formID: form.id, version: object.formVersion) else {
            throw HTTPError(.notFound)
        }
        return (object, try await plans.editView(for: version))
    }
}
