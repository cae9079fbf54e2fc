import FormModel
import FormXML

/// Imports an ODK XForm into one form and its rules (the XForms mapping: Input, Controls,
/// Texts, Import report). Only what the mapping refuses is refused: XML that is not well-formed
/// or has a DOCTYPE (the XML layer), a document that is no XForm (`XFormRecognizer`), and a bind
/// `nodeset` or control `ref` that matches no node of the primary instance; everything else
/// imports, with warnings for what it left out. Expressions are kept as written, each with its
/// place, in `XFormRules`.
enum XFormImporter {
    /// A parsed XForm, with the parts `XFormRecognizer.recognise` found.
    struct Document {
        var name: String
        var warnings: [XMLDiagnostic]
        var source: XFormSource
        var root: XFormElement
        var head: XFormElement
        var model: XFormElement
        /// The first `<instance>` of the model.
        var primaryInstance: XFormElement
        /// The primary instance's root element (`<data id="...">`).
        var data: XFormElement
    }

    struct Output {
        var form: FormSchema
        var rules: XFormRules
        var warnings: [ImportWarning]
    }

    /// What an `<output>` shows in a form's labels until the page evaluates it.
    static let outputPlaceholder = "…"

    /// The file names of the external instances a form names (`cities.csv` for
    /// `src="jr://file/cities.csv"`): the files an import may bring along with it.
    static func externalFileNames(_ document: Document) -> Set<String> {
        var names = Set<String>()
        for instance in document.model.children("instance", in: XFormNamespace.xforms).dropFirst() {
            if let src = instance.attribute("src"), let name = src.split(separator: "/").last {
                names.insert(String(name))
            }
        }
        return names
    }

    /// The external instance files brought with a form, read, by list id (the fields whose
    /// itemsets read each instance); the form's warning that the file is awaited goes for each
    /// one supplied. Throws every file's mistakes, and a file the form does not name.
    static func attach(
        _ files: [ImportDocument], to output: inout Output
    ) throws(ImportFailure) -> [String: XFormExternalInstance] {
        var errors: [ImportError] = []
        var lists: [String: XFormExternalInstance] = [:]
        var supplied = Set<String>()
        for file in files {
            let name = String(file.name.split(separator: "/").last ?? Substring(file.name))
            let ids = output.rules.secondaryInstances.filter {
                $0.value.src?.split(separator: "/").last.map(String.init) == name
            }
            .map(\.key)
            guard !ids.isEmpty else {
                errors.append(
                    ImportError(
                        code: .unknownFormat,
                        message:
                            "\(file.name) is not a file the form names; it names \(Words.list(externalNames(output.rules).sorted())).",
                        file: file.name))
                continue
            }
            let instance: XFormExternalInstance
            do throws(XFormExternalInstance.Failure) {
                instance = try XFormExternalInstance.read(file.data)
            } catch {
                errors += error.errors.map { ImportError(code: .unknownFormat, message: $0, file: file.name) }
                continue
            }
            for id in ids {
                supplied.insert(id)
                for node in output.rules.nodes where node.itemset?.instance == id {
                    if let field = node.field { lists[field] = instance }
                }
            }
        }
        guard errors.isEmpty else { throw ImportFailure(errors) }
        // Each supplied instance's warning that its file is awaited, found by the instance's line.
        let lines = Set(supplied.compactMap { output.rules.secondaryInstances[$0]?.line })
        output.warnings.removeAll { $0.code == .externalInstance && lines.contains($0.line) }
        return lists
    }

    private static func externalNames(_ rules: XFormRules) -> [String] {
        rules.secondaryInstances.values.compactMap { $0.src?.split(separator: "/").last.map(String.init) }
    }

    /// Imports one parsed XForm; throws the refusals (every node that a bind or control names
    /// but the primary instance lacks, with line and column).
    static func importDocument(_ document: Document) throws(ImportFailure) -> Output {
        let mapper = XFormMapper(document)
        return try mapper.run()
    }
}
