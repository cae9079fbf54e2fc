import FormModel

/// One entity as the service answered it, read into the form's terms: its values by field name,
/// its key (the object's link) and its ETag (for `If-Match` on the next change).
package struct ODataEntity: Sendable, Hashable {
    /// The values of the bound fields the entity holds, by field name; nulls and values the
    /// form cannot hold are absent.
    package var values: [String: FieldValue]
    /// The key by key property name, typed so that it writes back as the same literal.
    package var key: [String: FieldValue]
    /// `__metadata.etag` (V2), `@odata.etag` (V4), else the answer's `ETag` header.
    package var etag: String?
    /// `__metadata.uri` (V2) or `@odata.id` (V4), as the service gave it.
    package var uri: String?
    /// `__metadata.type` (V2) or `@odata.type` (V4), when given.
    package var type: String?
    /// The items of each composition the answer held inline (a deep insert's answer, a read with
    /// `$expand`), by the form's item list name, in the service's order; a list the answer did not
    /// hold is absent.
    package var items: [String: [ODataEntity]]

    package init(
        values: [String: FieldValue], key: [String: FieldValue], etag: String? = nil, uri: String? = nil,
        type: String? = nil, items: [String: [ODataEntity]] = [:]
    ) {
        self.values = values
        self.key = key
        self.etag = etag
        self.uri = uri
        self.type = type
        self.items = items
    }
}
