import ArgumentParser
import FormImport
import FormWeb
import Foundation
import Logging

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import form specs into the store.",
        discussion: """
            Each FILE is one import: it prints each form id with its new version, or each error \
            with its line and column. A refused file stores nothing; the others are still imported. \
            Importing an id that exists makes a new version of that form. Exit status 1 if any file was refused.
            """
    )

    @Argument(help: "Spec files (native XML).")
    var files: [String]

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let documents = try readDocuments(files)
        let configuration = try store.configuration()
        var logger = Logger(label: "fieldwork.import")
        logger.logLevel = .warning
        let database = try await FieldworkDatabase.open(configuration, logger: logger)
        var refused = 0
        do {
            for (path, document) in documents {
                let result: ImportResult
                do {
                    result = try FormImporter.importDocuments([document])
                } catch {
                    refused += 1
                    for e in error.errors { printError(e.description) }
                    continue
                }
                for warning in result.warnings { printError(warning.description) }
                for stored in try await database.forms.store(result) {
                    print("\(path): \(stored.formID) version \(stored.version)")
                }
            }
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
        if refused > 0 {
            printError("\(refused) of \(files.count) file\(files.count == 1 ? "" : "s") refused; nothing of \(refused == 1 ? "it" : "them") was stored.")
            throw ExitCode(1)
        }
    }
}
