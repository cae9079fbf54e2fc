import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

/// Markup and script in every text a form or a person can bring: the spec's labels, hints,
/// placeholders, options, groups, affixes and title; OData labels, quick infos and value
/// descriptions; typed values, query prefills, file names, and the messages that echo labels
/// and hints. Each carries a marker word so the test knows the text was shown, escaped.
enum XSSProbe {
    /// A payload that breaks out of text, of a quoted attribute and of an unquoted one.
    static func payload(_ marker: String) -> String {
        "<script>alert('\(marker)')</script>\"><img src=x onerror=alert('\(marker)')>'><svg onload=alert(1)>"
    }

    /// A payload for a file name: browsers send `"` as `%22` and `/` ends a path, so none of either.
    static func fileName(_ marker: String) -> String {
        "<img src=x onerror=alert('\(marker)')><svg onload=alert('\(marker)')>"
    }

    /// The payload as an XML attribute value or text.
    static func xml(_ marker: String) -> String {
        payload(marker).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static let spec = """
        <?xml version="1.0" encoding="UTF-8"?>
        <form xmlns="urn:fieldwork:form:1" id="xss" title="\(xml("xss-title"))" object="\(xml("xss-object"))" submit="\(xml("xss-submit"))">
          <key>
            <text name="title" placeholder="\(xml("xss-placeholder"))" required="true"/>
          </key>
          <properties>
            <group label="\(xml("xss-group"))">
              <text name="words" label="\(xml("xss-label"))" hint="\(xml("xss-hint"))"/>
              <text name="ref" label="Reference" prefill="query"/>
              <text name="code" label="\(xml("xss-code-label"))" pattern="[A-Z]+" hint="\(xml("xss-pattern-hint"))"/>
              <text name="site" label="Site" type="url" placeholder="javascript:alert(1)"/>
              <number name="cost" label="Cost" prefix="\(xml("xss-prefix"))" suffix="\(xml("xss-suffix"))"/>
              <buttons name="pick" label="\(xml("xss-buttons"))" required="true">
                <option value="\(xml("xss-option-value"))">\(xml("xss-option-text"))</option>
                <option value="plain">Plain</option>
              </buttons>
              <value-list name="plant" label="Plant" list="plants" required="true"/>
            </group>
          </properties>
          <accessory>
            <switch name="remind" label="\(xml("xss-switch"))">
              <note name="remark" label="\(xml("xss-child"))"/>
            </switch>
            <note name="notes" label="Notes"/>
            <attachments name="files" label="\(xml("xss-attachments"))" max-count="3" accept="image/png"/>
          </accessory>
          <lists>
            <list id="plants">
              <group label="\(xml("xss-optgroup"))">
                <option value="p1">\(xml("xss-list-option"))</option>
              </group>
            </list>
          </lists>
        </form>
        """

    static let metadata = """
        <?xml version="1.0" encoding="utf-8"?>
        <edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0">
          <edmx:Reference Uri="https://sap.github.io/odata-vocabularies/vocabularies/Common.xml">
            <edmx:Include Namespace="com.sap.vocabularies.Common.v1" Alias="Common"/>
          </edmx:Reference>
          <edmx:Reference Uri="https://oasis-tcs.github.io/odata-vocabularies/vocabularies/Org.OData.Core.V1.xml">
            <edmx:Include Namespace="Org.OData.Core.V1" Alias="Core"/>
          </edmx:Reference>
          <edmx:Reference Uri="https://oasis-tcs.github.io/odata-vocabularies/vocabularies/Org.OData.Validation.V1.xml">
            <edmx:Include Namespace="Org.OData.Validation.V1" Alias="Validation"/>
          </edmx:Reference>
          <edmx:DataServices>
            <Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="probe">
              <EntityType Name="Visit">
                <Key><PropertyRef Name="ID"/></Key>
                <Property Name="ID" Type="Edm.Int32" Nullable="false"/>
                <Property Name="Place" Type="Edm.String" MaxLength="400" Nullable="false"/>
                <Property Name="Kind" Type="Edm.String" MaxLength="10"/>
              </EntityType>
              <EntityContainer Name="Service">
                <EntitySet Name="Visits" EntityType="probe.Visit"/>
              </EntityContainer>
              <Annotations Target="probe.Visit">
                <Annotation Term="Common.Label" String="\(xml("xss-odata-type"))"/>
              </Annotations>
              <Annotations Target="probe.Visit/Place">
                <Annotation Term="Common.Label" String="\(xml("xss-odata-label"))"/>
                <Annotation Term="Common.QuickInfo" String="\(xml("xss-odata-quickinfo"))"/>
              </Annotations>
              <Annotations Target="probe.Visit/Kind">
                <Annotation Term="Common.Label" String="Kind"/>
                <Annotation Term="Validation.AllowedValues">
                  <Collection>
                    <Record><PropertyValue Property="Value" String="a"/><Annotation Term="Core.Description" String="\(xml("xss-odata-description"))"/></Record>
                    <Record><PropertyValue Property="Value" String="b"/><Annotation Term="Core.Description" String="B"/></Record>
                  </Collection>
                </Annotation>
              </Annotations>
            </Schema>
          </edmx:DataServices>
        </edmx:Edmx>
        """

    /// What must never appear in a page: the payload's markup, and script URLs in attributes.
    static let forbidden = [
        "<script>alert", "<img src=x", "<svg onload", #"(?i)(href|src|action|formaction)\s*=\s*["']?\s*javascript:"#,
    ]

    /// Records an issue for every forbidden piece in `page` and every marker it does not show.
    static func expectEscaped(
        _ page: TestBrowser.Page, shows markers: [String], _ what: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        for pattern in forbidden {
            if let match = page.body.firstMatch(of: try! Regex(pattern)) {
                let start = page.body.index(match.range.lowerBound, offsetBy: -80, limitedBy: page.body.startIndex)
                let context = page.body[(start ?? page.body.startIndex)..<match.range.upperBound]
                Issue.record("\(what) carries raw markup: …\(context)", sourceLocation: sourceLocation)
            }
        }
        for marker in markers where !page.body.contains(marker) {
            Issue.record("\(what) does not show \(marker)", sourceLocation: sourceLocation)
        }
    }

    /// A JSON body: served as JSON, without `<` or `>` at all, and the payloads intact as data.
    static func expectJSON(
        _ page: TestBrowser.Page, holds markers: [String], _ what: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(page.headers[.contentType]?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
        #expect(page.headers[.fwContentTypeOptions] == "nosniff", sourceLocation: sourceLocation)
        #expect(
            !page.body.contains("<") && !page.body.contains(">"), "\(what): \(page.body)",
            sourceLocation: sourceLocation)
        let decoded = (try? JSONSerialization.jsonObject(with: Data(page.body.utf8))).map { "\($0)" } ?? ""
        for marker in markers where !decoded.contains(payload(marker)) && !decoded.contains(marker) {
            Issue.record("\(what) does not hold \(marker)", sourceLocation: sourceLocation)
        }
    }
}

@Suite("XSS probe")
struct XSSProbeTests {
    @Test(
        "markup and script in every text sink are escaped on the create, refused, detail, edit, admin and preview pages and in the JSON"
    )
    func everySinkEscaped() async throws {
        try await TestApp.run(forms: []) { client in
            let admin = try await AdminFixtures.admin(client)
            let imported = try await AdminFixtures.importSpec(
                admin, files: [("\(XSSProbe.fileName("xss-file-name")).xml", XSSProbe.spec)])
            #expect(imported.status == .seeOther)
            let report = try await admin.get(try #require(imported.location))
            XSSProbe.expectEscaped(report, shows: ["xss-title"], "the import report")

            let specLabels = [
                "xss-title", "xss-placeholder", "xss-group", "xss-label", "xss-hint", "xss-code-label",
                "xss-pattern-hint", "xss-prefix", "xss-suffix", "xss-buttons", "xss-option-value", "xss-option-text",
                "xss-switch", "xss-child", "xss-attachments", "xss-optgroup", "xss-list-option", "xss-submit",
            ]
            let query = "?ref=" + TestBrowser.encode(XSSProbe.payload("xss-query"))
            let create = try await admin.get("/forms/xss/new\(query)")
            #expect(create.status == .ok)
            XSSProbe.expectEscaped(create, shows: specLabels + ["xss-query"], "the create view")

            // Refused: every typed value and the file name come back, with messages that echo
            // labels and hints.
            let file = "\(XSSProbe.fileName("xss-upload")).png"
            let refused = try await admin.postMultipart(
                "/forms/xss",
                [
                    .field("_csrf", create.csrf ?? ""), .field("_prefill", create.prefill ?? ""),
                    .field("title", XSSProbe.payload("xss-value-title")), .field("ref", XSSProbe.payload("xss-query")),
                    .field("words", XSSProbe.payload("xss-value-words")),
                    .field("code", XSSProbe.payload("xss-value-code")),
                    .field("site", "javascript:alert(1)"), .field("cost", XSSProbe.payload("xss-value-cost")),
                    .field("pick", XSSProbe.payload("xss-value-pick")), .field("remind", "on"),
                    .field("remark", XSSProbe.payload("xss-value-remark")),
                    .field("notes", XSSProbe.payload("xss-value-notes")),
                    .file("files", filename: file, type: "image/png", bytes: AttachmentFixtures.png),
                ])
            #expect(refused.status == .unprocessableContent)
            XSSProbe.expectEscaped(
                refused,
                shows: specLabels + [
                    "xss-value-title", "xss-value-words", "xss-value-code", "xss-value-cost", "xss-value-remark",
                    "xss-value-notes", "xss-upload", "xss-query",
                ], "the refused create view")
            #expect(refused.body.contains("must be"), "a message echoing the pattern hint")

            // Stored with the same texts: detail, edit and the object's JSON.
            let kept = refused.body.firstMatch(of: /name="files\._kept" value="([^"]*)"/).map { String($0.1) }
            let created = try await admin.postMultipart(
                "/forms/xss",
                [
                    .field("_csrf", refused.csrf ?? ""), .field("_prefill", refused.prefill ?? ""),
                    .field("title", XSSProbe.payload("xss-value-title")), .field("ref", XSSProbe.payload("xss-query")),
                    .field("words", XSSProbe.payload("xss-value-words")), .field("code", "ABC"),
                    .field("cost", "5"), .field("pick", XSSProbe.payload("xss-option-value")),
                    .field("plant", "p1"), .field("remind", "on"),
                    .field("remark", XSSProbe.payload("xss-value-remark")),
                    .field("notes", XSSProbe.payload("xss-value-notes")),
                    .field("files._kept", try #require(kept, "the refused view keeps the file")),
                ])
            #expect(created.status == .seeOther)
            let detailPath = try #require(created.location)
            let stored = [
                "xss-value-title", "xss-value-words", "xss-value-remark", "xss-value-notes", "xss-upload",
                "xss-option-text", "xss-list-option", "xss-query",
            ]
            XSSProbe.expectEscaped(try await admin.get(detailPath), shows: stored + ["xss-label"], "the detail page")
            XSSProbe.expectEscaped(
                try await admin.get("\(detailPath)/edit"), shows: specLabels.filter { $0 != "xss-submit" } + stored,
                "the edit view")
            XSSProbe.expectEscaped(try await admin.get("/forms/xss"), shows: ["xss-value-title"], "the parent page")
            let objectID = String(try #require(detailPath.split(separator: "/").last))
            XSSProbe.expectJSON(
                try await admin.get("/api/forms/xss/objects/\(objectID)"),
                holds: ["xss-value-title", "xss-value-words", "xss-upload"], "the object's JSON")
            XSSProbe.expectJSON(
                try await admin.get("/api/forms/xss"), holds: ["xss-title", "xss-label", "xss-option-text"],
                "the form's JSON schema")

            // OData labels, quick infos and value descriptions.
            let odata = try await AdminFixtures.importSpec(
                admin, files: [("meta.xml", XSSProbe.metadata)])
            #expect(odata.status == .seeOther)
            let odataReport = try await admin.get(try #require(odata.location))
            XSSProbe.expectEscaped(odataReport, shows: ["xss-odata-type"], "the OData import report")
            let odataID = try #require(
                odataReport.body.firstMatch(of: /href="\/admin\/forms\/([a-z0-9-]+)"/).map { String($0.1) })
            let odataView = try await admin.get("/forms/\(odataID)/new")
            XSSProbe.expectEscaped(
                odataView,
                shows: ["xss-odata-type", "xss-odata-label", "xss-odata-quickinfo", "xss-odata-description"],
                "the OData create view")
            let odataRefused = try await admin.post("/forms/\(odataID)", [("_csrf", odataView.csrf ?? "")])
            #expect(odataRefused.status == .unprocessableContent)
            XSSProbe.expectEscaped(odataRefused, shows: ["xss-odata-label"], "the refused OData create view")
            XSSProbe.expectJSON(
                try await admin.get("/api/forms/\(odataID)"),
                holds: ["xss-odata-label", "xss-odata-quickinfo", "xss-odata-description"], "the OData form's JSON")

            // The admin's pages: the forms list, the form, its preview and frame.
            XSSProbe.expectEscaped(
                try await admin.get("/admin"), shows: ["xss-title", "xss-odata-type"], "the forms list")
            XSSProbe.expectEscaped(
                try await admin.get("/admin/forms/xss"), shows: ["xss-title", "xss-file-name"], "the form's admin page")
            XSSProbe.expectEscaped(try await admin.get("/admin/forms/xss/preview"), shows: ["xss-title"], "the preview")
            XSSProbe.expectEscaped(
                try await admin.get("/admin/forms/xss/frame?layout=regular"), shows: specLabels, "the preview frame")
            XSSProbe.expectEscaped(try await admin.get("/"), shows: ["xss-title"], "the list of forms")

            // A refused import shows the offending line of the file, escaped.
            let broken = try await AdminFixtures.importSpec(
                admin, files: [("broken.xml", "<form xmlns=\"urn:fieldwork:form:1\">\(XSSProbe.payload("xss-line"))")])
            #expect(broken.status == .unprocessableContent)
            XSSProbe.expectEscaped(broken, shows: ["xss-line"], "the refused import")
        }
    }
}
