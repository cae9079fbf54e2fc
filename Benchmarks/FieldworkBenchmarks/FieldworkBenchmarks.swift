// In-process benchmarks with ordo-one/benchmark: the work one request or import does, without
// HTTP or the database (scripts/bench-http measures those).
//
//   swift package --disable-sandbox benchmark --target FieldworkBenchmarks
//
// Run from the repository root. The corpus benchmark needs ../shared beside the checkout (or
// FIELDWORK_CORPUS=DIR); without it that one benchmark is left out, with a message.
import Benchmark
import Crypto
import FormImport
import FormModel
import FormPages
import FormStore
import FormWeb
import Foundation

/// The demo form prepared as the server prepares it, and the inputs the benchmarks reuse.
struct Fixture: Sendable {
    let view: FormView
    let prefill: SignedPrefill
    let demoSpec: ImportDocument
    let validSubmission: Submission
    let refusedSubmission: Submission

    static func load() async throws -> Fixture {
        let resources = ResourceRoot.resolve()
        let specURL = resources.specs.appendingPathComponent("new-issue.xml")
        let spec = ImportDocument(name: "new-issue.xml", data: try [UInt8](Data(contentsOf: specURL)))
        let schema = try FormImporter.importDocuments([spec]).forms[0]
        let renderer = try await PageRenderer(templates: resources.templates)
        return Fixture(
            view: try renderer.formView(for: schema, version: 1),
            prefill: SignedPrefill(secret: ServerSecret(key: SymmetricKey(size: .bits256))),
            demoSpec: spec,
            validSubmission: Submission(fields: [
                "title": ["Printer on floor 3 jams"], "project": ["ios-app"], "priority": ["high"],
                "categories": ["bug", "ui"], "due": ["2030-01-15"], "estimate": ["PT2H30M"], "progress": ["25"],
                "cost": ["120.50"], "email": ["kim@example.com"], "asset": ["AB-1234"], "notes": ["Since Monday."],
            ]),
            refusedSubmission: Submission(fields: [
                "title": [""], "project": ["no-such-project"], "categories": ["bug", "ui", "docs", "security"],
                "cost": ["-3"], "email": ["kim"], "asset": ["ab1234"],
            ]))
    }
}

/// `FIELDWORK_CORPUS`, else `../shared/corpus` from the current folder.
func corpusFolder() -> URL? {
    var candidates: [URL] = []
    if let explicit = ProcessInfo.processInfo.environment["FIELDWORK_CORPUS"], !explicit.isEmpty {
        candidates.append(URL(fileURLWithPath: explicit, isDirectory: true))
    }
    candidates.append(
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("../shared/corpus"))
    return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("odata-v4").path) }
}

/// Made by the first benchmark's setup, read by all of them; the runner runs one benchmark at a time.
nonisolated(unsafe) var fixture: Fixture!

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident], timeUnits: .microseconds,
        warmupIterations: 10, maxDuration: .seconds(2), maxIterations: 100_000)
    let setup: Benchmark.BenchmarkSetupHook = { if fixture == nil { fixture = try await Fixture.load() } }

    // GET /forms/new-issue/new as CreateController answers it: the initial values (query prefill,
    // defaults read from the clock), the state with a CSRF token, the sealed read-only values, the page.
    Benchmark(
        "Create view from the prepared plan",
        closure: { benchmark in
            let token = String(repeating: "k", count: 43)
            for _ in benchmark.scaledIterations {
                let view = fixture.view
                let values = view.form.initialValues(query: ["task": ["T-1001"]])
                var state = RenderState(values: values, csrfToken: token)
                state.prefillSeal = fixture.prefill.seal(
                    formID: view.formID, version: view.version, values: view.form.readOnlyValues(values))
                blackHole(view.render(state))
            }
        }, setup: setup)

    // POST /forms/new-issue: the validation ObjectSubmissions runs, for a valid submission and
    // for one refused with six issues.
    for (name, valid) in [("valid", true), ("refused", false)] {
        Benchmark(
            "Validate a \(name) submission",
            closure: { benchmark in
                for _ in benchmark.scaledIterations {
                    let view = fixture.view
                    let context = ValidationContext(
                        mode: .create, serverValues: ["task": ["T-1001"]], clock: view.form.clock())
                    let submission = valid ? fixture.validSubmission : fixture.refusedSubmission
                    let result = FormValidator.validate(view.schema, submission, context: context)
                    precondition(result.isValid == valid, "the \(name) submission should be \(name)")
                    blackHole(result)
                }
            }, setup: setup)
    }

    Benchmark(
        "Import the demo spec (Specs/new-issue.xml)",
        closure: { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try FormImporter.importDocuments([fixture.demoSpec]))
            }
        }, setup: setup)

    let largeName = "odata-v4/oux__purchaseorder_manage_2.metadata.xml"
    if let corpus = corpusFolder(),
        let data = FileManager.default.contents(atPath: corpus.appendingPathComponent(largeName).path)
    {
        let document = ImportDocument(name: largeName, data: [UInt8](data))
        Benchmark(
            "Import the 2.7 MB corpus EDMX (\(largeName))",
            configuration: .init(
                metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident], timeUnits: .milliseconds,
                warmupIterations: 1, maxDuration: .seconds(5), maxIterations: 50)
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try FormImporter.importDocuments([document]))
            }
        }
    } else {
        // Standard error: standard output belongs to the benchmark runner.
        FileHandle.standardError.write(
            Data(
                ("FieldworkBenchmarks: the corpus EDMX benchmark is skipped: no \(largeName) under ../shared/corpus"
                    + " (put ../shared beside the checkout, or set FIELDWORK_CORPUS)\n").utf8))
    }
}
