import FluentKit
import Foundation

/// A row of `object_instances`: an object of an imported XForm as its ODK instance XML (the
/// record of truth, exported unchanged to ODK tools), beside the values in `objects`, written
/// in the same transaction. An edit replaces it with the new instance, which carries the old
/// one's id in `meta/deprecatedID`.
final class ObjectInstanceRecord: Model, @unchecked Sendable {
    static let schema = "object_instances"

    @ID(custom: "object_id", generatedBy: .user)
    var id: UUID?

    /// The instance's `meta/instanceID` (`uuid:…`).
    @Field(key: "instance_id")
    var instanceID: String

    @Field(key: "xml")
    var xml: String

    @Timestamp(key: "updated_at", on: .update)
    var updatedAt: Date?

    init() {}

    init(objectID: UUID, _ instance: InstanceXML) {
        id = objectID
        instanceID = instance.id
        xml = instance.xml
    }

    /// The stored properties, named rather than found by reflection (see ``ObjectRecord/properties``).
    var properties: [any AnyProperty] { [_id, _instanceID, _xml, _updatedAt] }
}

/// An object's record of truth beside its values: an XForm submission's instance XML and its
/// `meta/instanceID`.
package struct InstanceXML: Sendable, Hashable {
    package var id: String
    package var xml: String

    package init(id: String, xml: String) {
        self.id = id
        self.xml = xml
    }
}
