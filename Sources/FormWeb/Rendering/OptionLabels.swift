import FormModel

/// The labels of a long value list's options by value, for showing its chosen values without
/// sending the whole list. Built once per plan; a slot holds it, compared by identity.
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
