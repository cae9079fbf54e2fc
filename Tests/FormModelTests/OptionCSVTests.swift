import Testing

@testable import FormModel

@Suite("Option lists from CSV")
struct OptionCSVTests {
    @Test("value,label lines give a plain run; a third column groups, in order of first appearance")
    func groups() throws {
        let text =
            "value,label,group\r\nP100,Plant 100,North\nP200,\"Plant 200, old\",South\nP300,Plant 300,North\nX,Other\n"
        let groups = try OptionCSV.parse(text).get()
        #expect(
            groups == [
                OptionGroup(options: [Option(value: "X", label: "Other")]),
                OptionGroup(
                    label: "North",
                    options: [Option(value: "P100", label: "Plant 100"), Option(value: "P300", label: "Plant 300")]),
                OptionGroup(label: "South", options: [Option(value: "P200", label: "Plant 200, old")]),
            ])
    }

    @Test("quotes: doubled quotes, line breaks inside quotes, a byte-order mark")
    func quoting() throws {
        let groups = try OptionCSV.parse("\u{FEFF}a,\"Say \"\"hi\"\"\"\nb,\"two\nlines\"\nc,C").get()
        #expect(groups.flatMap(\.options).map(\.label) == ["Say \"hi\"", "two\nlines", "C"])
    }

    @Test("every bad line is reported with its number and what to do")
    func lineErrors() {
        let text = "a,A\n,Empty\nb\nc,C,g,extra\na,Again\nd,\n"
        guard case .failure(let failure) = OptionCSV.parse(text) else {
            Issue.record("accepted")
            return
        }
        let errors = failure.errors
        #expect(errors.map(\.line) == [2, 3, 4, 5, 6])
        #expect(errors[0].message == "Enter a value in the first column.")
        #expect(errors[1].message == "Write value,label or value,label,group; this line has 1 column.")
        #expect(errors[3].message == "The value \"a\" is already on line 1; each value may appear once.")
        #expect(errors[4].message == "Enter a label for \"d\" in the second column.")
    }

    @Test("an unclosed quote names the line it opened on; an empty file says what to write")
    func structural() {
        guard case .failure(let open) = OptionCSV.parse("a,A\nb,\"B\nc,C") else {
            Issue.record("accepted")
            return
        }
        #expect(open.errors.map(\.line) == [2])
        guard case .failure(let empty) = OptionCSV.parse("value,label\n\n") else {
            Issue.record("accepted")
            return
        }
        #expect(empty.errors.first?.message == "The file has no options; write one value,label line per option.")
    }
}
