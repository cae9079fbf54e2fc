import FormModel

/// The shared parts of the OpenAPI descriptions: schemas of the answers and errors, the answers
/// every route may give, parameters and security schemes. A form's own description replaces the
/// generic schemas of an object's values and of the create and edit bodies with the form's, and
/// names its value-list fields and lists.
enum OpenAPIComponents {
    /// What a form's description knows that the whole API's does not.
    struct FormSpecifics {
        var values: JSONValue
        var create: JSONValue
        var edit: JSONValue
        var formID: String
        /// The fields with an options route (value lists).
        var valueListFields: [String]
        var lists: [String]
    }

    static func ref(schema name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }
    static func ref(response name: String) -> JSONValue { ["$ref": .string("#/components/responses/\(name)")] }
    static func ref(parameter name: String) -> JSONValue { ["$ref": .string("#/components/parameters/\(name)")] }

    /// A JSON answer (`application/json`) with the schema `schema` (a component's name, or a schema).
    static func json(_ description: String, _ schema: JSONValue, headers: [String: JSONValue] = [:]) -> JSONValue {
        var response: JSONValue = [
            "description": .string(description),
            "content": ["application/json": ["schema": schema]],
        ]
        if !headers.isEmpty { response["headers"] = .object(headers) }
        return response
    }

    /// A JSON answer whose schema is the component `name`.
    static func json(_ description: String, _ name: String, headers: [String: JSONValue] = [:]) -> JSONValue {
        json(description, ref(schema: name), headers: headers)
    }

    /// An answer without a body.
    static func empty(_ description: String) -> JSONValue { ["description": .string(description)] }

    /// A response header.
    static func header(_ description: String, required: Bool = false) -> JSONValue {
        ["description": .string(description), "required": .bool(required), "schema": ["type": "string"]]
    }

    /// A request body of one JSON schema.
    static func body(_ schema: JSONValue, type: String = "application/json", required: Bool = true) -> JSONValue {
        ["required": .bool(required), "content": [.init(stringLiteral: type): ["schema": schema]]]
    }

    /// The components object; with `form`, that form's.
    static func object(form: FormSpecifics?) -> JSONValue {
        var schemas = self.schemas
        var parameters = self.parameters
        if let form {
            schemas["Values"] = form.values
            schemas["CreateRequest"] = form.create
            schemas["EditRequest"] = form.edit
            schemas["Object"]?["properties"]?["form"] = ["type": "string", "const": .string(form.formID)]
            parameters["Field"]?["schema"] = ["type": "string", "enum": .strings(form.valueListFields)]
            parameters["List"]?["schema"] = ["type": "string", "enum": .strings(form.lists)]
        }
        return [
            "schemas": .object(schemas),
            "responses": .object(responses),
            "parameters": .object(parameters),
            "securitySchemes": securitySchemes,
        ]
    }

    static let securitySchemes: JSONValue = [
        "adminToken": [
            "type": "http", "scheme": "bearer",
            "description":
                "The admin token, FIELDWORK_ADMIN_TOKEN: makes the caller an admin. Any other bearer token is refused with 401 on every route.",
        ],
        "session": [
            "type": "apiKey", "in": "cookie", "name": .string(Viewer.sessionCookieName),
            "description": "The session cookie of a signed-in account (POST /login).",
        ],
    ]

    static let parameters: [String: JSONValue] = [
        "FormID": [
            "name": "id", "in": "path", "required": true, "description": "The form's id.",
            "schema": ["type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"],
            "example": .string(DemoSeed.formID),
        ],
        "ObjectID": [
            "name": "object", "in": "path", "required": true, "description": "The object's id.",
            "schema": ["type": "string", "format": "uuid"],
        ],
        "Field": [
            "name": "field", "in": "path", "required": true, "description": "The name of a value-list field.",
            "schema": ["type": "string"],
        ],
        "List": [
            "name": "list", "in": "path", "required": true, "description": "The id of one of the form's lists.",
            "schema": ["type": "string"],
        ],
        "Query": [
            "name": "q", "in": "query", "required": false,
            "description":
                "What was typed: every word starts a word of the label, or occurs in the value (first 200 characters).",
            "schema": ["type": "string"],
        ],
        "Page": [
            "name": "page", "in": "query", "required": false, "description": "The page, from 1; 50 options a page.",
            "schema": ["type": "integer", "minimum": 1, "maximum": 10_000, "default": 1],
        ],
        "IdempotencyKey": [
            "name": "Idempotency-Key", "in": "header", "required": false,
            "description":
                "The same key and fields make one object (kept for a day); the key with other fields is refused (422, idempotency-key-reused).",
            "schema": ["type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]+$"],
        ],
        "Since": [
            "name": "since", "in": "query", "required": false,
            "description": "Only objects created or changed from this ISO date or datetime on.",
            "schema": ["type": "string"],
        ],
        "Until": [
            "name": "until", "in": "query", "required": false,
            "description": "Only objects created or changed before this ISO date (the whole day) or datetime.",
            "schema": ["type": "string"],
        ],
        "Cursor": [
            "name": "cursor", "in": "query", "required": false,
            "description": "The `next` of the page before, as given; none for the first page.",
            "schema": ["type": "string"],
        ],
        "Limit": [
            "name": "limit", "in": "query", "required": false, "description": "Objects a page.",
            "schema": ["type": "integer", "minimum": 1, "maximum": 1000, "default": 100],
        ],
        "Header": [
            "name": "header", "in": "query", "required": false,
            "description": "What the CSV's header line names each column by.",
            "schema": ["type": "string", "enum": ["labels", "names"], "default": "labels"],
        ],
        "Hook": [
            "name": "hook", "in": "path", "required": true, "description": "A webhook endpoint's id.",
            "schema": ["type": "string", "format": "uuid"],
        ],
        "Event": [
            "name": "event", "in": "path", "required": true, "description": "A delivery's id (`msg_…`).",
            "schema": ["type": "string"],
        ],
        "IfMatch": [
            "name": "If-Match", "in": "header", "required": false,
            "description":
                "For an object a service holds: the ETag the change is based on (else the one last read); 412 when it changed there since.",
            "schema": ["type": "string"],
        ],
    ]

    static let responses: [String: JSONValue] = [
        "Unauthorized": json(
            "A wrong bearer token (with `WWW-Authenticate: Bearer error=\"invalid_token\"`), or none where one is needed.",
            "Message",
            headers: ["WWW-Authenticate": header("`Bearer`, with `error=\"invalid_token\"` for a wrong token.")]),
        "NotFound": json("No such form, object, field or list (or not this caller's object).", "Message"),
        "Gone": json("The form is retired: it takes no new objects.", "Message"),
        "UnsupportedMediaType": json("The body is not of the type this route takes.", "Message"),
        "TooLarge": json("The body is larger than this route takes.", "Message"),
        "Unavailable": json(
            "The database is unavailable; try again in a few seconds.", "Message",
            headers: ["Retry-After": header("Seconds to wait.", required: true)]),
    ]

    /// A string in a schema.
    private static let string: JSONValue = ["type": "string"]

    /// `{"errors": [item…]}`: the shape of every refusal with several reasons.
    private static func errorList(_ item: JSONValue) -> JSONValue {
        ["type": "object", "required": ["errors"], "properties": ["errors": ["type": "array", "items": item]]]
    }

    /// A value a create or an edit may send for a field: what ``JSONInput`` takes.
    private static let sentValue: JSONValue = [
        "anyOf": [
            ["type": ["string", "number", "boolean", "null"]],
            ["type": "array", "items": ["type": ["string", "number", "boolean", "null"]]],
        ]
    ]

    static let schemas: [String: JSONValue] = [
        "Message": [
            "type": "object", "required": ["error"],
            "properties": ["error": ["type": "string", "description": "Why the request was refused, for people."]],
        ],
        "Issue": [
            "type": "object", "required": ["field", "code", "message"],
            "properties": [
                "field": ["type": "string", "description": "The field at fault; empty for none."],
                "code": ["type": "string", "description": "A stable code (docs/validation.md)."],
                "message": ["type": "string", "description": "What to do, for people."],
            ],
        ],
        "Issues": errorList(ref(schema: "Issue")),
        "OutcomeUnknown": [
            "type": "object", "required": ["errors", "object"],
            "description": "A create sent to the service whose answer was lost (code outcome-unknown).",
            "properties": [
                "errors": ["type": "array", "items": ref(schema: "Issue")],
                "object": ["type": "string", "format": "uuid"],
                "requestId": ["type": "string", "format": "uuid"],
            ],
        ],
        "ChangedMeanwhile": [
            "type": "object", "required": ["errors", "object"],
            "description":
                "The object changed in its service since the ETag sent (code changed-meanwhile): its values now.",
            "properties": [
                "errors": ["type": "array", "items": ref(schema: "Issue")],
                "object": ref(schema: "Object"),
            ],
        ],
        "Object": [
            "type": "object", "required": ["id", "form", "version", "values"],
            "properties": [
                "id": ["type": "string", "format": "uuid"],
                "form": string,
                "version": ["type": "integer", "minimum": 1, "description": "The form version it was made with."],
                "values": ref(schema: "Values"),
                "createdAt": ["type": "string", "format": "date-time"],
                "updatedAt": ["type": "string", "format": "date-time"],
                "service": [
                    "type": "object", "required": ["state"],
                    "description": "For an object a service holds.",
                    "properties": [
                        "state": ["type": "string", "enum": ["sending", "created", "unknown"]],
                        "key": ["type": "string", "description": "Its key in the service."],
                        "requestId": ["type": "string", "format": "uuid"],
                    ],
                ],
            ],
        ],
        "Values": [
            "type": "object",
            "description":
                "By field name: text, choices, dates (2026-11-21), times (14:30), datetimes (2026-11-21T14:30) and durations (PT1H30M) as strings, numbers as numbers, switches as booleans, several choices as arrays of strings, files as arrays of objects. A form's own description (GET /api/forms/{id}/openapi.json) says which.",
            "additionalProperties": [
                "anyOf": [
                    ["type": ["string", "number", "boolean"]],
                    ["type": "array", "items": string],
                    ["type": "array", "items": ref(schema: "File")],
                ]
            ],
        ],
        "File": FieldJSONSchema.file(maxSize: nil),
        "CreateRequest": [
            "type": "object",
            "description":
                "By field name: strings, numbers, booleans or lists of them; null sends no value, a field left out takes its default. Files cannot be sent as JSON.",
            "additionalProperties": sentValue,
        ],
        "EditRequest": [
            "type": "object",
            "description":
                "The fields named change (null empties one); the others, files included, keep their values.",
            "additionalProperties": sentValue,
        ],
        "OptionsPage": [
            "type": "object", "required": ["options", "total", "page", "more"],
            "properties": [
                "options": [
                    "type": "array",
                    "items": [
                        "type": "object", "required": ["value", "label"],
                        "properties": ["value": string, "label": string, "group": string],
                    ],
                ],
                "total": ["type": "integer", "minimum": 0],
                "page": ["type": "integer", "minimum": 1],
                "more": ["type": "boolean"],
            ],
        ],
        "FormSchema": [
            "type": "object", "required": ["format", "id", "title", "submit", "regular", "sections"],
            "description": "The canonical form schema (docs/schema.md).",
            "properties": [
                "format": ["type": "string", "const": .string(FormSchema.format)],
                "id": string, "title": string, "object": string, "submit": string,
                "regular": ["type": "string", "enum": ["form-sheet", "popover"]],
                "sections": ["type": "array", "items": ["type": "object"]],
                "lists": ["type": "array", "items": ["type": "object"]],
            ],
        ],
        "OpenAPIDocument": [
            "type": "object", "required": ["openapi", "info", "paths"],
            "properties": ["openapi": ["type": "string", "pattern": "^3\\.1\\.[0-9]+$"]],
        ],
        "ImportMessage": [
            "type": "object", "required": ["line", "column", "message", "code"],
            "properties": [
                "line": ["type": "integer"], "column": ["type": "integer"], "message": string, "code": string,
                "file": ["type": "string", "description": "Only when several files were sent."],
            ],
        ],
        "ImportAnswer": [
            "type": "object", "required": ["forms", "warnings"],
            "properties": [
                "id": ["type": "string", "description": "The first form's id."],
                "version": ["type": "integer", "description": "The first form's version."],
                "forms": [
                    "type": "array",
                    "items": [
                        "type": "object", "required": ["id", "version"],
                        "properties": ["id": string, "version": ["type": "integer", "minimum": 1]],
                    ],
                ],
                "warnings": ["type": "array", "items": ref(schema: "ImportMessage")],
            ],
        ],
        "ImportErrors": errorList(ref(schema: "ImportMessage")),
        "OptionsAnswer": [
            "type": "object", "required": ["list", "options"],
            "properties": [
                "list": string, "options": ["type": "integer", "minimum": 0, "description": "How many options."],
            ],
        ],
        "LineErrors": errorList([
            "type": "object", "required": ["line", "message"],
            "properties": ["line": ["type": "integer"], "message": string],
        ]),
        "ObjectPage": [
            "type": "object", "required": ["objects", "next"],
            "properties": [
                "objects": ["type": "array", "items": ref(schema: "Object")],
                "next": ["type": ["string", "null"], "description": "The cursor of the next page; null on the last."],
            ],
        ],
        "WebhookRequest": [
            "type": "object", "required": ["url", "events"],
            "properties": [
                "url": ["type": "string", "description": "An http or https URL, with no user name or password in it."],
                "events": [
                    "type": "array", "minItems": 1,
                    "items": ["type": "string", "enum": ["created", "updated", "deleted"]],
                ],
            ],
        ],
        "WebhookRegistered": [
            "type": "object", "required": ["id", "secret"],
            "properties": [
                "id": ["type": "string", "format": "uuid"],
                "secret": ["type": "string", "pattern": "^whsec_[A-Za-z0-9+/]+=*$"],
            ],
        ],
        "WebhookListing": [
            "type": "object", "required": ["webhooks"],
            "properties": [
                "webhooks": [
                    "type": "array",
                    "items": [
                        "type": "object", "required": ["id", "url", "events", "deliveries"],
                        "properties": [
                            "id": ["type": "string", "format": "uuid"],
                            "url": string,
                            "events": ["type": "array", "items": string],
                            "createdAt": ["type": "string", "format": "date-time"],
                            "createdBy": string,
                            "deliveries": [
                                "type": "array",
                                "items": [
                                    "type": "object",
                                    "required": ["id", "type", "object", "status", "attempts", "createdAt"],
                                    "properties": [
                                        "id": string, "type": string, "object": string,
                                        "status": ["type": "string", "enum": ["pending", "delivered", "failed"]],
                                        "attempts": ["type": "integer", "minimum": 0],
                                        "createdAt": ["type": "string", "format": "date-time"],
                                        "nextAttemptAt": ["type": "string", "format": "date-time"],
                                        "lastAttemptAt": ["type": "string", "format": "date-time"],
                                        "lastStatus": ["type": "integer"],
                                        "lastAnswer": string,
                                        "latencyMs": ["type": "integer"],
                                        "deliveredAt": ["type": "string", "format": "date-time"],
                                    ],
                                ],
                            ],
                        ],
                    ],
                ]
            ],
        ],
        "WebhookSentAgain": [
            "type": "object", "required": ["id", "status"],
            "properties": ["id": string, "status": ["type": "string", "enum": ["pending"]]],
        ],
        "SettingErrors": errorList([
            "type": "object", "required": ["field", "message"],
            "properties": ["field": string, "message": string],
        ]),
        "ConnectionRequest": [
            "type": "object",
            "properties": [
                "url": ["type": "string", "description": "The service root, http or https."],
                "auth": [
                    "type": "object",
                    "properties": [
                        "kind": ["type": "string", "enum": ["none", "basic", "bearer", "header"], "default": "none"],
                        "user": string,
                        "secret": [
                            "type": "string", "description": "Left out, the stored one is kept.", "writeOnly": true,
                        ],
                        "header": ["type": "string", "description": "The header's name for kind header."],
                    ],
                ],
                "mode": ["type": "string", "enum": ["service", "local"], "default": "service"],
                "sapClient": string, "sapLanguage": string,
                "timeout": [
                    "type": "integer", "minimum": 1, "maximum": 120, "description": "Seconds a request may take.",
                ],
                "test": ["type": "boolean", "description": "Only test: store nothing."],
            ],
        ],
        "Connection": [
            "type": "object", "required": ["url", "auth", "timeout", "forms"],
            "properties": [
                "url": string,
                "auth": [
                    "type": "object", "required": ["kind", "secretStored"],
                    "properties": [
                        "kind": ["type": "string", "enum": ["none", "basic", "bearer", "header"]],
                        "user": string, "header": string, "secretStored": ["type": "boolean"],
                    ],
                ],
                "sapClient": string, "sapLanguage": string, "timeout": ["type": "integer"],
                "forms": [
                    "type": "object", "description": "The mode of each form of the import.",
                    "additionalProperties": ["type": "string", "enum": ["service", "local"]],
                ],
                "testedAt": ["type": "string", "format": "date-time"],
                "updatedAt": ["type": "string", "format": "date-time"],
            ],
        ],
        "ConnectionAnswer": [
            "type": "object", "required": ["drift", "forms", "tested"],
            "properties": [
                "connection": ref(schema: "Connection"),
                "drift": [
                    "type": "array",
                    "items": [
                        "type": "object", "required": ["kind", "entitySet", "message"],
                        "properties": [
                            "kind": [
                                "type": "string",
                                "enum": ["missing-set", "missing-property", "changed-type", "changed-key"],
                            ],
                            "entitySet": string, "property": string, "message": string,
                        ],
                    ],
                ],
                "forms": ["type": "array", "items": string],
                "tested": ["type": "boolean"],
            ],
        ],
    ]
}
