import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// Loads the XML fixtures and runs them through the importer.
enum Fixtures {
    static func bytes(_ name: String) throws -> [UInt8] {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: "xml", subdirectory: "Fixtures"),
            "no fixture \(name).xml")
        return Array(try Data(contentsOf: url))
    }

    /// The demo form of the repository, read where it lives rather than copied.
    static func demoBytes() throws -> [UInt8] {
        let tests = URL(fileURLWithPath: #filePath).absoluteURL.deletingLastPathComponent()
        let url = tests.appendingPathComponent("../../Specs/new-issue.xml").standardizedFileURL
        return Array(try Data(contentsOf: url))
    }

    static func document(_ name: String) throws -> ImportDocument {
        ImportDocument(name: "\(name).xml", data: try bytes(name))
    }

    /// The errors importing a fixture gives; records an issue if the import succeeds.
    static func errors(
        _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> [ImportError] {
        try errors(of: [document(name)], sourceLocation: sourceLocation)
    }

    static func errors(
        of documents: [ImportDocument], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> [ImportError] {
        do {
            let result = try FormImporter.importDocuments(documents)
            Issue.record("expected the import to fail, got \(result.forms.map(\.id))", sourceLocation: sourceLocation)
            return []
        } catch {
            return error.errors
        }
    }
}
