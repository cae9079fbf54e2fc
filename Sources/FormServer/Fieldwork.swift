import ArgumentParser
import FormImport
import FormWeb
import Foundation

import enum FormModel.Words

/// The `fieldwork` command: serve forms, import specs, check specs.
@main
struct Fieldwork: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fieldwork",
        abstract: "Server-side forms from XML form specs and OData metadata.",
        version: FieldworkVersion.current,
        subcommands: [Serve.self, Import.self, Check.self, Connect.self]
    )

    /// Runs the command. Swift Concurrency's tasks run on its own pool: NIOSingletons' takeover
    /// of the global executor (tasks on NIO's event loops) was tried and measured (README, "The
    /// cost of a page"): it ran every job as the loop's serial executor, so each `await` of a
    /// nonisolated async function became a trip through the loop's task queue, and a page cost
    /// twice the instructions for the same throughput.
    static func main() async {
        // Whatever this process makes (the data folder, SQLite's files, attachments, exports) is
        // for its own account only; the store narrows what earlier versions made (PrivateFiles).
        umask(0o077)
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

/// Options naming the store, mirroring the environment variables.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("data"), help: "Data folder (env FIELDWORK_DATA, default ./data).")
    var dataFolder: String?

    @Option(
        name: .customLong("database-url"),
        help: "postgres://user:pass@host:port/db (env FIELDWORK_DATABASE_URL); unset = SQLite in the data folder.")
    var databaseURL: String?
}

/// How `import` and `check` group their files, for both commands' help.
let importOrderHelp = """
    Each native form spec is an import of its own. An OData metadata document (EDMX) starts an \
    import that the OData annotation documents right after it join, in the order given; later \
    annotations override earlier ones (service metadata, then the backend annotation model, then \
    the app's own annotations). So `meta.xml anno_mdl.xml local-annotation.xml spec.xml` is two \
    imports: meta.xml with its two annotation documents, and spec.xml. An annotation document \
    with no metadata before it imports with warnings and makes no form.
    """

/// The help of the FILE arguments of `import` and `check`.
let filesHelp = ArgumentHelp(
    "Native form specs, and OData metadata files each followed by its annotation files.", valueName: "file")

/// Reads the files named on the command line as import documents, named as given.
func readDocuments(_ paths: [String]) throws -> [ImportDocument] {
    try paths.map { path in
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("Cannot read \(path): no such file, or not readable.")
        }
        return ImportDocument(name: path, data: [UInt8](data))
    }
}

/// Writes to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Writes an accepted import's warnings and skipped entity sets to standard error, compiler style.
func printReport(_ result: ImportResult) {
    for warning in result.warnings { printError(warning.description) }
    for skip in result.skipped { printError(skip.description) }
}

/// "1 of 3 imports refused", for the closing line of `import` and `check`.
func refusedLine(_ refused: Int, of total: Int) -> String {
    "\(refused) of \(Words.count(total, "import")) refused"
}

struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check form specs and OData metadata as `import` would, storing nothing.",
        discussion: """
            \(importOrderHelp)

            Prints `FILE: ok: ID (KIND, N fields)` for each form an import would store, where FILE \
            is the import's first file. Warnings and skipped entity sets go to standard error as \
            `file:line: ...`, errors as `file:line:column: error: message [code]`. Exit status 1 if \
            any import is refused; the others are still checked.

            --summary prints instead, for each import, its files, every form with its fields \
            (section | group | name | kind | label | required | editable | options), the skipped \
            entity sets with the reason, and the warnings counted by term: a stable text to keep \
            and compare (errors still go to standard error as well).
            """
    )

    @Flag(help: "Print a stable, diff-friendly summary of what each import would store.")
    var summary = false

    @Argument(help: filesHelp)
    var files: [String]

    func run() async throws {
        let outcomes = FormImporter.importBatch(try readDocuments(files))
        var refused = 0
        for (index, outcome) in outcomes.enumerated() {
            if summary {
                if index > 0 { print("") }
                print(ImportSummaryText.render(outcome), terminator: "")
            }
            switch outcome.result {
            case .success(let result):
                if summary { continue }
                printReport(result)
                for form in result.forms {
                    let lists = form.itemLists.isEmpty ? "" : ", " + Words.count(form.itemLists.count, "item list")
                    print(
                        "\(outcome.documents[0]): ok: \(form.id) (\(result.kind.displayName), \(Words.count(form.allFields.count, "field"))\(lists))"
                    )
                }
            case .failure(let failure):
                refused += 1
                for error in failure.errors { printError(error.description) }
            }
        }
        if refused > 0 {
            printError(refusedLine(refused, of: outcomes.count) + ".")
            throw ExitCode(1)
        }
    }
}
