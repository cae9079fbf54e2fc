import FormModel
import Foundation
import TestSupport
import Testing

@testable import FormPages

/// Pins the markup of every control: one small form per kind.
@Suite("Create view controls")
struct ControlRenderingTests {
    @Test("key information without a label gets a visually hidden label from its placeholder")
    func keyTextHiddenLabel() async throws {
        let html = try await Fixtures.render(Fixtures.schema([]))
        #expect(
            html.contains(
                #"<label class="fw-label fw-visually-hidden" for="field-title">Title<span class="fw-label__required" aria-hidden="true"> *</span><span class="fw-visually-hidden"> (required)</span></label>"#
            ))
        #expect(
            html.contains(
                #"<input class="fw-input" id="field-title" name="title" type="text" placeholder="Title" data-clear="true">"#
            ))
    }

    @Test("an email field has type email and email autocomplete")
    func email() async throws {
        let field = Field(
            name: "email", kind: .text, label: "Email", placeholder: "name@example.com",
            constraints: Constraints(textType: .email))
        let html = try await Fixtures.render(Fixtures.schema([field]))
        #expect(html.contains(#"<label class="fw-label" for="field-email">Email</label>"#))
        #expect(
            html.contains(
                #"<input class="fw-input" id="field-email" name="email" type="email" autocomplete="email" spellcheck="false" placeholder="name@example.com" data-clear="true">"#
            ))
    }

    @Test("a phone field with grouped characters gets tel type, keyboard, autocomplete and data-format")
    func telWithFormat() async throws {
        let field = Field(
            name: "phone", kind: .text, label: "Contact phone",
            constraints: Constraints(textType: .tel, format: "(###) ###-####"))
        let html = try await Fixtures.render(Fixtures.schema([field]))
        #expect(
            html.contains(
                #"<input class="fw-input" id="field-phone" name="phone" type="tel" inputmode="tel" autocomplete="tel" placeholder="(###) ###-####" data-format="(###) ###-####" data-clear="true">"#
            ))
    }

    @Test("length and pattern constraints become attributes and the hint is linked with aria-describedby")
    func textConstraintsAndHint() async throws {
        let field = Field(
            name: "asset", kind: .text, label: "Asset code", hint: "Two letters, a hyphen and four digits",
            constraints: Constraints(minLength: 7, maxLength: 7, pattern: "[A-Z]{2}-[0-9]{4}"))
        let html = try await Fixtures.render(Fixtures.schema([field]))
        #expect(html.contains(#"<p class="fw-hint" id="field-asset-hint">Two letters, a hyphen and four digits</p>"#))
        #expect(
            html.contains(
                #"<input class="fw-input" id="field-asset" name="asset" type="text" minlength="7" maxlength="7" pattern="[A-Z]{2}-[0-9]{4}" data-clear="true" aria-describedby="field-asset-hint">"#
            ))
    }

    @Test("a number with a prefix shows it beside the input, hidden from screen readers, and says it in the label")
    func numberWithPrefix() async throws {
        let field = Field(
            name: "cost", kind: .number, label: "Cost", constraints: Constraints(min: "0", step: "0.01", scale: 2),
            presentation: Presentation(prefix: "USD"))
        let html = try await Fixtures.render(Fixtures.schema([field]))
        #expect(
            html.contains(
                #"<label class="fw-label" for="field-cost">Cost<span class="fw-visually-hidden"> in USD</span></label>"#
            ))
        #expect(
            html.contains(
                #"<div class="fw-affixed"><span class="fw-affixed__prefix" aria-hidden="true">USD</span><input class="fw-input" id="field-cost" name="cost" type="text" inputmode="decimal"></div>"#
            ))
    }

    @Test("a number with a suffix says the unit in the label")
    func numberWithSuffix() async throws {
        let field = Field(
            name: "weight", kind: .number, label: "Weight", constraints: Constraints(scale: 1),
            presentation: Presentation(suffix: "kg"))
        let html = try await Fixtures.render(Fixtures.schema([field]))
        #expect(html.contains(#"Weight<span class="fw-visually-hidden"> in kg</span></label>"#))
        #expect(
            html.contains(
                #"name="weight" type="text" inputmode="decimal"><span class="fw-affixed__suffix" aria-hidden="true">kg</span></div>"#
            ))
    }

    @Test("a whole number without affixes is a number input with numeric keyboard, bounds and step 1")
    func wholeNumber() async throws {
        let field = Field(
            name: "count", kind: .number, label: "Count", constraints: Constraints(min: "1", max: "10", scale: 0))
        let html = try await Fixtures.render(Fixtures.schema([field]))
        #expect(
            html.contains(
                #"<input class="fw-input" id="field-count" name="count" type="number" inputmode="numeric" min="1" max="10" step="1">"#
            ))
    }

    @Test("a note is a textarea with rows and maxlength")
    func note() async throws {
        let field = Field(
            name: "notes", kind: .note, label: "Notes", constraints: Constraints(maxLength: 2000),
            presentation: Presentation(rows: 4))
        let html = try await Fixtures.render(Fixtures.schema([field]))
        #expect(
            html.contains(
                #"<textarea class="fw-textarea" id="field-notes" name="notes" rows="4" maxlength="2000"></textarea>"#))
    }

    @Test("a date with default today is filled with the request's date, with its bounds")
    func dateToday() async throws {
        let field = Field(
            name: "due", kind: .date, label: "Due date", defaultValue: "today",
            constraints: Constraints(min: "2026-01-01", max: "2027-12-31"))
        // 1_795_000_000 is 2026-11-18 11:06:40 UTC.
        let html = try await Fixtures.render(Fixtures.schema([field]))
        #expect(
            html.contains(
                #"<input class="fw-input" id="field-due" name="due" type="date" min="2026-01-01" max="2027-12-31" value="2026-11-18">"#
            ))
        let tokyo = try await Fixtures.render(
            Fixtures.schema([field]), now: Date(timeIntervalSince1970: 1_795_000_000 + 13 * 3600),
            timeZone: TimeZone(identifier: "Asia/Tokyo")!)
        #expect(tokyo.contains(#"value="2026-11-19">"#))
    }

    @Test("a time is a time input and a datetime with default now is filled to the minute")
    func timeAndDatetime() async throws {
        let fields = [
            Field(name: "start", kind: .time, label: "Start time"),
            Field(name: "reminder", kind: .datetime, label: "Reminder", defaultValue: "now"),
        ]
        let html = try await Fixtures.render(Fixtures.schema(fields))
        #expect(html.contains(#"<input class="fw-input" id="field-start" name="start" type="time">"#))
        #expect(
            html.contains(
                #"<input class="fw-input" id="field-reminder" name="reminder" type="datetime-local" value="2026-11-18T11:06">"#
            ))
    }

    @Test("a duration is a fieldset with hours and minutes split from the ISO default")
    func duration() async throws {
        let field = Field(name: "estimate", kind: .duration, label: "Estimate", defaultValue: "PT1H30M")
        let html = try await Fixtures.render(Fixtures.schema([field]))
        #expect(html.contains(#"<fieldset class="fw-fieldset">"#))
        #expect(html.contains(#"<legend class="fw-label">Estimate</legend>"#))
        #expect(
            html.contains(
                #"<input class="fw-input fw-input--short" id="field-estimate" name="estimate.hours" type="number" inputmode="numeric" min="0" step="1" value="1">"#
            ))
        #expect(
            html.contains(
                #"<input class="fw-input fw-input--short" id="field-estimate-minutes" name="estimate.minutes" type="number" inputmode="numeric" min="0" max="59" step="1" value="30">"#
            ))
    }

    @Test("a single value list is a select with optgroups, the default selected")
    func valueListSingle() async throws {
        let list = OptionList(
            id: "projects",
            groups: [
                OptionGroup(
                    label: "Mobile",
                    options: [Option(value: "ios", label: "iOS App"), Option(value: "android", label: "Android App")]),
                OptionGroup(label: "Web", options: [Option(value: "portal", label: "Customer Portal")]),
            ])
        let field = Field(
            name: "project", kind: .valueList, label: "Project", defaultValue: "android", list: "projects")
        var searchable = field
        searchable.presentation.searchable = true
        let html = try await Fixtures.render(Fixtures.schema([searchable], lists: [list]))
        #expect(
            html.contains(
                #"<select class="fw-select" id="field-project" name="project" data-searchable="true" data-drilldown="true">"#
            ))
        #expect(
            html.contains(
                "<optgroup label=\"Mobile\">\n<option value=\"ios\">iOS App</option>\n<option value=\"android\" selected>Android App</option>\n</optgroup>"
            ))
        #expect(html.contains(#"<optgroup label="Web">"#))
    }

    @Test("a multiple value list is checkboxes in a fieldset per group")
    func valueListMultiple() async throws {
        let field = Field(
            name: "people", kind: .valueList, label: "Assignees", defaultValue: "bea",
            constraints: Constraints(multiple: true),
            options: [
                OptionGroup(options: [
                    Option(value: "aaron", label: "Aaron Clarke"), Option(value: "bea", label: "Beatriz Souza"),
                ])
            ])
        let html = try await Fixtures.render(Fixtures.schema([field]))
        #expect(html.contains(#"<legend class="fw-label">Assignees</legend>"#))
        #expect(
            html.contains(
                #"<div class="fw-checkbox"><input class="fw-checkbox__input" type="checkbox" id="field-people" name="people" value="aaron"><label class="fw-checkbox__label" for="field-people">Aaron Clarke</label></div>"#
            ))
        #expect(
            html.contains(
                #"<input class="fw-checkbox__input" type="checkbox" id="field-people-1" name="people" value="bea" checked>"#
            ))
        #expect(!html.contains("<select"))
    }

    @Test("segmented buttons are radios in a fieldset, the default checked")
    func buttons() async throws {
        let field = Field(
            name: "priority", kind: .buttons, label: "Priority", defaultValue: "medium",
            options: [
                OptionGroup(options: [Option(value: "low", label: "Low"), Option(value: "medium", label: "Medium")])
            ])
        let html = try await Fixtures.render(Fixtures.schema([field]))
        #expect(html.contains(#"<legend class="fw-label">Priority</legend>"#))
        #expect(
            html.contains(
                #"<input class="fw-segmented__input" type="radio" id="field-priority" name="priority" value="low"><label class="fw-segmented__label" for="field-priority">Low</label>"#
            ))
        #expect(
            html.contains(
                #"<input class="fw-segmented__input" type="radio" id="field-priority-1" name="priority" value="medium" checked><label class="fw-segmented__label" for="field-priority-1">Medium</label>"#
            ))
    }

    @Test("segmented buttons share a row in equal parts, unless their labels are too long for a phone's row")
    func buttonsWrap() async throws {
        func buttons(_ labels: [String]) -> Field {
            Field(
                name: "rating", kind: .buttons, label: "Rating",
                options: [OptionGroup(options: labels.map { Option(value: $0.lowercased(), label: $0) })])
        }
        let short = try await Fixtures.render(Fixtures.schema([buttons(["Low", "Medium", "High"])]))
        #expect(short.contains(#"<div class="fw-segmented" data-choices>"#))
        let long = try await Fixtures.render(Fixtures.schema([buttons(["Poor", "Satisfactory", "Outstanding"])]))
        #expect(long.contains(#"<div class="fw-segmented fw-segmented--wrap" data-choices>"#))
        #expect(!FieldViewModel.segmentsWrap(labels: ["Unassigned", "Open"]))
        #expect(FieldViewModel.segmentsWrap(labels: ["Unassigned", "Open", "Done"]))
    }

    @Test("filter chips are checkboxes and choice chips are radios")
    func chips() async throws {
        let options = [OptionGroup(options: [Option(value: "bug", label: "Bug"), Option(value: "ui", label: "UI")])]
        let filter = Field(
            name: "categories", kind: .chips, label: "Categories", defaultValue: "bug ui",
            constraints: Constraints(multiple: true), options: options)
        let choice = Field(name: "kind", kind: .chips, label: "Kind", options: options)
        let html = try await Fixtures.render(Fixtures.schema([filter, choice]))
        #expect(
            html.contains(
                #"<input class="fw-chip__input" type="checkbox" id="field-categories" name="categories" value="bug" checked><label class="fw-chip" for="field-categories">Bug</label>"#
            ))
        #expect(html.contains(#"id="field-categories-1" name="categories" value="ui" checked>"#))
        #expect(
            html.contains(
                #"<input class="fw-chip__input" type="radio" id="field-kind" name="kind" value="bug"><label class="fw-chip" for="field-kind">Bug</label>"#
            ))
    }

    @Test("a switch is a checkbox with role switch, its children right after it")
    func switchWithChildren() async throws {
        let field = Field(
            name: "remind", kind: .switch, label: "Remind me",
            children: [Field(name: "reminder", kind: .datetime, label: "Reminder", required: true)])
        let html = try await Fixtures.render(Fixtures.schema([field]))
        #expect(
            html.contains(
                "<input class=\"fw-switch\" type=\"checkbox\" role=\"switch\" id=\"field-remind\" name=\"remind\" value=\"on\">\n<div class=\"fw-switch__children\">\n<div class=\"fw-cell fw-cell--datetime\">"
            ))
        let on = try await Fixtures.render(Fixtures.schema([field]), values: ["remind": ["on"]])
        #expect(on.contains(#"name="remind" value="on" checked>"#))
    }

    @Test("a slider is a named number field, which works without script, plus a range hidden until script shows it")
    func slider() async throws {
        let field = Field(
            name: "progress", kind: .slider, label: "Progress", defaultValue: "0",
            constraints: Constraints(min: "0", max: "100", step: "5"))
        let html = try await Fixtures.render(Fixtures.schema([field]))
        #expect(
            html.contains(
                #"<input class="fw-slider__range" type="range" id="field-progress-range" aria-label="Progress" hidden min="0" max="100" step="5" value="0">"#
            ))
        #expect(
            html.contains(
                #"<input class="fw-input fw-slider__number" type="number" id="field-progress" name="progress" inputmode="decimal" min="0" max="100" step="5" value="0">"#
            ))
        #expect(html.components(separatedBy: #"name="progress""#).count == 2)
    }

    @Test("attachments are a multiple file input with the plus tile first and the limits as text and data")
    func attachments() async throws {
        let field = Field(
            name: "files", kind: .attachments, label: "Attachments",
            constraints: Constraints(maxCount: 5, maxSize: 10 * 1024 * 1024, accept: ["image/png", "application/pdf"]))
        let html = try await Fixtures.render(Fixtures.schema([field]))
        #expect(
            html.contains(
                "<input class=\"fw-attachments__input\" data-attachments type=\"file\" id=\"field-files\" name=\"files\" multiple accept=\"image/png,application/pdf\" data-max-count=\"5\" data-max-size=\"10485760\" aria-describedby=\"field-files-count\">\n<label class=\"fw-attachments__add\" for=\"field-files\" aria-hidden=\"true\">+</label>"
            ))
        #expect(
            html.contains(#"<p class="fw-attachments__count" id="field-files-count">Up to 5 files, 10 MB each</p>"#))
        #expect(html.contains(#"enctype="multipart/form-data""#))
    }

    @Test("an open value list (options not uploaded yet) is a text input that keeps what was typed")
    func openValueList() async throws {
        var schema = Fixtures.schema([
            Field(
                name: "plant", kind: .valueList, label: "Plant", constraints: Constraints(maxLength: 4), list: "plants")
        ])
        schema.lists = [OptionList(id: "plants", groups: [], external: true)]
        let html = try await Fixtures.render(schema, values: ["plant": ["P1<"]])
        #expect(
            html.contains(
                #"<input class="fw-input" id="field-plant" name="plant" type="text" autocomplete="off" maxlength="4" value="P1&lt;">"#
            ))
        #expect(!html.contains("<select"))
        schema.lists = [
            OptionList(
                id: "plants", groups: [OptionGroup(options: [Option(value: "p1", label: "Plant 1")])], external: true)
        ]
        let uploaded = try await Fixtures.render(schema)
        #expect(uploaded.contains(#"<select class="fw-select" id="field-plant" name="plant" data-drilldown="true">"#))
    }
}
