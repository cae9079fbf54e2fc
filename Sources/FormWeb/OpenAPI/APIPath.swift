import FormModel
import HTTPTypes

/// One address of the JSON API as its OpenAPI description says it: the path in OpenAPI's
/// template form (`/api/forms/{id}/objects`), its path parameters and its operations. Every
/// address is one value in ``APIPaths``.
struct APIPath: Sendable {
    var path: String
    /// Path parameters, as references into the components (`FormID`, `ObjectID`…).
    var parameters: [String]
    var operations: [APIOperation]

    init(_ path: String, parameters: [String] = [], _ operations: [APIOperation]) {
        self.path = path
        self.parameters = parameters
        self.operations = operations
    }

    /// Whether the address belongs to one form (`/api/forms/{id}/…`): a form's own description has it.
    var isFormScoped: Bool { parameters.contains("FormID") }

    /// The path item; in a form's description, with the form's id written into the path.
    func item(formID: String?, access: FormAccessLevel?) -> (path: String, item: JSONValue) {
        var item: JSONValue = [:]
        var parameters = self.parameters
        var path = self.path
        if let formID {
            path = path.replacingOccurrences(of: "{id}", with: formID)
            parameters.removeAll { $0 == "FormID" }
        }
        if !parameters.isEmpty { item["parameters"] = .array(parameters.map { OpenAPIComponents.ref(parameter: $0) }) }
        for operation in operations {
            item[operation.method.rawValue.lowercased()] = operation.object(access: access)
        }
        return (path, item)
    }
}

/// Who may call an operation in a form's description, where the form's access is known.
enum FormAccessLevel: Sendable {
    case anyone
    case signedIn
}

/// One operation: method, summary, who may call it, parameters, body and every answer.
struct APIOperation: Sendable {
    /// Who may call it.
    enum Caller: Sendable {
        /// Anyone (the descriptions).
        case anyone
        /// As the form's access says: anyone for a public form, signed in (or the admin token) for a users form.
        case formAccess
        /// An admin: the admin token or an admin's session.
        case admin
    }

    var method: HTTPRequest.Method
    var operationID: String
    var summary: String
    var caller: Caller
    /// Query and header parameters, as references into the components.
    var parameters: [String] = []
    var requestBody: JSONValue?
    /// By status: `OpenAPIComponents.json(…)`, `empty(…)` or a reference into the components' responses.
    var responses: [String: JSONValue]

    init(
        _ method: HTTPRequest.Method, _ operationID: String, _ summary: String, caller: Caller,
        parameters: [String] = [], body: JSONValue? = nil, responses: [String: JSONValue]
    ) {
        self.method = method
        self.operationID = operationID
        self.summary = summary
        self.caller = caller
        self.parameters = parameters
        self.requestBody = body
        self.responses = responses
    }

    /// The operation object. Every operation may also answer 401 (a wrong bearer token, on any
    /// route) and 503 (the database is unavailable).
    func object(access: FormAccessLevel?) -> JSONValue {
        var object: JSONValue = [
            "operationId": .string(operationID),
            "summary": .string(summary),
        ]
        if !parameters.isEmpty {
            object["parameters"] = .array(parameters.map { OpenAPIComponents.ref(parameter: $0) })
        }
        if let requestBody { object["requestBody"] = requestBody }
        var responses = self.responses
        if responses["401"] == nil { responses["401"] = OpenAPIComponents.ref(response: "Unauthorized") }
        responses["503"] = OpenAPIComponents.ref(response: "Unavailable")
        object["responses"] = .object(responses)
        object["security"] = security(access: access)
        return object
    }

    /// The security requirements: `{}` where no credentials are needed.
    func security(access: FormAccessLevel?) -> JSONValue {
        let credentials: [JSONValue] = [["adminToken": []], ["session": []]]
        switch (caller, access) {
        // In the whole API's description the form decides: anyone, for a public form.
        case (.anyone, _), (.formAccess, .anyone?), (.formAccess, nil): return .array([[:]] + credentials)
        case (.formAccess, .signedIn?), (.admin, _): return .array(credentials)
        }
    }
}
