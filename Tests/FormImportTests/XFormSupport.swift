import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// The XForm fixtures (`Fixtures/xforms`), imported.
enum XFormFixtures {
    static func document(_ name: String) throws -> ImportDocument {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: "xml", subdirectory: "Fixtures/xforms"),
            "no fixture xforms/\(name).xml")
        return ImportDocument(name: "\(name).xml", data: Array(try Data(contentsOf: url)))
    }

    /// The import of one fixture, with its one form and that form's rules.
    static func importing(_ name: String) throws -> (result: ImportResult, form: FormSchema, rules: XFormRules) {
        let result = try FormImporter.importDocuments([document(name)])
        let form = try #require(result.forms.first)
        let rules = try #require(result.rules[form.id])
        return (result, form, rules)
    }

    /// The refusals of a fixture's import; records an issue when it imports.
    static func errors(
        _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws
        -> [ImportError]
    {
        let document = try document(name)
        do throws(ImportFailure) {
            let result = try FormImporter.importDocuments([document])
            Issue.record("expected a refusal, got \(result.forms.map(\.id))", sourceLocation: sourceLocation)
            return []
        } catch {
            return error.errors
        }
    }
}

extension ImportResult {
    /// The warnings of a code, as (message, count).
    func warnings(_ code: ImportCode) -> [String] {
        warnings.filter { $0.code == code }.map(\.message)
    }
}
