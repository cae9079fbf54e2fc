import FormModel
import Testing

@Suite("Searching a long value list")
struct OptionSearchTests {
    static let groups = [
        OptionGroup(
            label: "Europe",
            options: [
                Option(value: "DE-BER", label: "Berlin"), Option(value: "AT-VIE", label: "Wien (Vienna)"),
                Option(value: "FR-PAR", label: "Paris"), Option(value: "DE-MUC", label: "München"),
            ]),
        OptionGroup(
            label: "Americas",
            options: [
                Option(value: "US-SFO", label: "San Francisco"), Option(value: "BR-SAO", label: "São Paulo"),
                Option(value: "US-SAN", label: "San Diego"),
            ]),
    ]

    @Test("each word must start a word of the label or occur in the value, ignoring case and accents")
    func words() {
        let search = OptionSearch(Self.groups)
        #expect(search.search("munchen").matches.map(\.value) == ["DE-MUC"])
        #expect(search.search("vienna").matches.map(\.value) == ["AT-VIE"])
        #expect(search.search("sao").matches.map(\.value) == ["BR-SAO"])
        #expect(search.search("san fran").matches.map(\.value) == ["US-SFO"])
        #expect(search.search("de-").matches.map(\.value) == ["DE-BER", "DE-MUC"])
        #expect(search.search("cisco").matches.isEmpty, "inside a word of the label is no match")
        #expect(search.search("").total == 7)
    }

    @Test("labels that start with the query come first, each with its group")
    func order() {
        let search = OptionSearch(Self.groups)
        let found = search.search("pa").matches
        #expect(found.map(\.value) == ["FR-PAR", "BR-SAO"])
        #expect(found.first?.group == "Europe")
    }

    @Test("results come in pages of 50 with the total and whether more follow")
    func pages() {
        let many = [OptionGroup(options: (1...120).map { Option(value: "v\($0)", label: "Option \($0)") })]
        let search = OptionSearch(many)
        let first = search.search("option")
        #expect(first.matches.count == 50 && first.total == 120 && first.hasMore)
        let last = search.search("option", page: 3)
        #expect(last.matches.count == 20 && !last.hasMore && last.matches.first?.value == "v101")
    }
}
