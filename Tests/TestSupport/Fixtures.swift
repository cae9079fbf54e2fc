import FormImport
import FormModel
import FormPages
import FormStore
import Foundation
import Logging

/// Small schemas and helpers shared by the test targets below HTTP (FormStoreTests,
/// FormPagesTests) and by FormWebTests, which adds its own (a server's configuration) in an
/// extension.
package enum Fixtures {
    /// A required key field so every test form is valid, plus the fields under test in a labelled group.
    package static func schema(
        _ fields: [Field], id: String = "test-form", title: String = "New Thing", object: String? = "Thing",
        regular: RegularPresentation = .formSheet, lists: [OptionList] = []
    ) -> FormSchema {
        FormSchema(
            id: id, title: title, object: object, submit: "Create", regular: regular,
            sections: [
                FormSection(
                    kind: .key,
                    groups: [
                        FieldGroup(fields: [Field(name: "title", kind: .text, placeholder: "Title", required: true)])
                    ]),
                FormSection(kind: .properties, groups: [FieldGroup(label: "Details", fields: fields)]),
            ],
            lists: lists)
    }

    /// The repository's `Templates/`, found from this file's place in it.
    package static let templates = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Templates")

    /// The templates' renderer, read and compiled once for the whole run (a value: no test
    /// changes it).
    package static func renderer() async throws -> PageRenderer {
        try await sharedRenderer.value
    }

    private static let sharedRenderer = Task { try await PageRenderer(templates: templates) }

    /// The create view's HTML for one request.
    package static func render(
        _ schema: FormSchema, query: [String: [String]] = [:], values: [String: [String]]? = nil,
        errors: [FieldError] = [], layout: LayoutMode = .auto, csrf: String = "TOKEN",
        now: Date = Date(timeIntervalSince1970: 1_795_000_000), timeZone: TimeZone = TimeZone(identifier: "UTC")!
    ) async throws -> String {
        let view = try await renderer().formView(for: schema, version: 1)
        let state = RenderState(
            values: values ?? view.form.initialValues(query: query, now: now, timeZone: timeZone),
            errors: errors, csrfToken: csrf, layout: layout)
        return String(buffer: view.render(state))
    }

    /// A fresh data folder per test, so tests never share a database.
    package static func temporaryDataFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("fieldwork-tests-\(UUID().uuidString)")
    }

    /// A store in `data` (SQLite), or in the PostgreSQL database at `databaseURL`. The whole
    /// suite shares one machine (and, on PostgreSQL, one server): a database call that waits its
    /// turn for seconds is slow here, not an outage.
    package static func storeLocation(data: URL, databaseURL: String? = nil) -> StoreLocation {
        StoreLocation(dataFolder: data, databaseURL: databaseURL, deadlines: .generous)
    }

    /// Returns once `condition` holds, asking every few milliseconds: how a test waits for
    /// something another task or the server does, instead of sleeping a guessed time. The bound
    /// (a minute) only ends a test whose condition never comes; a busy machine is far faster.
    package static func eventually(
        _ what: String, within bound: Duration = .seconds(60), _ condition: () async throws -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + bound
        while !(try await condition()) {
            guard ContinuousClock.now < deadline else { throw NeverHappened(what: what) }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    package struct NeverHappened: Error, CustomStringConvertible {
        let what: String
        package var description: String { "still not so after the bound: \(what)" }
    }

    package static var logger: Logger {
        var logger = Logger(label: "fieldwork-tests")
        logger.logLevel = .warning
        return logger
    }

    package static func importResult(_ forms: [FormSchema], source: String = "<form/>") -> ImportResult {
        ImportResult(
            kind: .native, forms: forms, warnings: [],
            sources: [ImportDocument(name: "test.xml", data: Array(source.utf8))])
    }

    /// A file's or folder's permission bits (`0o600`); -1 when they cannot be read.
    package static func permissions(of url: URL) throws -> Int {
        ((try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? -1) & 0o777
    }

    /// A random token of the shape a submission's one-time token (`_once`) has.
    package static func onceToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return bytes.withUnsafeBytes { Base64URL.encode($0) }
    }
}
