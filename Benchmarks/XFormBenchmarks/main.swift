// XForms benchmark (issue 21, "Speed"): the WHO verbal autopsy form
// (`../shared/corpus/xforms/enketo-transformer__va_who_v1_5_3.xml`, 1.1 MB, ~470 binds).
//
//   swift build -c release --product XFormBenchmarks && .build/release/XFormBenchmarks [runs]
//
// Run from the repository root with ../shared beside the checkout (or FIELDWORK_CORPUS=DIR);
// without the corpus it prints why and exits 0. Prints medians:
// (a) importing the form, compile included (read, parse, map, every expression checked and
//     compiled by libxml2, the judge built): budget 150 ms;
// (b) judging a filled submission, from the submitted strings to the verdict: budget 10 ms, beside
//     the peer measured in the same run: libxml2 alone evaluating every compiled expression once
//     at its node on a copy of the same instance (what xpath-facts.md measured at ~4 ms);
// (c) resident memory before and after 10,000 judged submissions (it must stay flat).
import FormImport
import FormModel
import FormRules
import FormXML
import Foundation

let runs = max(CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 30, 3)
let corpus = ProcessInfo.processInfo.environment["FIELDWORK_CORPUS"] ?? "../shared/corpus"
let path = corpus + "/xforms/enketo-transformer__va_who_v1_5_3.xml"
guard let bytes = FileManager.default.contents(atPath: path).map(Array.init) else {
    print("XFormBenchmarks: \(path) not found; put ../shared beside the checkout (or set FIELDWORK_CORPUS)")
    exit(0)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
}

// (a) import, compile included
var importTimes: [Double] = []
var imported: (form: FormSchema, rules: XFormRules)?
for _ in 0..<runs {
    importTimes.append(
        try milliseconds {
            let result = try FormImporter.importDocuments([ImportDocument(name: "who.xml", data: bytes)])
            let form = result.forms[0]
            let rules = result.rules[form.id]!
            _ = try XFormJudge(rules: rules)
            imported = (form, rules)
        })
}
let (form, rules) = imported!
print(
    String(
        format: "(a) import of the 1.1 MB WHO form, compile included: median %.1f ms (budget 150 ms)",
        median(importTimes)))

// A filled submission: every field given a value of its kind (the first option of a choice).
var submitted: [String: String] = [:]
for field in form.allFields {
    switch field.kind {
    case .number, .slider: submitted[field.name] = "30"
    case .date: submitted[field.name] = "2020-01-15"
    case .time: submitted[field.name] = "10:30:00"
    case .datetime: submitted[field.name] = "2020-01-15T10:30:00"
    case .valueList, .buttons, .chips: submitted[field.name] = form.options(for: field).first?.value
    case .switch: submitted[field.name] = "OK"
    case .text, .note: submitted[field.name] = field.presentation.displayOnly ? nil : "yes"
    case .duration, .attachments: continue
    }
}
let judge = try XFormJudge(rules: rules)
let host = XFormHost(rules: rules)
let verdict = judge.judge(submitted, host: host)
print(
    "    the filled submission: \(submitted.count) values, \(verdict.relevant.count) relevant fields, "
        + "\(verdict.issues.count) issues, \(verdict.errors.count) evaluation errors")

// (b) the judge against libxml2 alone on the same compiled expressions, alternating
let template = try XPathDocument.parse(Array(rules.primaryInstance.utf8))
var evaluations: [(index: Int, path: [String])] = []
var expressions: [String] = []
for node in rules.nodes where node.leftOut == nil {
    let path = node.path.split(separator: "/").map(String.init)
    for expression in [
        node.bind?.relevant, node.bind?.calculate, node.bind?.readonly, node.bind?.required, node.bind?.constraint,
    ] {
        guard let compiled = expression?.compiled else { continue }
        evaluations.append((expressions.count, path))
        expressions.append(compiled)
    }
}
let program = try XPathProgram(expressions: expressions, namespaces: rules.namespaces)
var judged: [Double] = []
var alone: [Double] = []
for _ in 0..<runs {
    judged.append(milliseconds { _ = judge.judge(submitted, host: host) })
    alone.append(
        milliseconds {
            let instance = template.copy()
            let evaluator = XPathEvaluator(program: program, instance: instance, secondary: [:], host: host)
            for (index, path) in evaluations {
                guard let node = instance.node(at: path) else { continue }
                _ = try? evaluator.evaluate(index, at: node)
            }
        })
}
print(
    String(
        format:
            "(b) a filled submission judged: median %.2f ms (budget 10 ms); libxml2 alone on the same %d expressions: %.2f ms (%.2fx)",
        median(judged), expressions.count, median(alone), median(judged) / median(alone)))

// (c) memory over 10,000 judged submissions
func residentMB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
}
let before = residentMB()
for _ in 0..<10_000 { _ = judge.judge(submitted, host: host) }
print(
    String(format: "(c) resident memory: %.1f MB before, %.1f MB after 10,000 judged submissions", before, residentMB())
)
