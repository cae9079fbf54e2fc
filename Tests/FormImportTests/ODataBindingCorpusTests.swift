import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// The service bindings of every OData file of `../shared/corpus` (beside the checkout), imported
/// as `scripts/corpus-check` imports them: each annotation group of SOURCES.md together, every
/// other file alone. Skipped when the corpus is not there.
@Suite("OData: service bindings of the corpus", .enabled(if: BindingCorpus.isPresent, "../shared/corpus is missing"))
struct ODataBindingCorpusTests {
    @Test("every form of the corpus has a binding whose fields cover every field that is a property")
    func everyFormBound() throws {
        var forms = 0
        for files in try BindingCorpus.imports() {
            let result = try BindingCorpus.importing(files)
            #expect(Set(result.bindings.keys) == Set(result.forms.map(\.id)), "\(files)")
            for form in result.forms {
                forms += 1
                let binding = try #require(result.bindings[form.id], "no binding of \(form.id) in \(files)")
                #expect(!binding.entitySet.isEmpty && !binding.entityType.isEmpty && !binding.namespace.isEmpty)
                // pyodata's test file declares an entity type without a key.
                #expect(binding.keys.isEmpty == (form.id == "example-srv-enumtests"), "\(form.id): \(binding.keys)")
                let unbound = form.allFields.filter { binding.fields[$0.name] == nil }
                // Only a media entity's file stands for no property.
                #expect(
                    unbound.isEmpty || (binding.mediaEntity && unbound.count == 1 && unbound[0].kind == .attachments),
                    "\(form.id): \(unbound.map(\.name)) are bound to no property")
                #expect(Set(binding.fields.keys).isSubset(of: form.allFields.map(\.name)), "\(form.id)")
                for (field, property) in binding.fields {
                    #expect(property.type.hasPrefix("Edm."), "\(form.id)/\(field): \(property.type)")
                    #expect(
                        field == property.name || !FormSchema.isValidName(property.name),
                        "\(form.id)/\(field) is bound to \(property.name)")
                }
            }
        }
        #expect(forms == 159)
    }

    @Test("every value-list field of the corpus has a value help whose in and out parameters name its fields")
    func everyValueListHelped() throws {
        var helped = 0
        for files in try BindingCorpus.imports() {
            let result = try BindingCorpus.importing(files)
            for form in result.forms {
                let binding = try #require(result.bindings[form.id])
                let lists = form.allFields.filter { $0.list != nil }.map(\.name)
                #expect(Set(binding.valueHelps.keys) == Set(lists), "\(form.id)")
                for (field, help) in binding.valueHelps {
                    helped += 1
                    #expect(!help.collectionPath.isEmpty || help.collectionRoot != nil, "\(form.id)/\(field)")
                    for text in [help.collectionPath, help.collectionRoot ?? ""] {
                        #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == text, "\(form.id)/\(field)")
                    }
                    for parameter in help.parameters {
                        if let local = parameter.field { #expect(binding.fields[local] != nil) }
                    }
                }
            }
        }
        #expect(helped == 80)
    }

    @Test("the corpus's draft roots have their activation actions")
    func draftRoots() throws {
        var drafts: [String: DraftActions] = [:]
        for files in try BindingCorpus.imports() {
            for (id, binding) in try BindingCorpus.importing(files).bindings {
                if let draft = binding.draft { drafts[id] = draft }
            }
        }
        #expect(
            drafts["incidentservice-incidents"]
                == DraftActions(
                    activate: "IncidentService.draftActivate", prepare: "IncidentService.draftPrepare",
                    edit: "IncidentService.draftEdit"))
        let product = try #require(drafts["sepmra-prod-man-sepmra-c-pd-product"], "drafts: \(drafts.keys.sorted())")
        #expect(product.activate == "SEPMRA_C_PD_ProductActivation")
        #expect(product.edit == "SEPMRA_C_PD_ProductEdit")
    }
}

/// Where the corpus is and how `scripts/corpus-check` groups it.
enum BindingCorpus {
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "shared/corpus")

    static var isPresent: Bool { FileManager.default.fileExists(atPath: root.appending(path: "SOURCES.md").path) }

    /// The imports, each a list of corpus-relative paths, metadata first.
    static func imports() throws -> [[String]] {
        let sources = try String(contentsOf: root.appending(path: "SOURCES.md"), encoding: .utf8)
        var groups: [[String]] = []
        var inGroups = false
        for line in sources.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("Groups that belong together") { inGroups = true }
            if line.hasPrefix("| file") { break }
            guard inGroups, line.hasPrefix("- ") else { continue }
            var files: [String] = []
            for (i, part) in line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            where i % 2 == 1 && (part.hasSuffix(".xml") || part.hasSuffix(".edmx")) {
                let name = String(part)
                let folder = files.first.map { ($0 as NSString).deletingLastPathComponent } ?? ""
                files.append(files.isEmpty || name.contains("/") ? name : folder + "/" + name)
            }
            if files.count >= 2 { groups.append(files) }
        }
        let grouped = Set(groups.flatMap { $0 })
        var imports: [[String]] = []
        for folder in ["odata-v2", "odata-v4"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: root.appending(path: folder).path).sorted()
            {
                let path = folder + "/" + name
                if let group = groups.first(where: { $0.first == path }) {
                    imports.append(group)
                } else if !grouped.contains(path) {
                    imports.append([path])
                }
            }
        }
        return imports
    }

    static func importing(_ files: [String]) throws -> ImportResult {
        try FormImporter.importDocuments(
            files.map { ImportDocument(name: $0, data: Array(try Data(contentsOf: root.appending(path: $0)))) })
    }
}
