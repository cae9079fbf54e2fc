import FormImport
import Foundation
import TestSupport
import Testing

@testable import FormModel
@testable import FormPages
@testable import FormStore
@testable import FormWeb

@Suite("Prepared views")
struct PlanCacheTests {
    @Test("the create and edit views of a version share their value lists' search: a long list is folded once")
    func sharedSearch() async throws {
        let options = (1...300).map { Option(value: "c\($0)", label: "City \($0)") }
        let list = OptionList(id: "cities", groups: [OptionGroup(options: options)])
        let schema = Fixtures.schema(
            [Field(name: "city", kind: .valueList, label: "City", list: "cities")], lists: [list])
        let form = StoredForm(
            id: schema.id, access: .public, state: .active, version: 1, sourceKind: .native,
            schemaJSON: String(decoding: try schema.canonicalJSON(), as: UTF8.self))
        let plans = PlanCache(
            renderer: try await Fixtures.renderer(),
            versions: FormVersions(timeZone: .gmt, source: { ViewSchema(try $0.schema()) }))

        let create = try await plans.createView(for: form)
        let edit = try await plans.editView(for: form)
        let created = try #require(create.optionSearches["city"])
        let edited = try #require(edit.optionSearches["city"])
        let shared = created.sharesStorage(with: edited)
        #expect(shared, "the edit view folded the list again")
        #expect(edited.search("city 250").matches.map(\.value) == ["c250"])

        // A new lists revision (options uploaded) prepares the search again.
        var uploaded = form
        uploaded.listsRevision = 1
        let fresh = try await plans.editView(for: uploaded)
        let sharedAfterUpload = try #require(fresh.optionSearches["city"]).sharesStorage(with: created)
        #expect(!sharedAfterUpload, "a new lists revision folds the new options")
    }
}
