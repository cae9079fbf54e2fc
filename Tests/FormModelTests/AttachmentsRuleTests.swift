import Testing

@testable import FormModel

@Suite("Attachment validation")
struct AttachmentsRuleTests {
    static func file(_ name: String, _ type: String?, size: Int = 1000) -> SubmittedFile {
        SubmittedFile(id: name, name: name, size: size, contentType: type)
    }

    /// Issues of the demo form, or of `schema` (a sample that needs only a title), with `files` sent for `name`.
    func issues(_ files: [SubmittedFile], schema: FormSchema? = nil, name: String = "attachments") -> [FieldIssue] {
        guard let schema else { return DemoForm.validate([:], files: [name: files]).issues }
        return FormValidator.validate(schema, Submission(fields: ["title": ["T"]], files: [name: files])).issues
    }

    @Test("accepted files are stored in the order sent")
    func accepted() {
        let files = [Self.file("a.png", "image/png"), Self.file("b.csv", "text/csv; charset=utf-8")]
        #expect(DemoForm.validate([:], files: ["attachments": files]).values["attachments"] == .files(files))
    }

    @Test("a file whose content is not an accepted type is refused")
    func wrongType() {
        #expect(
            issues([Self.file("virus.exe", nil)]) == [
                FieldIssue(
                    field: "attachments", code: "file-type",
                    message: "The selected file must be a PNG, JPEG, PDF or CSV")
            ])
    }

    @Test("an HTML file named .png is refused")
    func htmlNamedPNG() {
        let sniffed = ContentSniffer.mediaType(of: Array("<!DOCTYPE html><script>alert(1)</script>".utf8))
        #expect(sniffed == "text/html")
        #expect(
            issues([Self.file("cat.png", sniffed)]).map(\.message) == [
                "The selected file must be a PNG, JPEG, PDF or CSV"
            ])
    }

    @Test("a file over max-size is refused")
    func tooBig() {
        #expect(issues([Self.file("big.pdf", "application/pdf", size: 10 << 20)]) == [])
        #expect(
            issues([Self.file("big.pdf", "application/pdf", size: (10 << 20) + 1)]) == [
                FieldIssue(
                    field: "attachments", code: "file-size", message: "The selected file must be smaller than 10 MB")
            ])
    }

    @Test("among several files, the bad ones are named, up to three, else counted; all bad: the selected files")
    func severalFiles() {
        let good = Self.file("a.png", "image/png")
        #expect(
            issues([good, Self.file("report.exe", nil)]).map(\.message) == [
                "report.exe must be a PNG, JPEG, PDF or CSV"
            ])
        #expect(
            issues([good, Self.file("x.exe", nil), Self.file("y.exe", "application/zip")]).map(\.message) == [
                "x.exe and y.exe must be a PNG, JPEG, PDF or CSV"
            ])
        let four = (1...4).map { Self.file("\($0).exe", nil) }
        #expect(issues([good] + four).map(\.message) == ["4 of the selected files must be a PNG, JPEG, PDF or CSV"])
        #expect(issues(four).map(\.message) == ["The selected files must be a PNG, JPEG, PDF or CSV"])
        let big = 11 << 20
        #expect(
            issues([Self.file("x.exe", nil, size: big), Self.file("y.png", "image/png", size: big)]).map(\.message) == [
                "x.exe must be a PNG, JPEG, PDF or CSV", "The selected files must each be smaller than 10 MB",
            ])
    }

    @Test("max-count and min-count limit the number of files")
    func counts() {
        let six = (1...6).map { Self.file("\($0).png", "image/png") }
        #expect(issues(six) == [FieldIssue(field: "attachments", code: "max-count", message: "Select up to 5 files")])
        let schema = SchemaSamples.with(
            Field(name: "scans", kind: .attachments, label: "Scans", constraints: Constraints(minCount: 2)))
        #expect(
            issues([Self.file("1.png", "image/png")], schema: schema, name: "scans").map(\.message) == [
                "Select at least 2 files"
            ])
        #expect(issues([], schema: schema, name: "scans") == [], "not required: none is fine")
    }

    @Test("required attachments ask for a file")
    func required() {
        let one = SchemaSamples.with(Field(name: "scans", kind: .attachments, label: "Scans", required: true))
        #expect(issues([], schema: one, name: "scans").map(\.message) == ["Select a file"])
        let two = SchemaSamples.with(
            Field(
                name: "scans", kind: .attachments, label: "Scans", required: true, constraints: Constraints(minCount: 2)
            ))
        #expect(issues([], schema: two, name: "scans").map(\.message) == ["Select at least 2 files"])
    }

    @Test(
        "accept lists are named for people",
        arguments: [
            (["image/png", "image/jpeg", "application/pdf", "text/csv"], "a PNG, JPEG, PDF or CSV"),
            (["image/*", "application/pdf"], "an image or a PDF"),
            (["application/pdf"], "a PDF"),
            (["application/x-tar"], "a TAR"),
            (["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "text/csv"], "an XLSX or CSV"),
        ])
    func acceptNames(_ accept: [String], _ text: String) {
        #expect(MediaTypes.describe(accept) == text)
    }

    @Test("patterns match by top-level type; unknown content matches nothing")
    func matching() {
        #expect(MediaTypes.matches("image/webp", accept: ["image/*"]))
        #expect(MediaTypes.matches("IMAGE/PNG", accept: ["image/png"]))
        #expect(!MediaTypes.matches("imagex/png", accept: ["image/*"]))
        #expect(!MediaTypes.matches("text/html", accept: ["image/png", "text/csv"]))
        #expect(!MediaTypes.matches(nil, accept: ["*/*"]))
    }
}
