import Foundation
import Testing

@testable import FormImport
@testable import FormModel

@Suite("XForms: recognition, refusals and dispatch")
struct XFormRecognitionTests {
    @Test("an h:html XForm is imported as one form of kind xforms, whatever prefixes it uses")
    func recognisedByNamespace() throws {
        let (result, form, rules) = try XFormFixtures.importing("controls")
        #expect(result.kind == .xforms)
        #expect(SourceKind.xforms.displayName == "ODK XForm")
        #expect(SourceKind.xforms.rawValue == "xforms")
        #expect(result.forms.count == 1)
        #expect(form.id == "controls-test")
        #expect(form.title == "Controls")
        // `orx` bound to the URI with a trailing slash, under the prefix `o`.
        #expect(rules.version == "7")
        #expect(rules.instanceID == "Controls Test")
        #expect(rules.namespaces["o"] == "http://openrosa.org/xforms/")
        #expect(rules.namespaces[""] == "http://www.w3.org/2002/xforms")
        #expect(result.sources.map(\.name) == ["controls.xml"])
    }

    @Test("an XHTML page without a model is refused as no XForm, saying what is missing")
    func notAnXForm() throws {
        let errors = try XFormFixtures.errors("not-an-xform")
        #expect(errors.count == 1)
        #expect(errors.first?.code == .notAnXForm)
        #expect(
            errors.first?.message
                == "The document is no XForm: its <h:head> has no <model> in the XForms namespace (http://www.w3.org/2002/xforms)."
        )
        #expect(errors.first?.line == 3)
        #expect(errors.first?.file == "not-an-xform.xml")
    }

    @Test("an h:html without a head, or with an empty primary instance, is refused naming the part")
    func missingParts() throws {
        let noHead = #"<h:html xmlns:h="http://www.w3.org/1999/xhtml"><h:body/></h:html>"#
        let empty = """
            <h:html xmlns:h="http://www.w3.org/1999/xhtml" xmlns="http://www.w3.org/2002/xforms">
            <h:head><h:title>T</h:title><model><instance/></model></h:head></h:html>
            """
        let noInstance = """
            <h:html xmlns:h="http://www.w3.org/1999/xhtml" xmlns:xf="http://www.w3.org/2002/xforms">
            <h:head><h:title>T</h:title><xf:model><xf:bind nodeset="/a"/></xf:model></h:head></h:html>
            """
        let messages = [noHead, empty, noInstance].map { text -> String? in
            let outcomes = FormImporter.importBatch([ImportDocument(name: "x.xml", data: Array(text.utf8))])
            return outcomes.failures.first?.errors.first?.message
        }
        #expect(
            messages == [
                "The document is no XForm: its <h:html> has no <h:head> (in the XHTML namespace http://www.w3.org/1999/xhtml).",
                "The document is no XForm: its primary <instance> is empty; it must hold one root element with the form's data nodes.",
                "The document is no XForm: its <model> has no <instance> (the primary instance, with the form's data nodes).",
            ])
    }

    @Test("a model in another namespace than XForms' is not taken for one")
    func modelByNamespace() throws {
        let text = """
            <h:html xmlns:h="http://www.w3.org/1999/xhtml" xmlns="http://example.org/not-xforms">
            <h:head><h:title>T</h:title><model><instance><data id="d"><a/></data></instance></model></h:head></h:html>
            """
        let failure = FormImporter.importBatch([ImportDocument(name: "x.xml", data: Array(text.utf8))]).failures
        #expect(failure.first?.errors.map(\.code) == [.notAnXForm])
    }

    @Test("a root html in no namespace is no XForm, and the refusal lists the XForm among the formats")
    func htmlWithoutNamespace() throws {
        let text = "<html><head/></html>"
        let errors = FormImporter.importBatch([ImportDocument(name: "p.html", data: Array(text.utf8))]).failures
            .first?.errors
        #expect(errors?.map(\.code) == [.unknownFormat])
        #expect(errors?.first?.message.hasSuffix("or <h:html> (ODK XForm).") == true)
    }

    @Test("a DOCTYPE is refused before anything is read")
    func doctype() throws {
        let errors = try XFormFixtures.errors("doctype")
        #expect(errors.map(\.code) == [.doctype])
    }

    @Test("XML that is not well-formed is refused with its line")
    func malformed() throws {
        let text = """
            <h:html xmlns:h="http://www.w3.org/1999/xhtml" xmlns="http://www.w3.org/2002/xforms">
            <h:head><h:title>T</h:title>
            </h:html>
            """
        let errors = FormImporter.importBatch([ImportDocument(name: "m.xml", data: Array(text.utf8))]).failures
            .first?.errors
        #expect(errors?.map(\.code) == [.malformedXML])
        #expect(errors?.first?.line == 3)
    }

    @Test("a bind nodeset and a control ref that match no node are refused, each at its attribute")
    func unknownNodes() throws {
        let errors = try XFormFixtures.errors("unknown-node")
        #expect(errors.map(\.code) == [.unknownNode, .unknownNode])
        #expect(
            errors.map(\.message) == [
                "The bind nodeset \"/data/agee\" matches no node of the primary instance (its root is /data); fix the path or add the node to the instance.",
                "The <input> ref \"/data/name\" matches no node of the primary instance (its root is /data); fix the path or add the node to the instance.",
            ])
        #expect(errors.map(\.line) == [9, 14])
        #expect(errors.map(\.column) == [24, 33])
    }

    @Test("several XForms in a batch are imports of their own; in one import their ids must differ")
    func batches() throws {
        let a = try XFormFixtures.document("controls")
        let b = try XFormFixtures.document("repeat")
        let outcomes = FormImporter.importBatch([a, b])
        #expect(outcomes.map(\.documents) == [["controls.xml"], ["repeat.xml"]])
        #expect(outcomes.accepted.map { $0.forms.map(\.id) } == [["controls-test"], ["household"]])
        #expect(outcomes.accepted.allSatisfy { $0.rules.count == 1 })

        let together = try FormImporter.importDocuments([a, b])
        #expect(together.forms.map(\.id) == ["controls-test", "household"])
        #expect(Set(together.rules.keys) == ["controls-test", "household"])

        var copy = b
        copy.name = "copy.xml"
        do {
            _ = try FormImporter.importDocuments([b, copy])
            Issue.record("two XForms with one id were imported together")
        } catch {
            #expect(error.errors.map(\.code) == [.duplicateFormID])
            #expect(
                error.errors.first?.message
                    == "copy.xml and repeat.xml both give the form id \"household\"; give each form its own id.")
        }
    }

    @Test("an XForm and a native spec in one import are mixed formats")
    func mixed() throws {
        let errors = Fixtures.errors(of: [try XFormFixtures.document("repeat"), try Fixtures.document("minimal")])
        #expect(errors.map(\.code) == [.mixedFormats])
        #expect(errors.first?.message.contains("repeat.xml is ODK XForm") == true)
    }
}
