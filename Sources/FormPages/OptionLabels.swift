import FormModel

/// The labels of a long value list's options by value, for showing its chosen values without
/// sending the whole list. Built once per plan; a slot holds it, compared by identity.
///
/// Apart from ``OptionSearch`` on purpose: a label lookup needs this dictionary wherever it
/// lives (a scan of the search's entries instead costs about 5 µs per chosen value at 5,000
/// options, on every page that shows one), and it is the cheap part: for 5,000 options about
/// 1 ms and a few hundred KB, where the search's folded words take about 19 ms and 3.7 MB.
final class OptionLabels: Sendable, Hashable {
    private let labels: [String: String]

    init(_ groups: [OptionGroup]) {
        var labels: [String: String] = [:]
        for option in groups.lazy.flatMap(\.options) where labels[option.value] == nil {
            labels[option.value] = option.label
        }
        self.labels = labels
    }

    /// The label of a value, or the value itself when it is no option.
    func label(of value: String) -> String {
        labels[value] ?? value
    }

    static func == (a: OptionLabels, b: OptionLabels) -> Bool { a === b }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
