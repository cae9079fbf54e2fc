import FormModel

/// Every address of the JSON API, one value each, in the order the description lists them.
///
/// A new route under `/api` gets its value here and its entry in ``all``: the application
/// refuses to start while a route and the description disagree (``OpenAPIDocument/mismatches(routes:)``).
enum APIPaths {
    static let all: [APIPath] = [
        openAPI, forms, form, formOpenAPI, options, objects, object, objectInstance, exportCSV, exportJSONLines,
        exportZIP, exportInstances, lists, connection, webhooks, webhook, webhookRetry,
    ]

    private typealias C = OpenAPIComponents

    static let openAPI = APIPath(
        "/api/openapi.json",
        [
            APIOperation(
                .get, "getOpenAPI", "This description of the whole JSON API", caller: .anyone,
                responses: ["200": C.json("The OpenAPI 3.1 description.", "OpenAPIDocument")])
        ])

    static let forms = APIPath(
        "/api/forms",
        [
            APIOperation(
                .post, "importForms",
                "Import an XML spec or OData metadata; with the admin token, several files as multipart/form-data, one batch in their order",
                caller: .admin,
                body: [
                    "required": true,
                    "content": [
                        "application/xml": ["schema": ["type": "string"]],
                        "text/xml": ["schema": ["type": "string"]],
                        "multipart/form-data": [
                            "schema": [
                                "type": "object",
                                "properties": [
                                    "documents": [
                                        "type": "array",
                                        "items": ["type": "string", "contentMediaType": "application/xml"],
                                    ]
                                ],
                            ]
                        ],
                    ],
                ],
                responses: [
                    "201": C.json(
                        "Stored: the forms and their versions.", "ImportAnswer",
                        headers: ["Location": C.header("The first form's schema.", required: true)]),
                    "400": C.json("A multipart body without files, or cut short.", "Message"),
                    "401": C.ref(response: "Unauthorized"),
                    "403": C.json("Several files with a session: send them with the admin token.", "Message"),
                    "413": C.ref(response: "TooLarge"),
                    "415": C.ref(response: "UnsupportedMediaType"),
                    "422": C.json("Refused, nothing stored: each error with its line and column.", "ImportErrors"),
                ])
        ])

    static let form = APIPath(
        "/api/forms/{id}", parameters: ["FormID"],
        [
            APIOperation(
                .get, "getFormSchema", "The form's canonical schema (its newest version, with uploaded options)",
                caller: .formAccess,
                responses: [
                    "200": C.json("The canonical schema.", "FormSchema"),
                    "404": C.ref(response: "NotFound"),
                ])
        ])

    static let formOpenAPI = APIPath(
        "/api/forms/{id}/openapi.json", parameters: ["FormID"],
        [
            APIOperation(
                .get, "getFormOpenAPI",
                "The OpenAPI 3.1 description of this form's routes, with its object as a JSON Schema",
                caller: .formAccess,
                responses: [
                    "200": C.json("The form's OpenAPI 3.1 description.", "OpenAPIDocument"),
                    "404": C.ref(response: "NotFound"),
                ])
        ])

    static let options = APIPath(
        "/api/forms/{id}/fields/{field}/options", parameters: ["FormID", "Field"],
        [
            APIOperation(
                .get, "searchOptions",
                "The options of a value list matching what was typed, 50 a page; the other fields' values, as"
                    + " query parameters by field name, narrow a list whose options depend on them",
                caller: .formAccess, parameters: ["Query", "Page"],
                responses: [
                    "200": C.json("A page of options.", "OptionsPage"),
                    "404": C.ref(response: "NotFound"),
                    "410": C.ref(response: "Gone"),
                    "502": C.json("The service that holds the list did not answer.", "Message"),
                ])
        ])

    static let objects = APIPath(
        "/api/forms/{id}/objects", parameters: ["FormID"],
        [
            APIOperation(
                .post, "createObject", "Create an object from JSON, judged as the create view's submit",
                caller: .formAccess, parameters: ["IdempotencyKey"], body: C.body(C.ref(schema: "CreateRequest")),
                responses: [
                    "201": C.json(
                        "Stored.", "Object",
                        headers: [
                            "Location": C.header("Where its creator (or an admin) reads it.", required: true),
                            "ETag": C.header("For an object a service holds: its ETag there."),
                        ]),
                    "400": C.json(
                        "Not a JSON object (an issue with code malformed), or an unusable Idempotency-Key.",
                        ["oneOf": [C.ref(schema: "Issues"), C.ref(schema: "Message")]]),
                    "404": C.ref(response: "NotFound"),
                    "410": C.ref(response: "Gone"),
                    "413": C.ref(response: "TooLarge"),
                    "415": C.ref(response: "UnsupportedMediaType"),
                    "422": C.json("Refused: every issue at once.", "Issues"),
                    "502": C.json(
                        "The form's service did not answer (service-unavailable, nothing created), or its answer was lost (outcome-unknown).",
                        ["oneOf": [C.ref(schema: "Issues"), C.ref(schema: "OutcomeUnknown")]]),
                ]),
            APIOperation(
                .get, "listObjects", "The form's objects, oldest change first, a page at a time by an opaque cursor",
                caller: .admin, parameters: ["Since", "Until", "Cursor", "Limit"],
                responses: [
                    "200": C.json("A page of objects; `next` is null on the last page.", "ObjectPage"),
                    "400": C.json("A parameter that cannot be read (a cursor not given for this form).", "Message"),
                    "404": C.ref(response: "NotFound"),
                ]),
        ])

    static let exportCSV = export(
        "csv", "exportCSV",
        "Every object (or those created or changed in since…until) as CSV: a column per field of the newest version; for a form with item lists, a ZIP (application/zip) of that file and one per list (`{form}-{list}.csv`: object_id, parent_id for a list within items, _id, position, then the item's fields)",
        type: "text/csv", parameters: ["Since", "Until", "Header"])
    static let exportJSONLines = export(
        "jsonl", "exportJSONLines", "Every object (or since…until) as JSON Lines of the object JSON",
        type: "application/jsonl", parameters: ["Since", "Until"])
    static let exportZIP = export(
        "zip", "exportAttachments", "The objects' attachments (or since…until) as a ZIP with a manifest.csv",
        type: "application/zip", parameters: ["Since", "Until"])

    static let exportInstances = export(
        "instances.zip", "exportInstances",
        "An ODK XForm's objects (or since…until) as ODK tools keep submissions: a folder per instanceID with submission.xml and the object's files",
        type: "application/zip", parameters: ["Since", "Until"])

    static let objectInstance = APIPath(
        "/api/forms/{id}/objects/{object}/instance.xml", parameters: ["FormID", "ObjectID"],
        [
            APIOperation(
                .get, "getObjectInstance",
                "An ODK XForm object's instance XML as stored (the record of truth), for its creator, an admin or the admin token",
                caller: .formAccess,
                responses: [
                    "200": [
                        "description": "The instance XML, as a download.",
                        "headers": ["Content-Disposition": C.header("attachment, named by the instance's id.")],
                        "content": ["application/xml": ["schema": ["type": "string"]]],
                    ],
                    "404": C.ref(response: "NotFound"),
                ])
        ])

    /// `GET /api/forms/{id}/export.<ext>`: a download, streamed.
    private static func export(
        _ ext: String, _ operationID: String, _ summary: String, type: String, parameters: [String]
    ) -> APIPath {
        APIPath(
            "/api/forms/{id}/export.\(ext)", parameters: ["FormID"],
            [
                APIOperation(
                    .get, operationID, summary, caller: .admin, parameters: parameters,
                    responses: [
                        "200": [
                            "description": "The download, streamed.",
                            "headers": ["Content-Disposition": C.header("attachment, with the file's name.")],
                            "content": [.init(type): ["schema": ["type": "string"]]],
                        ],
                        "400": C.json("A date or header option that cannot be read.", "Message"),
                        "404": C.ref(response: "NotFound"),
                    ])
            ])
    }

    static let object = APIPath(
        "/api/forms/{id}/objects/{object}", parameters: ["FormID", "ObjectID"],
        [
            APIOperation(
                .get, "getObject", "The stored object, for its creator, an admin or the admin token",
                caller: .formAccess,
                responses: [
                    "200": C.json(
                        "The object.", "Object", headers: ["ETag": C.header("For an object a service holds.")]),
                    "404": C.ref(response: "NotFound"),
                ]),
            APIOperation(
                .patch, "updateObject",
                "Change the fields named (null empties one), judged as the edit view's save",
                caller: .formAccess, parameters: ["IfMatch"], body: C.body(C.ref(schema: "EditRequest")),
                responses: [
                    "200": C.json(
                        "Stored.", "Object", headers: ["ETag": C.header("For an object a service holds.")]),
                    "400": C.json("Not a JSON object.", "Issues"),
                    "404": C.ref(response: "NotFound"),
                    "412": C.json(
                        "Changed in its service since: its values now.", "ChangedMeanwhile",
                        headers: ["ETag": C.header("The ETag to send again.")]),
                    "413": C.ref(response: "TooLarge"),
                    "415": C.ref(response: "UnsupportedMediaType"),
                    "422": C.json("Refused: every issue at once; nothing changed.", "Issues"),
                    "502": C.json("The form's service did not answer; nothing changed.", "Issues"),
                ]),
            APIOperation(
                .delete, "deleteObject", "Delete the object (for an object a service holds, there first)",
                caller: .formAccess, parameters: ["IfMatch"],
                responses: [
                    "204": C.empty("Deleted."),
                    "404": C.ref(response: "NotFound"),
                    "409": C.json("The service refused; nothing deleted.", "Issues"),
                    "412": C.json(
                        "Changed in its service since: its values now; nothing deleted.", "ChangedMeanwhile",
                        headers: ["ETag": C.header("The ETag to send again.")]),
                    "502": C.json("The form's service did not answer; nothing deleted.", "Issues"),
                ]),
        ])

    static let lists = APIPath(
        "/api/forms/{id}/lists/{list}", parameters: ["FormID", "List"],
        [
            APIOperation(
                .put, "replaceOptions",
                "Replace a list's options with a CSV (value,label[,group] a line), in every version of the form",
                caller: .admin, body: C.body(["type": "string"], type: "text/csv"),
                responses: [
                    "200": C.json("Replaced: how many options.", "OptionsAnswer"),
                    "404": C.json("No such form or list.", "Message"),
                    "413": C.ref(response: "TooLarge"),
                    "415": C.ref(response: "UnsupportedMediaType"),
                    "422": C.json("Refused, the old options kept: each line's error.", "LineErrors"),
                ])
        ])

    static let connection = APIPath(
        "/api/forms/{id}/connection", parameters: ["FormID"],
        [
            APIOperation(
                .put, "connect",
                "Connect the import that made the form (all its forms) to its OData service, or test the settings",
                caller: .admin, body: C.body(C.ref(schema: "ConnectionRequest")),
                responses: [
                    "200": C.json(
                        "Connected (or tested): the connection, never the secret, and the drift.", "ConnectionAnswer"),
                    "400": C.json("Not a JSON object of the settings.", "SettingErrors"),
                    "404": C.ref(response: "NotFound"),
                    "422": C.json(
                        "A setting will not do, or the service cannot be reached or refuses the credentials; nothing stored.",
                        "SettingErrors"),
                ]),
            APIOperation(
                .get, "getConnection", "The connection of the form's import", caller: .admin,
                responses: [
                    "200": C.json(
                        "The connection, never the secret, and the drift found when connecting.", "ConnectionAnswer"),
                    "404": C.json("No such form, or it is not connected.", "Message"),
                ]),
            APIOperation(
                .delete, "disconnect", "Disconnect the import's forms and forget the connection with its secret",
                caller: .admin,
                responses: [
                    "204": C.empty("Disconnected (or was not connected)."),
                    "404": C.ref(response: "NotFound"),
                ]),
        ])

    static let webhooks = APIPath(
        "/api/forms/{id}/webhooks", parameters: ["FormID"],
        [
            APIOperation(
                .post, "registerWebhook",
                "Register an endpoint that hears of the form's objects; its signing secret is answered this once",
                caller: .admin, body: C.body(C.ref(schema: "WebhookRequest")),
                responses: [
                    "201": C.json(
                        "Registered: the endpoint's id and its secret (`whsec_` + base64), shown this once.",
                        "WebhookRegistered", headers: ["Location": C.header("Where the form's endpoints are listed.")]),
                    "400": C.json("Not a JSON object of a URL and events.", "SettingErrors"),
                    "404": C.ref(response: "NotFound"),
                    "415": C.ref(response: "UnsupportedMediaType"),
                    "422": C.json("A URL or an event that will not do; nothing stored.", "SettingErrors"),
                ]),
            APIOperation(
                .get, "listWebhooks", "The form's endpoints with their 20 latest deliveries each, never a secret",
                caller: .admin,
                responses: [
                    "200": C.json("The endpoints.", "WebhookListing"),
                    "404": C.ref(response: "NotFound"),
                ]),
        ])

    static let webhook = APIPath(
        "/api/forms/{id}/webhooks/{hook}", parameters: ["FormID", "Hook"],
        [
            APIOperation(
                .delete, "removeWebhook", "Remove an endpoint with its deliveries, sent or not", caller: .admin,
                responses: [
                    "204": C.empty("Removed."),
                    "404": C.ref(response: "NotFound"),
                ])
        ])

    static let webhookRetry = APIPath(
        "/api/forms/{id}/webhooks/{hook}/deliveries/{event}/retry", parameters: ["FormID", "Hook", "Event"],
        [
            APIOperation(
                .post, "sendWebhookAgain", "Send a delivery again: due at once, with 24 hours of retries from now",
                caller: .admin,
                responses: [
                    "202": C.json("Pending again.", "WebhookSentAgain"),
                    "404": C.ref(response: "NotFound"),
                ])
        ])
}
