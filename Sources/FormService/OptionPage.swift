import FormModel

/// One page of a value help's options and, when the service counted them, how many match in all.
package struct OptionPage: Sendable, Hashable {
    package var options: [Option]
    package var total: Int?

    package init(options: [Option], total: Int?) {
        self.options = options
        self.total = total
    }
}
