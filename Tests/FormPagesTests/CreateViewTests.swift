import FormModel
import Foundation
import TestSupport
import Testing

@testable import FormPages

@Suite("Create view page")
struct CreateViewTests {
    static let attack = "<script>alert(1)</script>"
    static let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"

    @Test("the page has the title, the nav bar with Cancel and the complete action inside the form, and the CSRF input")
    func navBar() async throws {
        let schema = Fixtures.schema([], id: "new-issue", title: "New Issue", object: "Issue")
        let html = try await Fixtures.render(schema, csrf: "tok-123")
        #expect(html.contains("<title>New Issue – Fieldwork</title>"))
        #expect(
            html.contains(
                "<form class=\"fw-form\" method=\"post\" action=\"/forms/new-issue\" enctype=\"application/x-www-form-urlencoded\" novalidate data-unsaved=\"Discard this new issue?\">\n<header class=\"fw-navbar\">\n<a class=\"fw-navbar__cancel\" href=\"/forms/new-issue\" data-cancel>Cancel</a>\n<h1 class=\"fw-navbar__title\">New Issue</h1>\n<button class=\"fw-navbar__done fw-button fw-button--primary\" type=\"submit\">Create</button>\n</header>"
            ))
        #expect(html.contains(#"<input type="hidden" name="_csrf" value="tok-123">"#))
        #expect(!html.contains("style="))
        #expect(!html.contains("<script>"))
        #expect(html.contains(#"<script type="module" src="/js/fieldwork.js"></script>"#))
    }

    @Test("the parent page is rendered behind the sheet, inert and hidden from screen readers")
    func parentBehind() async throws {
        let html = try await Fixtures.render(Fixtures.schema([], id: "new-issue", title: "New Issue", object: "Issue"))
        #expect(
            html.contains("<div class=\"fw-parent\" inert aria-hidden=\"true\">\n<header class=\"fw-page-header\">"))
        #expect(html.contains(#"<h1 class="fw-page-header__title">Issues</h1>"#))
        #expect(html.contains(#"<p class="fw-list__empty">No issues yet</p>"#))
    }

    @Test("key information comes first, then the property groups with their labels")
    func order() async throws {
        let html = try await Fixtures.render(Fixtures.schema([Field(name: "due", kind: .date, label: "Due")]))
        let key = try #require(html.range(of: "fw-section--key"))
        let properties = try #require(html.range(of: "fw-section--properties"))
        #expect(key.lowerBound < properties.lowerBound)
        #expect(
            html.contains(
                "<div class=\"fw-group\" role=\"group\" aria-labelledby=\"group-properties-1\">\n<h2 class=\"fw-group__label\" id=\"group-properties-1\">Details</h2>"
            ))
    }

    @Test("the legend shows when a field is required; optional fields say so when few")
    func requiredMarking() async throws {
        let fields = [
            Field(name: "a", kind: .text, label: "Alpha", required: true),
            Field(name: "b", kind: .text, label: "Beta", required: true),
            Field(name: "c", kind: .text, label: "Gamma"),
        ]
        let html = try await Fixtures.render(Fixtures.schema(fields))
        #expect(html.contains(#"<p class="fw-legend">* indicates a required field</p>"#))
        #expect(
            html.contains(
                #"for="field-a">Alpha<span class="fw-label__required" aria-hidden="true"> *</span><span class="fw-visually-hidden"> (required)</span></label>"#
            ))
        #expect(html.contains(#"for="field-c">Gamma<span class="fw-label__optional"> (optional)</span></label>"#))

        let mostlyOptional = try await Fixtures.render(
            Fixtures.schema([fields[2], Field(name: "d", kind: .text, label: "Delta")]))
        #expect(!mostlyOptional.contains("(optional)"))
        #expect(mostlyOptional.contains(RequiredMarking.legend))
    }

    @Test("a prefill field takes its value from the query and a non-editable one is read-only, not disabled")
    func prefillAndReadOnly() async throws {
        let field = Field(name: "task", kind: .text, label: "Task", editable: .no, prefill: .query)
        let html = try await Fixtures.render(Fixtures.schema([field]), query: ["task": ["T-1001"]])
        #expect(
            html.contains(#"<input class="fw-input" id="field-task" name="task" type="text" readonly value="T-1001">"#))
        #expect(!html.contains("disabled"))
    }

    @Test("a read-only choice disables its controls and sends its values in hidden inputs")
    func readOnlyChoice() async throws {
        let field = Field(
            name: "priority", kind: .buttons, label: "Priority", editable: .no, defaultValue: "high",
            options: [OptionGroup(options: [Option(value: "low", label: "Low"), Option(value: "high", label: "High")])])
        let slider = Field(
            name: "progress", kind: .slider, label: "Progress", editable: .no, defaultValue: "40",
            constraints: Constraints(min: "0", max: "100"))
        let html = try await Fixtures.render(Fixtures.schema([field, slider]))
        #expect(html.contains(#"name="priority" value="low" disabled>"#))
        #expect(html.contains(#"name="priority" value="high" checked disabled>"#))
        #expect(html.contains(#"</div><input type="hidden" name="priority" value="high">"#))
        #expect(html.contains(#"name="progress" inputmode="decimal" min="0" max="100" step="1" disabled value="40">"#))
        #expect(html.contains(#"<input type="hidden" name="progress" value="40">"#))
        #expect(!html.contains("readonly"))
    }

    @Test("query values do not fill fields without prefill")
    func noPrefillWithoutOptIn() async throws {
        let field = Field(name: "task", kind: .text, label: "Task")
        let html = try await Fixtures.render(Fixtures.schema([field]), query: ["task": ["T-1001"]])
        #expect(!html.contains("T-1001"))
    }

    @Test("a script in a label, hint, option, value, title or prefill query is shown as text")
    func escaping() async throws {
        let field = Field(
            name: "task", kind: .text, label: Self.attack, hint: Self.attack, defaultValue: nil, prefill: .query)
        let choice = Field(
            name: "pick", kind: .buttons, label: "Pick", defaultValue: Self.attack,
            options: [OptionGroup(options: [Option(value: Self.attack, label: Self.attack)])])
        let note = Field(name: "notes", kind: .note, label: "Notes", defaultValue: "</textarea>" + Self.attack)
        let schema = Fixtures.schema([field, choice, note], title: Self.attack, object: Self.attack)
        let html = try await Fixtures.render(schema, query: ["task": [Self.attack + "\"><b>"]])
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("<b>"))
        #expect(html.contains(#"value="&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;b&gt;""#))
        #expect(html.contains("<p class=\"fw-hint\" id=\"field-task-hint\">\(Self.escaped)</p>"))
        #expect(html.contains("for=\"field-pick\">\(Self.escaped)</label>"))
        #expect(html.contains("value=\"\(Self.escaped)\" checked>"))
        #expect(html.contains("&lt;/textarea&gt;\(Self.escaped)</textarea>"))
        #expect(html.contains("<title>\(Self.escaped) – Fieldwork</title>"))
    }

    @Test("a quote joined to a combining mark or a prepend mark is still escaped")
    func graphemeClusterEscaping() async throws {
        let combining = "a\"\u{301} onfocus=\"alert(1)"
        let prepend = "b\u{600}\" onblur=\"alert(2)"
        let field = Field(
            name: "pick", kind: .buttons, label: "Pick",
            options: [
                OptionGroup(options: [Option(value: combining, label: "One"), Option(value: prepend, label: "Two")])
            ])
        let html = try await Fixtures.render(Fixtures.schema([field]))
        #expect(!html.contains("\" onfocus"))
        #expect(!html.contains("\" onblur"))
        #expect(html.contains(#"value="a&quot; onfocus=&quot;alert(1)""#))
        #expect(html.contains(#"value="b&quot; onblur=&quot;alert(2)""#))
    }

    @Test("sentinel characters in imported text are dropped, so text cannot forge a slot")
    func sentinelCharactersStripped() async throws {
        let forged = "A\u{E000}x0\u{E001}B"
        let field = Field(name: "f", kind: .text, label: forged, hint: forged)
        let html = try await Fixtures.render(Fixtures.schema([field]))
        #expect(html.contains(#"for="field-f">Ax0B</label>"#))
        #expect(!html.unicodeScalars.contains { $0 == "\u{E000}" || $0 == "\u{E001}" })
    }

    @Test("a sentinel character between a quote and a combining mark cannot hide the quote from escaping")
    func sentinelBetweenQuoteAndCombiningMark() async throws {
        let hiding = "a\"\u{E000}\u{301} onfocus=\"alert(1)"
        let field = Field(
            name: "f", kind: .valueList, label: "F",
            options: [OptionGroup(options: [Option(value: hiding, label: hiding)])])
        let html = try await Fixtures.render(Fixtures.schema([field]))
        #expect(!html.contains("\" onfocus"))
        #expect(html.contains(#"value="a&quot; onfocus=&quot;alert(1)""#))
        #expect(html.contains(#">a&quot; onfocus=&quot;alert(1)</option>"#))
    }

    @Test("?layout= forces compact or regular with a class on html; otherwise the viewport decides")
    func layoutForcing() async throws {
        let schema = Fixtures.schema([])
        #expect(
            try await Fixtures.render(schema, layout: .compact)
                .contains(#"<html lang="en" class="fw-page fw-layout-compact fw-presentation-form-sheet">"#))
        #expect(
            try await Fixtures.render(schema, layout: .regular).contains(
                #"class="fw-page fw-layout-regular fw-presentation-form-sheet""#))
        #expect(
            try await Fixtures.render(schema).contains(#"class="fw-page fw-layout-auto fw-presentation-form-sheet""#))
        let popover = Fixtures.schema([], regular: .popover)
        #expect(try await Fixtures.render(popover).contains("fw-presentation-popover"))
        #expect(LayoutMode(query: "compact") == .compact)
        #expect(LayoutMode(query: "<x>") == .auto)
        #expect(LayoutMode(query: nil) == .auto)
    }

    @Test("errors fill the summary, the message under the cell, aria-invalid and aria-describedby")
    func errors() async throws {
        let field = Field(
            name: "email", kind: .text, label: "Email", hint: "We reply here",
            constraints: Constraints(textType: .email))
        let message = "Enter an email address in the correct format, like name@example.com"
        let html = try await Fixtures.render(
            Fixtures.schema([field]), values: ["email": ["not an address"]],
            errors: [FieldError(field: "email", message: message)])
        #expect(html.contains("<title>Error: New Thing – Fieldwork</title>"))
        #expect(
            html.contains(
                "<div class=\"fw-error-summary\" role=\"region\" tabindex=\"-1\" aria-labelledby=\"fw-error-summary-title\" data-error-summary>\n<div role=\"alert\">\n<h2 class=\"fw-error-summary__title\" id=\"fw-error-summary-title\">There is a problem</h2>\n<ul class=\"fw-error-summary__list\"><li><a href=\"#field-email\">\(message)</a></li></ul>\n</div>\n</div>"
            ))
        #expect(html.contains(#"<div class="fw-cell fw-cell--text fw-cell--error">"#))
        #expect(
            html.contains(
                "<p class=\"fw-field__error\" id=\"field-email-error\"><span class=\"fw-field__error-icon\" aria-hidden=\"true\"></span><span class=\"fw-visually-hidden\">Error: </span>\(message)</p>"
            ))
        #expect(
            html.contains(
                #"name="email" type="email" autocomplete="email" spellcheck="false" data-clear="true" value="not an address" aria-describedby="field-email-hint field-email-error" aria-invalid="true">"#
            ))

        let clean = try await Fixtures.render(Fixtures.schema([field]))
        #expect(!clean.contains("fw-error-summary"))
        #expect(!clean.contains("aria-invalid"))
        #expect(!clean.contains("fw-cell--error"))
        #expect(clean.contains("<title>New Thing – Fieldwork</title>"))
    }

    @Test("error messages are escaped")
    func errorEscaping() async throws {
        let html = try await Fixtures.render(
            Fixtures.schema([]), errors: [FieldError(field: "title", message: Self.attack)])
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("<a href=\"#field-title\">\(Self.escaped)</a>"))
    }

    @Test("the prepared plan, filled twice, gives each request its own values and leaves no sentinel")
    func planReuse() async throws {
        let field = Field(name: "task", kind: .text, label: "Task", prefill: .query)
        let view = try await Fixtures.renderer().formView(for: Fixtures.schema([field]), version: 3)
        let first = String(
            buffer: view.render(
                RenderState(values: view.form.initialValues(query: ["task": ["first-value"]]), csrfToken: "token-A")))
        let second = String(
            buffer: view.render(
                RenderState(values: view.form.initialValues(query: ["task": ["second-value"]]), csrfToken: "token-B")))
        #expect(first.contains(#"value="first-value""#) && !first.contains("second-value"))
        #expect(second.contains(#"value="second-value""#) && second.contains(#"name="_csrf" value="token-B""#))
        // Apart from the filled slots, both requests get the same bytes.
        #expect(
            first.replacingOccurrences(of: "first-value", with: "second-value").replacingOccurrences(
                of: "token-A", with: "token-B")
                == second)
        for page in [first, second] {
            #expect(!page.unicodeScalars.contains { $0 == "\u{E000}" || $0 == "\u{E001}" })
        }
        #expect(view.version == 3)
    }

    @Test("a textarea value starting with a newline keeps it")
    func textareaLeadingNewline() async throws {
        let field = Field(name: "notes", kind: .note, label: "Notes")
        let html = try await Fixtures.render(Fixtures.schema([field]), values: ["notes": ["\nsecond line"]])
        #expect(html.contains(">\n\nsecond line</textarea>"))
    }

    @Test("a duration keeps entered hours and minutes over its ISO value")
    func durationParts() async throws {
        let field = Field(name: "estimate", kind: .duration, label: "Estimate")
        let html = try await Fixtures.render(
            Fixtures.schema([field]),
            values: ["estimate": ["PT2H"], "estimate.hours": ["3"], "estimate.minutes": ["x"]])
        #expect(html.contains(#"name="estimate.hours" type="number" inputmode="numeric" min="0" step="1" value="3">"#))
        #expect(
            html.contains(
                #"name="estimate.minutes" type="number" inputmode="numeric" min="0" max="59" step="1" value="x">"#))
        #expect(DurationValue.split("P1DT2H5M")! == (26, 5))
    }

    @Test("a long form's sections are divided; a short one's run on")
    func sectionDividers() async throws {
        let short = try await Fixtures.render(Fixtures.schema([Field(name: "note", kind: .text, label: "Note")]))
        #expect(short.contains(#"<div class="fw-sheet__body">"#))
        let fields = (1...9).map { Field(name: "f\($0)", kind: .text, label: "Field \($0)") }
        let long = try await Fixtures.render(Fixtures.schema(fields))
        #expect(long.contains(#"<div class="fw-sheet__body fw-sheet__body--long">"#))
    }
}
