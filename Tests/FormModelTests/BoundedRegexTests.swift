import BoundedPatterns
import Foundation
import Testing

@testable import FormModel

@Suite("Patterns bounded in work")
struct BoundedRegexTests {
    /// The processor time this thread has used: the work done, which other processes keeping
    /// the cores busy do not lengthen.
    static func threadTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    static let attack = String(repeating: "a", count: 40) + "!"

    static func schema(_ field: Field) -> FormSchema {
        FormSchema(
            id: "f", title: "T", object: "Thing",
            sections: [
                FormSection(
                    kind: .key, groups: [FieldGroup(fields: [Field(name: "title", kind: .text, label: "Title")])]),
                FormSection(kind: .properties, groups: [FieldGroup(fields: [field])]),
            ])
    }

    @Test("a pattern that backtracks catastrophically stops at its step limit, in milliseconds of work")
    func catastrophic() throws {
        for pattern in ["(a+)+b", "([a-z]+)*[0-9]", "(a|aa)+b", "(\\w+\\s?)*$"] {
            let regex = try BoundedRegex(pattern, whole: true)
            let start = Self.threadTime()
            #expect(regex.test(Self.attack) == .overLimit, "\(pattern)")
            let work = Self.threadTime() - start
            #expect(work < .milliseconds(50), "\(pattern): \(work)")
        }
    }

    @Test("sane patterns match and refuse as before: whole values, no line break after the end")
    func sane() throws {
        let code = try BoundedRegex("[A-Z]{2}-[0-9]{4}", whole: true)
        #expect(code.test("AB-1234") == .matched)
        #expect(code.test("AB-1234\n") == .notMatched)
        #expect(code.test("xAB-1234") == .notMatched)
        #expect(try BoundedRegex("[0-9]+", whole: false).test("ab12") == .matched)
        // A long value of a sane pattern is no attack.
        let email = try BoundedRegex("[a-z0-9._%+-]+@[a-z0-9.-]+", whole: true)
        #expect(email.test(String(repeating: "a", count: 9_000) + "@example.org") == .matched)
        #expect(code.test(String(repeating: "A", count: BoundedRegex.inputLimit + 1)) == .overLimit)
        #expect(BoundedRegex.compiled("(", whole: true) == nil)
    }

    @Test("a field's pattern that runs over its limit refuses the value with what to do, never lets it through")
    func fieldRefusal() {
        var field = Field(name: "code", kind: .text, label: "Asset code")
        field.constraints.pattern = "(a+)+b"
        let schema = Self.schema(field)
        let result = FormValidator.validate(schema, Submission(fields: ["code": [Self.attack]]))
        #expect(result.issues.map(\.code) == [.patternUnchecked])
        #expect(
            result.issues.first?.message == "Asset code could not be checked against its format: enter a shorter value")
        let fine = FormValidator.validate(schema, Submission(fields: ["code": ["aaab"]]))
        #expect(fine.issues.isEmpty && fine.values["code"] == .text("aaab"))
    }

    @Test("off an event loop: a value over the small inline share is validated again elsewhere, with the whole limit")
    func offLoop() async {
        var field = Field(name: "code", kind: .text, label: "Asset code")
        field.constraints.pattern = "(a+)+b"
        let schema = Self.schema(field)
        final class Count: @unchecked Sendable { var value = 0 }
        let count = Count()
        let elsewhere: (@escaping @Sendable () -> ValidationResult) async -> ValidationResult? = { work in
            count.value += 1
            return work()
        }
        // A typed value needs no report of progress: validated here only.
        let typed = await FormValidator.validateOffLoop(
            schema, Submission(fields: ["code": ["aaab"]]), context: ValidationContext(), elsewhere: elsewhere)
        #expect(typed.issues.isEmpty && count.value == 0)
        let attacked = await FormValidator.validateOffLoop(
            schema, Submission(fields: ["code": [Self.attack]]), context: ValidationContext(), elsewhere: elsewhere)
        #expect(attacked.issues.map(\.code) == [.patternUnchecked] && count.value == 1)
    }

    @Test("nested quantifiers that can backtrack are found; those every repetition ends apart are not")
    func backtrackingCheck() {
        let risky = [
            "(a+)+b", "([a-z]+)*[0-9]", "(\\w+\\s?)*", "(.*,)*x", "(a*)*", "(\\d+,?)+", "^(([a-z])+.)+[A-Z]([a-z])+$",
            "(?:x(a+)+)", "((ab)*c?)+",
        ]
        for pattern in risky { #expect(BacktrackingCheck.risk(in: pattern) != nil, "\(pattern)") }
        let safe = [
            "[A-Z]{2}-[0-9]{4}", "([a-z0-9]+\\.)*[a-z]+", "(-\\d+)+", "(\\d{3}-)+", "(a++)+b", "(?>a+)+b",
            "[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}", "(\\s*\\w+\\s*,)*", "(a|b)+", "(\\.[0-9]+)?", "\\(([0-9]+)\\)",
            "[(a+)+]", "\\Q(a+)+\\E", "(a+){2}", KnownPattern.decimal, KnownPattern.uuid,
        ]
        for pattern in safe { #expect(BacktrackingCheck.risk(in: pattern) == nil, "\(pattern)") }
        #expect(BacktrackingCheck.risk(in: "x(a+)+y") == "(a+)+")
        // Escapes and groups cut short by the pattern's end are read as malformed, never past it
        // (the fuzzer's find: `\p` at the end of a nested group).
        for cut in ["(\\0z-sry\u{bc}\u{1}(\\p", "(\\p", "((?#", "(?<name", "(a|\\"] {
            #expect(BacktrackingCheck.risk(in: cut) == nil, "\(cut)")
        }
        // Groups nested thousands deep (the fuzzer's find: a stack overflow) are not followed;
        // as deep as real patterns go, they are.
        let deep = String(repeating: "(", count: 20_000) + "a+" + String(repeating: ")+", count: 20_000)
        #expect(BacktrackingCheck.risk(in: deep) == nil)
        let nested = String(repeating: "(?:", count: 40) + "(a+)+" + String(repeating: ")", count: 40)
        #expect(BacktrackingCheck.risk(in: nested) == "(a+)+")
    }

    @Test("a spec's pattern that can backtrack breaks a rule of every form, with what to do")
    func schemaRule() {
        var field = Field(name: "code", kind: .text, label: "Asset code")
        field.constraints.pattern = "([a-z]+)*[0-9]"
        let schema = Self.schema(field)
        let issues = schema.ruleViolations().filter { $0.code == .patternBacktracks }
        #expect(issues.count == 1)
        #expect(issues.first?.message.contains("repeats ([a-z]+)*") == true)
    }
}
