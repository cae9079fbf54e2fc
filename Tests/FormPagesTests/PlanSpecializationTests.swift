import Foundation
import NIOCore
import Testing

@testable import FormModel
@testable import FormPages

/// A plan specialised for a fresh view's values must write the very page the plan writes.
@Suite("Plans specialised for a fresh view")
struct PlanSpecializationTests {
    static var templates: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Templates")
    }

    static let options = [
        OptionGroup(options: [Option(value: "low", label: "Low"), Option(value: "high", label: "High & <urgent>")])
    ]

    static var schema: FormSchema {
        FormSchema(
            id: "mixed", title: "New Mixed", object: "Mixed", submit: "Create",
            sections: [
                FormSection(
                    kind: .key, groups: [FieldGroup(fields: [Field(name: "title", kind: .text, required: true)])]),
                FormSection(
                    kind: .properties,
                    groups: [
                        FieldGroup(
                            label: "Details",
                            fields: [
                                Field(name: "ref", kind: .text, label: "Reference", editable: .no, prefill: .query),
                                Field(name: "count", kind: .number, label: "Count", defaultValue: "3"),
                                Field(name: "priority", kind: .buttons, label: "Priority", options: options),
                                Field(name: "tags", kind: .chips, label: "Tags", options: options),
                                Field(name: "level", kind: .valueList, label: "Level", options: options),
                                Field(name: "due", kind: .date, label: "Due", defaultValue: "today"),
                                Field(name: "effort", kind: .duration, label: "Effort"),
                                Field(name: "notes", kind: .note, label: "Notes"),
                                Field(
                                    name: "urgent", kind: .switch, label: "Urgent",
                                    children: [Field(name: "why", kind: .text, label: "Why")]),
                            ])
                    ]),
            ])
    }

    static func page(_ view: FormView, _ state: RenderState, specialized: Bool) -> [UInt8] {
        let plan = specialized ? view.plan.specialized(for: state) : view.plan
        return Array(buffer: plan.render(state))
    }

    @Test("the specialised plan writes the page the plan writes, token for token")
    func samePage() async throws {
        let renderer = try await PageRenderer(templates: Self.templates)
        let view = try renderer.formView(for: Self.schema, version: 1)
        let values = [
            view.form.initialValues(query: [:]),
            view.form.initialValues(query: ["ref": ["R-1 \"<x>\""]]),
            ["title": ["A & B"], "tags": ["low", "high"], "priority": ["high"], "level": ["low"], "urgent": ["on"]],
        ]
        for values in values {
            for layout in LayoutMode.allCases {
                var state = RenderState(values: values, csrfToken: "token-\(layout)", layout: layout)
                state.submissionToken = "once"
                state.prefillSeal = "seal"
                let key = try #require(state.freshKey)
                #expect(key.layout == layout)
                #expect(Self.page(view, state, specialized: true) == Self.page(view, state, specialized: false))
                // Through the view, which keeps the specialised plan for the next request.
                #expect(Array(buffer: view.render(state)) == Self.page(view, state, specialized: false))
                // Other tokens on the same plan: only the tokens differ.
                state.csrfToken = "another"
                state.submissionToken = "other-once"
                #expect(Array(buffer: view.render(state)) == Self.page(view, state, specialized: false))
            }
        }
    }

    @Test("a start page, made once per layout and minute, writes the plan's page with each request's tokens")
    func startPages() async throws {
        let renderer = try await PageRenderer(templates: Self.templates)
        let view = try renderer.formView(for: Self.schema, version: 1)
        #expect(view.form.startsAlike && view.form.startsWithClock)
        let noon = try #require(ISO8601DateFormatter().date(from: "2026-11-21T12:00:00Z"))
        var made = 0
        for (day, clock) in [noon, noon.addingTimeInterval(86_400)].map({ ($0, view.form.startClock(now: $0)) }) {
            #expect(clock != nil)
            for layout in LayoutMode.allCases {
                for request in 0..<2 {
                    let start = await view.startPage(StartKey(layout: layout, clock: clock)) {
                        made += 1
                        return (
                            RenderState(values: view.form.startValues(at: clock), csrfToken: "", layout: layout), "seal"
                        )
                    }
                    var state = RenderState(
                        values: view.form.initialValues(query: [:], now: day, timeZone: view.form.timeZone),
                        csrfToken: "token-\(request)", layout: layout)
                    state.submissionToken = "once-\(request)"
                    state.prefillSeal = "seal"
                    #expect(
                        Array(
                            buffer: view.render(
                                start, csrfToken: "token-\(request)", submissionToken: "once-\(request)"))
                            == Self.page(view, state, specialized: false))
                }
            }
        }
        // Once per layout and day; the second request of each found it.
        #expect(made == 2 * LayoutMode.allCases.count)
    }

    @Test("a plan writes the same page straight into the body as through an array, with few slots or many")
    func directWrites() async throws {
        let renderer = try await PageRenderer(templates: Self.templates)
        let view = try renderer.formView(for: Self.schema, version: 1)
        var state = RenderState(
            values: ["title": ["A & B"], "tags": ["low", "high"]], csrfToken: "token", layout: .compact)
        state.submissionToken = "once"
        state.prefillSeal = "seal"
        let specialized = view.plan.specialized(for: state)
        #expect(view.plan.slots.count > RenderPlan.directSlots)
        #expect(specialized.slots.count <= RenderPlan.directSlots)
        for plan in [view.plan, specialized, try renderer.notFoundPage()] {
            let direct = Array(buffer: plan.render(state, direct: true))
            #expect(direct == Array(buffer: plan.render(state, direct: false)))
            #expect(direct == Array(buffer: plan.render(state)))
        }
        state.errors = [FieldError(field: "title", message: "Enter a title")]
        #expect(Array(buffer: view.plan.render(state, direct: true)) == Array(buffer: view.plan.render(state)))
    }

    @Test("a view shown again with errors, files or searches is not specialised")
    func notFresh() {
        var state = RenderState(values: [:], csrfToken: "t")
        #expect(state.freshKey != nil)
        state.errors = [FieldError(field: "title", message: "Enter a title")]
        #expect(state.freshKey == nil)
        state = RenderState(values: [:], csrfToken: "t")
        state.objectPath = "/forms/x/1"
        #expect(state.freshKey == nil)
    }

    @Test("the fresh key accounts for every part of a render state: a new one must be added to it or to the tokens")
    func everyStateFieldConsidered() {
        let names = Set(Mirror(reflecting: RenderState(values: [:], csrfToken: "")).children.compactMap(\.label))
        let inKey: Set = ["values", "layout", "hidden", "unoffered", "outputs", "required", "itemCounts"]
        let tokens: Set = ["csrfToken", "prefillSeal", "submissionToken", "keptDraft", "serviceETag"]
        let mustBeDefault: Set = [
            "errors", "objectPath", "files", "stagedFileIDs", "display", "displayItems", "filesDate", "heading",
            "accountName", "isAdmin", "listSearches", "choiceLabels", "noLongerOffered", "listItems", "newerPage",
            "olderPage",
        ]
        #expect(names == inKey.union(tokens).union(mustBeDefault))
    }

    @Test("only the tokens and the account bar differ per request")
    func perRequestSlots() {
        #expect(PageSlots.CSRFToken.differsPerRequest)
        #expect(PageSlots.HiddenToken.differsPerRequest)
        #expect(PageSlots.AccountBar.differsPerRequest)
        #expect(PageSlots.CreateCancel.differsPerRequest)
        #expect(!InputSlots.Value.differsPerRequest)
        #expect(!InputSlots.Checked.differsPerRequest)
    }
}
