import ArgumentParser
import FormImport
import FormStore
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
        let documents = try readDocuments(files)
        let configuration = try store.configuration()
        var logger = Logger(label: "fieldwork.import")
        logger.logLevel = .warning
        let database = try await FieldworkDatabase.open(configuration.store, logger: logger)
        let run: FormImports.Run
        do {
            run = try await FormImports(forms: database.forms).run(
                documents, importedBy: nil, via: .commandLine, policy: .eachOnItsOwn)
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
        for (index, outcome) in run.outcomes.enumerated() {
            switch outcome.result {
            case .success(let result):
                printReport(result)
                for stored in run.versions(of: index) {
                    print("\(outcome.documents[0]): \(stored.formID) version \(stored.version)")
                }
            case .failure(let failure):
                for error in failure.errors { printError(error.description) }
            }
        }
        let refused = run.outcomes.failures.count
        if refused > 0 {
            printError(
                refusedLine(refused, of: run.outcomes.count)
                    + "; nothing of \(refused == 1 ? "it" : "them") was stored.")
            throw ExitCode(1)
        }
    }
}
