import Testing

@testable import FormImport

/// `XPathExpression.references(context:)`: the data nodes, secondary instances and unresolved
/// paths an expression reads, from the node it is bound to.
@Suite("XForms expressions: references")
struct XPathReferencesTests {
    static let bound = ["data", "group", "age"]

    static func references(_ text: String, context: [String] = bound) throws -> XPathReferences {
        try XPathParser.parse(text).references(context: context)
    }

    @Test("absolute paths are read as written, each once, in the order met")
    func absolute() throws {
        let found = try Self.references("/data/a > 1 and /data/g/b = /data/a or selected( /data/c , 'x')")
        #expect(found == XPathReferences(nodes: [["data", "a"], ["data", "g", "b"], ["data", "c"]]))
    }

    @Test("relative paths are read from the bound node")
    func relative() throws {
        #expect(try Self.references(".").nodes == [Self.bound])
        #expect(try Self.references("./x").nodes == [Self.bound + ["x"]])
        #expect(try Self.references("x").nodes == [Self.bound + ["x"]])
        #expect(try Self.references("..").nodes == [["data", "group"]])
        #expect(try Self.references(" ../healthVisit  = 1").nodes == [["data", "group", "healthVisit"]])
        #expect(try Self.references("../../name != ''").nodes == [["data", "name"]])
        #expect(try Self.references("self::age").nodes == [Self.bound])
        #expect(try Self.references("parent::group/x").nodes == [["data", "group", "x"]])
        #expect(try Self.references("@id").nodes == [Self.bound + ["@id"]])
        #expect(try Self.references("/data/orx:meta/orx:instanceID").nodes == [["data", "orx:meta", "orx:instanceID"]])
        #expect(try Self.references("/data/name/text()").nodes == [["data", "name"]])
    }

    @Test("current() is the bound node, alone or as the start of a path")
    func current() throws {
        #expect(try Self.references("current()").nodes == [Self.bound])
        #expect(try Self.references("current()/../name").nodes == [["data", "group", "name"]])
        #expect(try Self.references("jr:choice-name(current(), '/data/group/age')").nodes == [Self.bound])
    }

    @Test(
        "a predicate over a secondary instance reads the instance, and data nodes only through current() or absolute paths"
    )
    func secondaryInstance() throws {
        let found = try Self.references(
            "instance('cities')/root/item[country = current()/../country and size > /data/minimum]/name",
            context: ["data", "city"])
        #expect(found == XPathReferences(nodes: [["data", "country"], ["data", "minimum"]], instances: ["cities"]))
        let itemset = try Self.references(
            "instance('district')/root/item[region= /data/headOfHousehold/region ]", context: ["data", "district"])
        #expect(itemset == XPathReferences(nodes: [["data", "headOfHousehold", "region"]], instances: ["district"]))
        let lastSaved = try Self.references(" instance('__last-saved')/data/Interviewer/Id10010 ")
        #expect(lastSaved == XPathReferences(instances: ["__last-saved"]))
        #expect(try Self.references("count(instance('list')/root/item)") == XPathReferences(instances: ["list"]))
    }

    @Test("a predicate over a data path reads from the step it filters")
    func dataPredicate() throws {
        let found = try Self.references("/data/x[. > 1 and ../y = 2]")
        #expect(found.nodes == [["data", "x"], ["data", "y"]])
        #expect(found.unresolved.isEmpty)
    }

    @Test("paths that cannot be resolved without the data are reported, not guessed")
    func unresolved() throws {
        #expect(try Self.references("//item") == XPathReferences(unresolved: ["//item"]))
        #expect(try Self.references("/data/*") == XPathReferences(unresolved: ["/data/*"]))
        #expect(try Self.references("ancestor::group/x") == XPathReferences(unresolved: ["ancestor::group/x"]))
        #expect(try Self.references("count(/data/g//x) > /data/n").unresolved == ["/data/g//x"])
        #expect(try Self.references("count(/data/g//x) > /data/n").nodes == [["data", "n"]])
        #expect(
            try Self.references("instance(/data/which)/root/item")
                == XPathReferences(nodes: [["data", "which"]], unresolved: ["instance(/data/which)/root/item"]))
        #expect(try Self.references("count(/)") == XPathReferences(unresolved: ["/"]))
        #expect(try Self.references("../../../..") == XPathReferences(unresolved: ["../../../.."]))
        #expect(try Self.references("self::other") == XPathReferences(unresolved: ["self::other"]))
        // Relative paths inside an unresolved one are part of it; absolute ones are still read.
        #expect(
            try Self.references("//item[name = /data/n]")
                == XPathReferences(nodes: [["data", "n"]], unresolved: ["//item[name = /data/n]"]))
    }

    @Test("unions, filters and literal-only expressions")
    func others() throws {
        #expect(try Self.references("count(/data/a | ../b)").nodes == [["data", "a"], ["data", "group", "b"]])
        #expect(try Self.references("(/data/a)[1]").nodes == [["data", "a"]])
        #expect(try Self.references("1 + 2 = 3") == XPathReferences())
        #expect(try Self.references("jr:itext('/data/x:label')") == XPathReferences())
    }
}
