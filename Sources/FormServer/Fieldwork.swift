import ArgumentParser
import FormImport
import FormWeb
import Foundation

/// The `fieldwork` command: serve forms, import specs, check specs.
@main
struct Fieldwork: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fieldwork",
        abstract: "Server-side forms from XML form specs and OData metadata.",
        subcommands: [Serve.self, Import.self, Check.self]
    )
}

/// Options naming the store, mirroring the environment variables.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("data"), help: "Data folder (env FIELDWORK_DATA, default ./data).")
    var dataFolder: String?

    @Option(name: .customLong("database-url"), help: "postgres://user:pass@host:port/db (env FIELDWORK_DATABASE_URL); unset = SQLite in the data folder.")
    var databaseURL: String?
}

/// Reads the files named on the command line as import documents.
func readDocuments(_ paths: [String]) throws -> [(path: String, document: ImportDocument)] {
    try paths.map { path in
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("Cannot read \(path): no such file, or not readable.")
        }
        return (path, ImportDocument(name: path, data: [UInt8](data)))
    }
}

/// Writes to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check form specs as `import` would, storing nothing.",
        discussion: "Prints each form id the file would create, or each error with its line and column. Exit status 1 if any file is refused."
    )

    @Argument(help: "Spec files (native XML).")
    var files: [String]

    func run() async throws {
        var refused = 0
        for (path, document) in try readDocuments(files) {
            do {
                let result = try FormImporter.importDocuments([document])
                for warning in result.warnings { printError(warning.description) }
                for form in result.forms {
                    print("\(path): ok: \(form.id) (\(result.kind.displayName), \(form.allFields.count) fields)")
                }
            } catch {
                refused += 1
                for e in error.errors { printError(e.description) }
            }
        }
        if refused > 0 {
            printError("\(refused) of \(files.count) file\(files.count == 1 ? "" : "s") refused.")
            throw ExitCode(1)
        }
    }
}
