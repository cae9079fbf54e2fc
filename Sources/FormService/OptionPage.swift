import FormModel

/// One page of a value help's options and, when the service counted them, how many match in all.
package struct OptionPage: Sendable, Hashable {
    package var options: [Option]
    package var total: Int?
    /// What choosing an option gives the form's other fields (its value help's `Out` and `InOut`
    /// parameters), by the option's value, then by field name; options that give nothing are absent.
    package var fills: [String: [String: String]]

    package init(options: [Option], total: Int?, fills: [String: [String: String]] = [:]) {
        self.options = options
        self.total = total
        self.fills = fills
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
