import ArgumentParser
import FormImport
import FormWeb
import Foundation
import Logging

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import form specs and OData metadata into the store.",
        discussion: """
            \(importOrderHelp)

            Prints `FILE: ID version N` for each form an import stored, where FILE is the import's \
            first file; warnings and skipped entity sets go to standard error as `file:line: ...`, \
            errors as `file:line:column: error: message [code]`. A refused import stores nothing; \
            the others are still imported. Importing an id that exists makes a new version of that \
            form. Exit status 1 if any import was refused.
            """
    )

    @Argument(help: filesHelp)
    var files: [String]

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let outcomes = FormImporter.importBatch(try readDocuments(files))
        let configuration = try store.configuration()
        var logger = Logger(label: "fieldwork.import")
        logger.logLevel = .warning
        let database = try await FieldworkDatabase.open(configuration, logger: logger)
        var refused = 0
        do {
            for outcome in outcomes {
                switch outcome.result {
                case .success(let result):
                    printReport(result)
                    for stored in try await database.forms.store(result) {
                        print("\(outcome.documents[0]): \(stored.formID) version \(stored.version)")
                    }
                case .failure(let failure):
                    refused += 1
                    for error in failure.errors { printError(error.description) }
                }
            }
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
        if refused > 0 {
            printError(
                refusedLine(refused, of: outcomes.count) + "; nothing of \(refused == 1 ? "it" : "them") was stored.")
            throw ExitCode(1)
        }
    }
}
