import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// Every XForm of `../shared/corpus/xforms` (beside the checkout) imports with no error.
/// Skipped when the corpus is not there.
@Suite("XForms: the corpus", .enabled(if: XFormCorpus.isPresent, "../shared/corpus/xforms is missing"))
struct XFormCorpusTests {
    @Test("every corpus XForm imports with no error, one form with rules each")
    func everyFormImports() throws {
        var summary: [String] = []
        for name in try XFormCorpus.names() {
            let result = try XFormCorpus.importing(name)
            #expect(result.kind == .xforms)
            let form = try #require(result.forms.first, "\(name)")
            #expect(result.forms.count == 1, "\(name)")
            let rules = try #require(result.rules[form.id], "\(name)")
            // Every field stands for a node, and every node with a field is a field of the form.
            let fields = Set(form.allFields.map(\.name))
            let nodeFields = Set(rules.nodes.compactMap(\.field))
            #expect(fields == nodeFields, "\(name)")
            // Nothing but the (native-only) required rule is broken.
            let broken = form.ruleViolations().filter { $0.code != .noRequiredField }
            #expect(broken.isEmpty, "\(name): \(broken.map(\.message))")
            #expect(!rules.primaryInstance.isEmpty)
            var codes: [String: Int] = [:]
            for warning in result.warnings { codes[warning.code.rawValue, default: 0] += warning.count }
            let byCode = codes.keys.sorted().map { "\($0) \(codes[$0]!)" }.joined(separator: ", ")
            summary.append("\(name): \(form.allFields.count) questions; \(byCode)")
        }
        print(summary.joined(separator: "\n"))
        #expect(summary.count == 13)
    }
}

/// The corpus's XForms.
enum XFormCorpus {
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "shared/corpus/xforms")

    static var isPresent: Bool { FileManager.default.fileExists(atPath: root.path) }

    static func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".xml") }.sorted()
    }

    static func importing(_ name: String) throws -> ImportResult {
        let data = try Data(contentsOf: root.appending(path: name))
        return try FormImporter.importDocuments([ImportDocument(name: name, data: Array(data))])
    }
}
