import FormXML
import Foundation
import Testing

@testable import FormImport
@testable import FormModel

/// Documents built to attack the parser: each is refused with a clear code, quickly.
@Suite("Hostile input")
struct HostileInputTests {
    /// Imports and returns the errors and the processor time the refusal took on this thread:
    /// the work done, which other processes keeping the cores busy do not lengthen (the wall
    /// clock's time would grow with them). A refusal that read an entity or expanded one would
    /// take far more than the bound the tests set.
    private func refuse(_ document: ImportDocument) -> ([ImportError], Duration) {
        let start = Self.threadTime()
        let errors = Fixtures.errors(of: [document])
        return (errors, Self.threadTime() - start)
    }

    /// The processor time this thread has used.
    private static func threadTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    private func nested(depth: Int) -> [UInt8] {
        let head = #"<form xmlns="urn:fieldwork:form:1" id="deep" title="Deep"><properties>"#
        return Array(
            (head + String(repeating: "<group>", count: depth) + String(repeating: "</group>", count: depth)
                + "</properties></form>").utf8)
    }

    @Test("an external entity reading /etc/passwd is refused without reading it")
    func xxe() throws {
        let (errors, elapsed) = refuse(try Fixtures.document("xxe"))
        #expect(errors.map(\.code) == ["doctype"])
        #expect(errors.first?.line == 2)
        #expect(!errors.contains { $0.message.contains("root:") || $0.description.contains("root:") })
        #expect(elapsed < .seconds(1))
    }

    @Test("an external DTD is refused")
    func externalDTD() throws {
        let (errors, elapsed) = refuse(try Fixtures.document("external-dtd"))
        #expect(errors.map(\.code) == ["doctype"])
        #expect(!errors.contains { $0.message.contains("root:") })
        #expect(elapsed < .seconds(1))
    }

    @Test("an external parameter entity is refused before it is fetched")
    func parameterEntity() throws {
        let (errors, elapsed) = refuse(try Fixtures.document("parameter-entity"))
        #expect(errors.map(\.code) == ["doctype"])
        #expect(errors.first?.line == 2)
        #expect(elapsed < .seconds(1))
    }

    @Test("billion laughs is refused")
    func billionLaughs() throws {
        let (errors, elapsed) = refuse(try Fixtures.document("billion-laughs"))
        #expect(errors.map(\.code) == ["doctype"])
        #expect(
            errors.first?.message
                == "The document has a DOCTYPE; form specs must not declare one (remove <!DOCTYPE ...> and any entities)."
        )
        #expect(elapsed < .seconds(1))
    }

    @Test("100,000 nested elements are refused as too deep")
    func deepNesting() {
        let (errors, elapsed) = refuse(ImportDocument(name: "deep.xml", data: nested(depth: 100_000)))
        #expect(errors.map(\.code) == ["too-deep"])
        #expect(errors.first?.line == 1)
        #expect(errors.first?.file == "deep.xml")
        #expect(elapsed < .seconds(1))
    }

    @Test("nesting up to the limit is parsed, one more is refused")
    func depthLimit() throws {
        // form + properties + groups: the limit counts every element.
        let atLimit = nested(depth: XMLLimits.maximumDepth - 2)
        #expect(throws: Never.self) { _ = try SafeXMLDocument.parse(atLimit, file: nil) }
        let over = nested(depth: XMLLimits.maximumDepth - 1)
        let failure = try #require(throws: ImportFailure.self) { _ = try SafeXMLDocument.parse(over, file: nil) }
        #expect(failure.errors.map(\.code) == ["too-deep"])
    }

    @Test("a 20 MB document is refused before parsing")
    func tooLarge() {
        var data = Array(#"<form xmlns="urn:fieldwork:form:1" id="big" title="Big"><!-- "#.utf8)
        data += [UInt8](repeating: UInt8(ascii: "x"), count: 20 * 1024 * 1024)
        data += Array(" --></form>".utf8)
        let (errors, elapsed) = refuse(ImportDocument(name: "big.xml", data: data))
        #expect(errors.map(\.code) == ["too-large"])
        #expect(errors.first?.message == "The document is 20.0 MB; documents over 16 MB are refused.")
        #expect(elapsed < .seconds(1))
    }

    @Test("a document of exactly the size limit is parsed, one byte more is not")
    func sizeLimit() throws {
        let head = Array(#"<form xmlns="urn:fieldwork:form:1" id="big" title="Big">"#.utf8)
        let tail = Array("</form>".utf8)
        // Many small comments: libxml2 refuses any single text or comment node over 10 MB.
        let chunk = Array(("<!--" + String(repeating: "x", count: 1000) + "-->").utf8)
        let room = XMLLimits.maximumDocumentBytes - head.count - tail.count
        var filler = [UInt8]()
        filler.reserveCapacity(room)
        for _ in 0..<(room / chunk.count) { filler += chunk }
        filler += [UInt8](repeating: UInt8(ascii: " "), count: room - filler.count)
        let exact = head + filler + tail
        #expect(exact.count == XMLLimits.maximumDocumentBytes)
        #expect(try SafeXMLDocument.parse(exact, file: nil).root?.localName == "form")
        let failure = try #require(throws: ImportFailure.self) {
            _ = try SafeXMLDocument.parse(exact + [0x20], file: nil)
        }
        #expect(failure.errors.map(\.code) == ["too-large"])
    }

    @Test("the deny-all entity loader keeps libxml2 from reading any file, even a valid XSD include")
    func entityLoader() throws {
        // A sound XSD on disk: only the loader stands between the include and a successful compile.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fieldwork-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let included = dir.appendingPathComponent("included.xsd")
        try Data(
            #"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="x" type="xs:string"/></xs:schema>"#
                .utf8
        )
        .write(to: included)
        let xsd =
            #"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:include schemaLocation="\#(included.absoluteString)"/></xs:schema>"#
        if case .success = XMLSchemaValidator.compile(Array(xsd.utf8)) {
            Issue.record("libxml2 loaded \(included.path)")
        }
        // Without the include the same XSD compiles, so the failure above is the loader's doing.
        let plain =
            #"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="x" type="xs:string"/></xs:schema>"#
        if case .failure(let error) = XMLSchemaValidator.compile(Array(plain.utf8)) {
            Issue.record("a plain XSD did not compile: \(error)")
        }
    }

    @Test("elements in another namespace are unknown")
    func foreignElement() {
        let xml =
            #"<form xmlns="urn:fieldwork:form:1" id="b" title="B"><key><t:text xmlns:t="urn:t" name="t"/></key></form>"#
        let errors = Fixtures.errors(of: [ImportDocument(name: "foreign.xml", data: Array(xml.utf8))])
        #expect(errors.map(\.code) == ["unknown-element"])
        #expect(
            errors.first?.message
                == "Unknown element <text> in namespace urn:t; form spec elements are in urn:fieldwork:form:1, check its xmlns."
        )
    }
}
