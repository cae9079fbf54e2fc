import Testing

@testable import FormImport

/// `XPathExpression.rewritingDates(context:type:)`: date, dateTime and time operands of numeric
/// operators become days, and nothing else changes.
@Suite("XForms expressions: the typed date rewrite")
struct XPathRewriteTests {
    static let types: [[String]: XPathValueType] = [
        ["data", "dob"]: .date, ["data", "start"]: .date, ["data", "end"]: .date, ["data", "age"]: .number,
        ["data", "visit"]: .dateTime, ["data", "wake"]: .time, ["data", "name"]: .string,
    ]

    static func rewritten(_ text: String, context: [String] = ["data", "dob"]) throws -> String {
        try XPathParser.parse(text).rewritingDates(context: context) { types[$0] }.text
    }

    @Test("'. <= today()' on a date node compares days")
    func today() throws {
        #expect(try Self.rewritten(". <= today()") == "decimal-date-time(.) <= decimal-date-time(today())")
        #expect(try Self.rewritten("current() > now()") == "decimal-date-time(current()) > decimal-date-time(now())")
    }

    @Test("two date nodes subtract as days")
    func subtraction() throws {
        #expect(
            try Self.rewritten("/data/end - /data/start > 7")
                == "decimal-date-time(/data/end) - decimal-date-time(/data/start) > 7")
        #expect(try Self.rewritten("-/data/end") == "-decimal-date-time(/data/end)")
        #expect(try Self.rewritten("today() + 1") == "decimal-date-time(today()) + 1")
    }

    @Test("number and string nodes, and = and !=, are left alone")
    func leftAlone() throws {
        for text in [
            "/data/age > 18", ". = today()", "/data/dob != ''", "/data/name < 'b'", "count(/data/dob) > 1",
            "decimal-date-time(.) < 3", "string-length(.) > 2", "/data/age * 2 - 1",
        ] {
            #expect(try Self.rewritten(text) == XPathParser.parse(text).text, "\(text)")
        }
        #expect(try Self.rewritten("/data/age > 18") == "/data/age > 18")
        #expect(try Self.rewritten(". = today()") == ". = today()")
        #expect(try Self.rewritten("/data/unknown < today()") == "/data/unknown < decimal-date-time(today())")
        #expect(try Self.rewritten(". > 1", context: ["data", "age"]) == ". > 1")
    }

    @Test("date literals, date() and date-time() are dates; times use decimal-time()")
    func literalsAndFunctions() throws {
        #expect(try Self.rewritten(". >= '2020-01-01'") == "decimal-date-time(.) >= decimal-date-time('2020-01-01')")
        #expect(
            try Self.rewritten(". <= today() and .>= date(date('1915-01-01'))")
                == "decimal-date-time(.) <= decimal-date-time(today()) and decimal-date-time(.) >= "
                + "decimal-date-time(date(date('1915-01-01')))")
        #expect(
            try Self.rewritten("/data/visit < date-time('2024-05-15T10:30:00.000+03:00')")
                == "decimal-date-time(/data/visit) < decimal-date-time(date-time('2024-05-15T10:30:00.000+03:00'))")
        #expect(try Self.rewritten("/data/wake < '07:30:00'") == "decimal-time(/data/wake) < decimal-time('07:30:00')")
        #expect(try Self.rewritten("/data/age < '2020-13'") == "/data/age < '2020-13'")
    }

    @Test("dates inside if() arguments and predicates are rewritten where they are compared")
    func nested() throws {
        #expect(
            try Self.rewritten("if(. < today(), 'past', 'future')")
                == "if(decimal-date-time(.) < decimal-date-time(today()), 'past', 'future')")
        #expect(
            try Self.rewritten("if(/data/age > 1, /data/start, /data/end) < today()")
                == "decimal-date-time(if(/data/age > 1, /data/start, /data/end)) < decimal-date-time(today())")
        #expect(
            try Self.rewritten("if(true(), /data/start, /data/age) < 3") == "if(true(), /data/start, /data/age) < 3")
        // `.` in a predicate is the step's node, not the bound one.
        #expect(
            try Self.rewritten("/data[dob < today()]/age")
                == "/data[decimal-date-time(dob) < decimal-date-time(today())]/age")
        #expect(
            try Self.rewritten("instance('x')/root/item[. < today()]", context: ["data", "age"])
                == "instance('x')/root/item[. < decimal-date-time(today())]")
    }

    @Test("the rewritten text parses, and a rewrite of it changes nothing more")
    func stable() throws {
        let once = try Self.rewritten("/data/end - /data/start > 7 and . <= today()")
        #expect(try XPathParser.parse(once).rewritingDates(context: ["data", "dob"]) { Self.types[$0] }.text == once)
    }

    @Test("date literal forms")
    func literalTypes() {
        #expect(XPathValueType.ofLiteral("2020-01-31") == .date)
        #expect(XPathValueType.ofLiteral("2020-01-31T10:30") == .dateTime)
        #expect(XPathValueType.ofLiteral("2020-01-31T10:30:00.123Z") == .dateTime)
        #expect(XPathValueType.ofLiteral("2020-01-31T10:30:00-05:00") == .dateTime)
        #expect(XPathValueType.ofLiteral("10:30:00") == .time)
        #expect(XPathValueType.ofLiteral("10:30:00+0300") == .time)
        for text in [
            "", "2020-1-31", "2020-01-31T", "2020-01-31 10:30", "10:3", "10:30:", "1:30", "20200131", "2020-01-31X",
        ] {
            #expect(XPathValueType.ofLiteral(text) == .string, "\(text)")
        }
    }

    @Test(
        "a calculate declared as a string takes its calculation's date type, along chains, never over a declared type")
    func inference() throws {
        let declared: [[String]: XPathValueType] = [
            ["data", "a"]: .date, ["data", "b"]: .date, ["data", "either"]: .string, ["data", "age"]: .number,
            ["data", "count"]: .string, ["data", "fixed"]: .number,
        ]
        let calculates = try [
            ["data", "either"]: "if(/data/age > 1, /data/a, /data/b)",
            ["data", "copy"]: "../either",
            ["data", "copyOfCopy"]: "/data/copy",
            ["data", "count"]: "/data/age + 1",
            ["data", "fixed"]: "today()",
            ["data", "mixed"]: "if(true(), /data/a, /data/age)",
            ["data", "loop"]: "/data/loop",
        ].mapValues { try XPathParser.parse($0) }
        let types = XPathTypeInference.types(declared: declared, calculates: calculates)
        #expect(types[["data", "either"]] == .date)
        #expect(types[["data", "copy"]] == .date)
        #expect(types[["data", "copyOfCopy"]] == .date)
        #expect(types[["data", "count"]] == .string)
        #expect(types[["data", "fixed"]] == .number)
        #expect(types[["data", "mixed"]] == nil)
        #expect(types[["data", "loop"]] == nil)
        let rewritten = try XPathParser.parse("/data/copyOfCopy - /data/a").rewritingDates(context: ["data", "x"]) {
            types[$0]
        }
        #expect(rewritten.text == "decimal-date-time(/data/copyOfCopy) - decimal-date-time(/data/a)")
    }
}
