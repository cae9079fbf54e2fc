import FluentKit

/// Adds `option_lists.instance_xml`: an external instance an admin uploaded for an imported
/// XForm's list (`src="jr://file/cities.csv"`), as XML: what the form's itemsets, filters
/// included, are evaluated against.
struct AddListInstances: RecordedMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(OptionListRecord.schema).field("instance_xml", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(OptionListRecord.schema).deleteField("instance_xml").update()
    }
}
