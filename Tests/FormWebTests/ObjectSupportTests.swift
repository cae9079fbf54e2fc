import Crypto
import FluentKit
import FormModel
import Foundation
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

@Suite("Signed prefill, stored values and input strings")
struct ObjectSupportTests {
    let prefill = SignedPrefill(secret: ServerSecret(key: SymmetricKey(data: Data(repeating: 9, count: 32))))

    @Test("the records that name their properties name every one reflection finds, in the same order")
    func namedProperties() {
        func reflected(_ model: some Fields) -> [ObjectIdentifier] {
            Mirror(reflecting: model).children.compactMap { $0.value as? any AnyProperty }
                .map { ObjectIdentifier($0 as AnyObject) }
        }
        func named(_ model: some Fields) -> [ObjectIdentifier] {
            model.properties.map { ObjectIdentifier($0 as AnyObject) }
        }
        let object = ObjectRecord()
        let token = SubmissionTokenRecord()
        let change = ChangeRecord()
        #expect(named(object) == reflected(object))
        #expect(named(object).count == 14)
        // The raw INSERT of a create writes these columns in this order.
        #expect(ObjectRecord.keys.map(\.description) == ObjectRecord.columns)
        #expect(named(token) == reflected(token))
        #expect(named(token).count == 5)
        #expect(named(change) == reflected(change))
        #expect(named(change).count == 3)
    }

    @Test("a seal opens to its values only for the form and version it was made for")
    func sealRoundTrip() {
        let values = ["task": ["T-1001"], "b": ["x", "y"]]
        let seal = prefill.seal(formID: "f", version: 2, values: values)
        #expect(prefill.open(seal, formID: "f", version: 2) == values)
        #expect(prefill.open(seal, formID: "f", version: 3) == nil)
        #expect(prefill.open(seal, formID: "g", version: 2) == nil)
        #expect(prefill.open(nil, formID: "f", version: 2) == nil)
        #expect(prefill.open("garbage", formID: "f", version: 2) == nil)
        let other = SignedPrefill(secret: ServerSecret(key: SymmetricKey(data: Data(repeating: 8, count: 32))))
        #expect(other.open(seal, formID: "f", version: 2) == nil)
        // A different payload under the same mac fails.
        let forged = Base64URL.encode(Data(#"{"task":["EVIL"]}"#.utf8)) + "." + seal.split(separator: ".")[1]
        #expect(prefill.open(forged, formID: "f", version: 2) == nil)
    }

    @Test("every kind of value survives the stored JSON")
    func storedValuesRoundTrip() throws {
        let values: [String: FieldValue] = [
            "t": .text("a \"quoted\" text"), "n": .number(Decimal(string: "12.50")!), "b": .bool(true),
            "d": .date(LocalDate("2026-11-21")!), "tm": .time(LocalTime("14:30")!),
            "dt": .datetime(LocalDateTime("2026-11-21T14:30")!), "du": .duration(ISODuration("PT1H30M")!),
            "c": .choice("x"), "cs": .choices(["y", "x"]),
            "f": .files([SubmittedFile(id: "1", name: "a.png", size: 3, contentType: "image/png")]),
            "items": .items([
                ItemValues(
                    id: "6f1d5c4e-9a57-4c27-9e6b-1e2c1d7a0b11",
                    values: [
                        "n": .number(3), "d": .date(LocalDate("2026-11-21")!),
                        "inner": .items([ItemValues(id: "a", values: ["c": .choice("x")]), ItemValues(values: [:])]),
                    ]),
                ItemValues(values: ["t": .text("second \"item\"")]),
            ]),
            "none": .items([]),
        ]
        let data = try JSONEncoder().encode(StoredValues(values))
        #expect(try JSONDecoder().decode(StoredValues.self, from: data).values == values)
        #expect(String(decoding: data, as: UTF8.self).contains(#""n":{"number":"12.5"}"#))
        // The text written by hand for the database reads back the same, with what must be
        // escaped escaped (a file without a type too).
        var tricky = values
        tricky["t"] = .text("quote \" backslash \\ slash / newline \n tab \t bell \u{7} é 🙂")
        tricky["g"] = .files([SubmittedFile(id: "2", name: "b\"c.bin", size: 0, contentType: nil)])
        tricky["off"] = .bool(false)
        for sample in [values, tricky, [:]] {
            let text = StoredValues(sample).jsonText
            #expect(try JSONDecoder().decode(StoredValues.self, from: Data(text.utf8)).values == sample, "\(text)")
        }
        #expect(StoredValues(values).jsonText.contains(#""n":{"number":"12.5"}"#))
    }

    @Test("an object's JSON written by hand is the API encoder's, for every kind of value")
    func objectJSON() throws {
        let values: [String: FieldValue] = [
            "t": .text("a \"quoted\" </script> & text/with/slashes\n"), "n": .number(Decimal(string: "-12.50")!),
            "big": .number(Decimal(string: "12345678901234567890.123")!), "b": .bool(true), "off": .bool(false),
            "d": .date(LocalDate("2026-11-21")!), "tm": .time(LocalTime("14:30")!),
            "dt": .datetime(LocalDateTime("2026-11-21T14:30")!), "du": .duration(ISODuration("PT1H30M")!),
            "c": .choice("x"), "cs": .choices(["y", "x"]), "none": .choices([]),
            "f": .files([
                SubmittedFile(id: "1", name: "a.png", size: 3, contentType: "image/png"),
                SubmittedFile(id: "2", name: "b", size: 0, contentType: nil),
            ]),
            "items": .items([
                ItemValues(
                    id: "b2", values: ["z": .number(1), "a": .text("x/y"), "Z": .bool(true), "_x": .choices([])]),
                ItemValues(values: ["inner": .items([ItemValues(id: "c", values: [:])])]),
            ]),
        ]
        let now = Date(timeIntervalSince1970: 1_795_770_116.28)
        let record = ObjectRecord()
        record.id = UUID()
        record.formID = "f"
        record.formVersion = 3
        record.values = StoredValues(values)
        record.keyText = "k"
        record.createdAt = now
        record.updatedAt = now
        var object = try StoredObject(record)
        var samples = [object]
        object.service = ServiceLink(state: .created, key: "Product='A/1'", requestID: UUID(), etag: "W/\"1\"")
        samples.append(object)
        object.service = ServiceLink(state: .sending, requestID: nil)
        object.createdAt = nil
        object.values = [:]
        samples.append(object)
        // Items alone: the bytes must be the encoder's, each item's members in its key order.
        object.values = ["items": values["items"]!]
        samples.append(object)
        for sample in samples {
            let json = ObjectJSON(sample)
            let encoded = try JSONResponse.encoder().encode(json)
            // The same bytes as the encoder's, but for how a string's characters are escaped.
            let parsed = try JSONSerialization.jsonObject(with: Data(json.jsonText.utf8)) as? NSDictionary
            #expect(parsed == (try JSONSerialization.jsonObject(with: encoded) as? NSDictionary), "\(json.jsonText)")
            #expect(json.jsonText == String(decoding: encoded, as: UTF8.self) || sample.values["t"] != nil)
        }
    }

    @Test("stored values turn back into the strings the edit view's inputs hold")
    func inputStrings() {
        let strings = InputStrings.of([
            "n": .number(Decimal(string: "3.25")!), "on": .bool(true), "off": .bool(false), "cs": .choices(["a", "b"]),
            "du": .duration(ISODuration("PT2H15M")!), "dt": .datetime(LocalDateTime("2026-11-21T09:05")!),
        ])
        #expect(
            strings == ["n": ["3.25"], "on": ["on"], "cs": ["a", "b"], "du": ["PT2H15M"], "dt": ["2026-11-21T09:05"]])
        // An item's values under the names its inputs have, its id too; its files apart.
        let file = SubmittedFile(id: "f", name: "a.png", size: 1, contentType: "image/png")
        let values: [String: FieldValue] = [
            "title": .text("T"),
            "members": .items([
                ItemValues(id: "m0", values: ["age": .number(34), "card": .files([file])]),
                ItemValues(values: [
                    "doses": .items([ItemValues(id: "d0", values: ["given": .date(LocalDate("2026-01-02")!)])])
                ]),
            ]),
        ]
        #expect(
            InputStrings.of(values) == [
                "title": ["T"], "members[0]._id": ["m0"], "members[0].age": ["34"], "members[1].doses[0]._id": ["d0"],
                "members[1].doses[0].given": ["2026-01-02"],
            ])
        #expect(InputStrings.files(of: values) == ["members[0].card": [file]])
    }

    @Test("the detail page hides fields without a value and groups with none")
    func detailHidesEmpty() async throws {
        var schema = Fixtures.schema([
            Field(name: "code", kind: .text, label: "Code"), Field(name: "ref", kind: .text, label: "Ref"),
        ])
        schema.sections.append(
            FormSection(
                kind: .accessory,
                groups: [FieldGroup(label: "Later", fields: [Field(name: "note", kind: .note, label: "Note")])]))
        let plan = try await Fixtures.renderer().detailPage(for: schema)
        var state = RenderState(values: [:], csrfToken: "")
        state.display = ["title": "Shown", "ref": "R-1"]
        let html = String(buffer: plan.render(state))
        #expect(
            html.contains(
                #"<div class="fw-detail__row"><dt class="fw-detail__label">Title</dt><dd class="fw-detail__value">Shown</dd></div>"#
            ))
        #expect(html.contains(#"<div class="fw-detail__row" hidden><dt class="fw-detail__label">Code</dt>"#))
        #expect(html.contains("<section class=\"fw-detail__group\" hidden>\n<h2 class=\"fw-group__label\">Later</h2>"))
        #expect(html.contains("<section class=\"fw-detail__group\">\n<h2 class=\"fw-group__label\">Details</h2>"))
        state.display["note"] = "x"
        #expect(
            !String(buffer: plan.render(state)).contains(
                "<section class=\"fw-detail__group\" hidden>\n<h2 class=\"fw-group__label\">Later"))
    }

    @Test("edit mode makes create-only fields read-only too")
    func modes() {
        let createOnly = Field(name: "c", kind: .text, editable: .createOnly)
        let never = Field(name: "n", kind: .text, editable: .no)
        #expect(!FormMode.create.isReadOnly(createOnly))
        #expect(FormMode.edit.isReadOnly(createOnly))
        #expect(FormMode.create.isReadOnly(never))
        #expect(!FormMode.edit.isReadOnly(Field(name: "y", kind: .text)))
    }
}
