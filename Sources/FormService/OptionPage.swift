import FormModel

/// One page of a value help's options and, when the service counted them, how many match in all.
package struct OptionPage: Sendable, Hashable {
    package var options: [Option]
    package var total: Int?
    /// What choosing each option gives the form's other fields (its value help's `Out` and
    /// `InOut` parameters), by field name, in the options' order: rows may share a value (the
    /// flights of one connection, each on its own date) and still give different values. Empty
    /// when no option gives anything.
    package var fills: [[String: String]]

    package init(options: [Option], total: Int?, fills: [[String: String]] = []) {
        self.options = options
        self.total = total
        self.fills = fills
    }

    /// What choosing the option at `index` gives, or nil when it gives nothing.
    package func fills(at index: Int) -> [String: String]? {
        index < fills.count && !fills[index].isEmpty ? fills[index] : nil
    }
}

/// One row of a value help: the option and what choosing it gives the form's other fields, by
/// field name.
package struct ValueHelpRow: Sendable, Hashable {
    package var option: Option
    package var fills: [String: String]

    package init(option: Option, fills: [String: String] = [:]) {
        self.option = option
        self.fills = fills
    }
}
