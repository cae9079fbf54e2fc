import FormModel
import Foundation
import HummingbirdTesting
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

/// A list's title heads it where it is shown: the drill-down screen, a long list without
/// JavaScript, and the admin's form page; without one, the field's label does as before.
@Suite("List titles")
struct ListTitleTests {
    static let title = #"Approved <suppliers> & "partners""#

    static func supplierForm(title: String?, options: Int) -> FormSchema {
        let list = OptionList(
            id: "suppliers", title: title,
            groups: [OptionGroup(options: (1...options).map { Option(value: "s\($0)", label: "Supplier \($0)") })])
        return Fixtures.schema(
            [Field(name: "supplier", kind: .valueList, label: "Supplier", list: "suppliers")],
            id: "order", title: "New Order", object: "Order", lists: [list])
    }

    @Test("a titled list gives its drill-down the title to show, escaped; an untitled one gives none")
    func drillDownTitle() async throws {
        let html = try await Fixtures.render(Self.supplierForm(title: Self.title, options: 3))
        #expect(
            html.contains(
                #"<select class="fw-select" id="field-supplier" name="supplier" data-drilldown="true" data-title="Approved &lt;suppliers&gt; &amp; &quot;partners&quot;">"#
            ))
        #expect(html.contains(#"<label class="fw-label" for="field-supplier">Supplier</label>"#))
        let untitled = try await Fixtures.render(Self.supplierForm(title: nil, options: 3))
        #expect(
            untitled.contains(#"<select class="fw-select" id="field-supplier" name="supplier" data-drilldown="true">"#))
        #expect(!untitled.contains("data-title"))
    }

    @Test("without JavaScript, a long list shows its title above its options and names their group by it")
    func longListTitle() async throws {
        let html = try await Fixtures.render(Self.supplierForm(title: Self.title, options: 300))
        #expect(
            html.contains(
                "<p class=\"fw-longlist__title\" id=\"field-supplier-list\">Approved &lt;suppliers&gt; &amp; &quot;partners&quot;</p><div class=\"fw-longlist__options\" role=\"group\" aria-labelledby=\"field-supplier-list\">"
            ))
        #expect(html.contains(#"data-drilldown="true" data-title="Approved &lt;suppliers&gt;"#))
        let untitled = try await Fixtures.render(Self.supplierForm(title: nil, options: 300))
        #expect(!untitled.contains("fw-longlist__title"))
        #expect(untitled.contains("</div>\n<div class=\"fw-longlist__options\">"))
    }

    @Test("the admin's form page heads a titled list by its title and names the field using it; an upload keeps it")
    func adminHeading() async throws {
        var form = Self.supplierForm(title: Self.title, options: 3)
        form.sections[1].groups[0].fields.append(
            Field(name: "carrier", kind: .valueList, label: "Carrier", list: "carriers"))
        form.lists.append(OptionList(id: "carriers", groups: [], external: true))
        try await TestApp.run(forms: [(form, .public)]) { client in
            let browser = try await AdminFixtures.admin(client)
            let page = try await browser.get("/admin/forms/order")
            #expect(
                page.body.contains(
                    "<h3 class=\"fw-admin__subheading\" id=\"list-suppliers-heading\">Approved &lt;suppliers&gt; &amp; &quot;partners&quot; <span class=\"fw-list-upload__id\">(suppliers)</span></h3><p class=\"fw-admin__text\">Used by Supplier.</p>"
                ))
            // No title: headed by the field using it, as before.
            #expect(
                page.body.contains(
                    "<h3 class=\"fw-admin__subheading\" id=\"list-carriers-heading\">Carrier <span class=\"fw-list-upload__id\">(carriers)</span></h3>\n<p class=\"fw-admin__text\">No options uploaded"
                ))
            let uploaded = try await browser.postMultipart(
                "/admin/forms/order/lists/suppliers",
                [
                    .field("_csrf", page.csrf ?? ""),
                    .file("csv", filename: "suppliers.csv", type: "text/csv", bytes: Array("s9,Supplier Nine\n".utf8)),
                ])
            #expect(uploaded.status == .seeOther)
            let again = try await browser.get("/admin/forms/order")
            #expect(again.body.contains(#"id="list-suppliers-heading">Approved &lt;suppliers&gt;"#))
            let view = try await browser.get("/forms/order/new")
            #expect(view.body.contains(#"data-title="Approved &lt;suppliers&gt; &amp; &quot;partners&quot;""#))
            #expect(view.body.contains("Supplier Nine"))
        }
    }
}
