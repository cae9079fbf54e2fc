// Render benchmark: the create view from its prepared plan against the peers a naive server
// would use, measured in the same run so the ratios hold on a noisy shared machine.
//
//   swift run -c release FormBenchmarks [iterations]
//
// 1. plan: the static chunks of the demo create view walked once, slots filled (our hot path);
// 2. template engine per request: swift-mustache renders the whole page for every request;
// 3. parse + template per request: libxml2 parses and validates the spec, then (2).
import FormImport
import FormModel
import FormPages
import FormStore
import FormWeb
import Foundation
import NIOCore

let iterations = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 2_000
let resources = ResourceRoot.resolve()
let specURL = resources.specs.appendingPathComponent("new-issue.xml")
let spec = try [UInt8](Data(contentsOf: specURL))
let schema = try FormImporter.importDocuments([ImportDocument(name: "new-issue.xml", data: spec)]).forms[0]
let renderer = try await PageRenderer(templates: resources.templates)
let view = try renderer.formView(for: schema, version: 1)
let token = String(repeating: "k", count: 43)
let state = RenderState(values: view.form.initialValues(query: ["task": ["T-1001"]]), csrfToken: token)

/// Runs `body` `count` times, five rounds, and returns the median time per call in microseconds.
func measure(_ count: Int, _ body: () throws -> Int) rethrows -> (perCall: Double, bytes: Int) {
    var rounds: [Double] = []
    var bytes = 0
    _ = try body()  // warm up caches and lazy state
    for _ in 0..<5 {
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<count { bytes = try body() }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        rounds.append(seconds / Double(count) * 1e6)
    }
    return (rounds.sorted()[2], bytes)
}

let plan = measure(iterations) { view.render(state).readableBytes }
let engine = try measure(max(iterations / 20, 20)) {
    try renderer.formView(for: schema, version: 1).render(state).readableBytes
}
let parsed = try measure(max(iterations / 20, 20)) {
    let fresh = try FormImporter.importDocuments([ImportDocument(name: "new-issue.xml", data: spec)]).forms[0]
    return try renderer.formView(for: fresh, version: 1).render(state).readableBytes
}

func row(_ name: String, _ m: (perCall: Double, bytes: Int)) {
    let perSecond = 1e6 / m.perCall
    let ratio = m.perCall / plan.perCall
    print(
        name.padding(toLength: 34, withPad: " ", startingAt: 0)
            + String(format: "%10.1f µs %12.0f /s %9.1fx   %d bytes", m.perCall, perSecond, ratio, m.bytes))
}
print("Demo create view, \(iterations) plan renders per round, median of 5 rounds")
print("renderer".padding(toLength: 34, withPad: " ", startingAt: 0) + "  per call        renders/s   vs plan")
row("prepared plan (Fieldwork)", plan)
row("template engine per request", engine)
row("parse spec + template per request", parsed)
