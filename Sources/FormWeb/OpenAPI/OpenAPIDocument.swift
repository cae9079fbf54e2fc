import FormModel
import FormStore
import HTTPTypes

/// The OpenAPI 3.1 descriptions of the JSON API: the whole API's (`GET /api/openapi.json`) and
/// one form's (`GET /api/forms/{id}/openapi.json`), its routes with the form's id in the path
/// and its object, create and edit bodies as JSON Schemas of its newest version.
enum OpenAPIDocument {
    static let openAPIVersion = "3.1.1"

    /// The whole API.
    static func whole() -> JSONValue {
        document(
            info: [
                "title": "Fieldwork JSON API",
                "version": .string(FieldworkVersion.current),
                "description": .string(description),
            ],
            paths: APIPaths.all.map { $0.item(formID: nil, access: nil) },
            components: OpenAPIComponents.object(form: nil))
    }

    /// One form's routes, for the form's newest version `schema` (with its uploaded options).
    static func form(_ schema: FormSchema, version: Int, access: FormAccess) -> JSONValue {
        let valueLists = schema.fields(of: .valueList).map(\.name)
        let lists = schema.lists.map(\.id)
        let paths = APIPaths.all.filter { path in
            // A route whose parameter would have no value to take is left out.
            path.isFormScoped && (!path.parameters.contains("Field") || !valueLists.isEmpty)
                && (!path.parameters.contains("List") || !lists.isEmpty)
        }
        let specifics = OpenAPIComponents.FormSpecifics(
            values: FormJSONSchema.values(of: schema, use: .answer),
            create: FormJSONSchema.values(of: schema, use: .create),
            edit: FormJSONSchema.values(of: schema, use: .edit),
            formID: schema.id, valueListFields: valueLists, lists: lists)
        return document(
            info: [
                "title": .string("\(schema.title): Fieldwork JSON API"),
                "version": .string(FieldworkVersion.current),
                "description": .string(
                    "The routes of the form \(schema.id), version \(version): its objects' values as the newest version describes them. "
                        + description),
                "x-fieldwork-form": .string(schema.id),
                "x-fieldwork-form-version": .int(version),
            ],
            paths: paths.map { $0.item(formID: schema.id, access: access == .public ? .anyone : .signedIn) },
            components: OpenAPIComponents.object(form: specifics))
    }

    private static func document(
        info: JSONValue, paths: [(path: String, item: JSONValue)], components: JSONValue
    )
        -> JSONValue
    {
        [
            "openapi": .string(openAPIVersion),
            "info": info,
            "servers": [["url": "/"]],
            "paths": .object(Dictionary(paths.map { ($0.path, $0.item) }, uniquingKeysWith: { first, _ in first })),
            "components": components,
        ]
    }

    private static let description = """
        Every answer is JSON, errors included: {"error": "…"} or {"errors": […]}. A wrong bearer token is 401 on \
        every route, whatever a session says. Lengths in requests are code points, which are never fewer than \
        the characters the server counts; answers carry no maxLength.
        """

    /// The routes and the description disagree: each `METHOD /api/path` a route has and the
    /// description does not, or the other way round. Empty when they agree.
    /// - Parameter routes: the methods of each path the API's router has, relative to `/api`
    ///   (``APIRoutes/routes``).
    static func mismatches(routes: [String: Set<HTTPRequest.Method>]) -> [String] {
        let served = Set(routes.flatMap { path, methods in methods.map { "\($0.rawValue) /api\(path)" } })
        let described = Set(
            APIPaths.all.flatMap { path in path.operations.map { "\($0.method.rawValue) \(path.path)" } })
        return served.subtracting(described).sorted().map { "\($0) is not described" }
            + described.subtracting(served).sorted().map { "\($0) is described but not routed" }
    }
}
