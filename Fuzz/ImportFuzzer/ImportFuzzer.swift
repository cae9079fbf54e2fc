import BoundedPatterns
import FormImport
import FormModel
import FormRules
import Foundation

/// The first byte of an input that is a pattern and a value, not documents (XML never starts so).
let patternInput: UInt8 = 1

/// One input: a pattern and a value (``patternOnce(_:)``) when it starts with ``patternInput``,
/// else documents (``importOnce(_:)``).
func fuzzInput(_ bytes: [UInt8]) {
    if bytes.first == patternInput {
        patternOnce(Array(bytes.dropFirst()))
    } else {
        importOnce(bytes)
    }
}

/// A pattern and a value (split at the first NUL), as a field's pattern meets what a visitor
/// types: the backtracking check reads any pattern without crashing, and a test of the value
/// takes no more than 250 ms of this thread's processor time (the bound holds in milliseconds;
/// a quarter of a second means it does not hold for this pattern).
func patternOnce(_ bytes: [UInt8]) {
    let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let pattern = String(decoding: parts[0], as: UTF8.self)
    let value = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : ""
    _ = BacktrackingCheck.risk(in: pattern)
    guard let regex = try? BoundedRegex(pattern, whole: true) else { return }
    for text in [value, String(repeating: value, count: 8), String(repeating: pattern, count: 3) + "!"] {
        let start = threadTime()
        _ = regex.test(text)
        let spent = threadTime() - start
        if spent > .milliseconds(250) {
            fatalError(
                "Testing \(text.utf8.count) bytes against \(pattern) took \(spent): the bound on work does not hold")
        }
    }
}

/// The processor time this thread has used.
func threadTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}

/// One input through the importers, as `fieldwork import` would take it: the bytes are split at
/// NUL bytes into up to four documents (a metadata file and its annotation files, or native
/// specs), imported with `FormImporter.importBatch`. Every form it accepts must keep the rules of
/// every form and survive its canonical JSON; anything else stops the run, as a crash does.
func importOnce(_ bytes: [UInt8]) {
    let documents = bytes.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false).enumerated().map {
        ImportDocument(name: "input-\($0.offset).xml", data: Array($0.element))
    }
    for outcome in FormImporter.importBatch(documents) {
        guard case .success(let result) = outcome.result else { continue }
        for form in result.forms {
            // An imported XForm needs no required question: that rule is for native specs.
            let broken = form.ruleViolations().filter { result.kind != .xforms || $0.code != .noRequiredField }
            if !broken.isEmpty {
                fatalError("An accepted form breaks rules of every form: \(broken)")
            }
            do {
                let json = try form.canonicalJSON()
                _ = try FormSchema.fromCanonicalJSON(json)
            } catch {
                fatalError("An accepted form does not survive its canonical JSON: \(error)")
            }
            if let rules = result.rules[form.id] { judgeOnce(rules, form: form) }
            if !form.itemLists.isEmpty { validateItems(form) }
        }
    }
}

/// An accepted XForm's rules compile, and its defaults and a submission of "1" for every field are
/// judged (an evaluation may fail, and says so in the verdict; nothing may crash).
func judgeOnce(_ rules: XFormRules, form: FormSchema) {
    let judge: XFormJudge
    do {
        judge = try XFormJudge(rules: rules)
    } catch {
        fatalError("An accepted XForm's rules do not compile: \(error)")
    }
    let host = XFormHost(rules: rules, now: Date(timeIntervalSince1970: 1_715_774_400))
    _ = judge.judge([:], host: host, operationLimit: 20_000)
    var ones: [String: String] = [:]
    for field in form.allFields { ones[field.name] = "1" }
    _ = judge.judge(ones, host: host, operationLimit: 20_000)
    // Two items in every list, at every level, each field "1".
    var counts: [String: Int] = [:]
    func fill(_ lists: [ItemList], parent: String?) {
        for list in lists {
            counts[parent.map { "\($0).\(list.name)" } ?? list.name] = 2
            for index in 0..<2 {
                let item = ItemList.itemPath(list.name, index, in: parent)
                for field in list.fields { ones["\(item).\(field.name)"] = "1" }
                fill(list.lists, parent: item)
            }
        }
    }
    fill(form.itemLists, parent: nil)
    if !counts.isEmpty { _ = judge.judge(ones, counts: counts, host: host, operationLimit: 20_000) }
}

/// A form with item lists judges a submission of two items in every list (their inputs named
/// as a page names them, each "1"), and the values it accepts keep their items.
func validateItems(_ form: FormSchema) {
    var inputs: [String: [String]] = [:]
    func fill(_ lists: [ItemList], parent: String?) {
        for list in lists {
            for index in 0..<2 {
                let item = ItemList.itemPath(list.name, index, in: parent)
                inputs["\(item)._id"] = [""]
                for field in list.fields { inputs["\(item).\(field.name)"] = ["1"] }
                fill(list.lists, parent: item)
            }
        }
    }
    for field in form.allFields { inputs[field.name] = ["1"] }
    fill(form.itemLists, parent: nil)
    let sent = Submission(fields: inputs).gatheringItems(of: form.itemLists)
    let result = FormValidator.validate(form, sent, context: ValidationContext(mode: .create))
    for list in form.itemLists where result.issues.isEmpty {
        guard case .items(let items)? = result.values[list.name], items.count == 2 else {
            fatalError(
                "An accepted submission of two \(list.name) items kept \(String(describing: result.values[list.name]))")
        }
    }
}

#if FUZZING
/// libFuzzer's entry point; built with `-Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING` (README, "Fuzzing").
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzInput(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// libFuzzer's driver (LLVM 11 and later), which takes the fuzzer's flags from the command line.
/// SwiftPM links an executable's `main` to the target's own, so `main` hands over to it.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@main
enum ImportFuzzer {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzOne))
    }
}
#else
/// Without the fuzzer: runs each file given (a crash libFuzzer saved, or a seed) through the same
/// import, so a crash can be replayed in a debugger or a normal build.
@main
enum ImportFuzzer {
    static func main() throws {
        let files = CommandLine.arguments.dropFirst()
        guard !files.isEmpty else {
            print("usage: ImportFuzzer FILE...  (runs each file through the importers as the fuzzer does)")
            return
        }
        for file in files {
            fuzzInput(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
            print("\(file): ok")
        }
    }
}
#endif
