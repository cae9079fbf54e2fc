/// What a service answered to a change: the entity when it sent one back (V4 with
/// `Prefer: return=representation`), and the new ETag for the next change.
package struct ChangeAnswer: Sendable, Hashable {
    package var entity: ODataEntity?
    package var etag: String?

    package init(entity: ODataEntity?, etag: String?) {
        self.entity = entity
        self.etag = etag
    }
}
