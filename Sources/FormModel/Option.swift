/// One choice: the submitted `value` and the `label` people read.
public struct Option: Codable, Sendable, Hashable {
    public var value: String
    public var label: String

    public init(value: String, label: String) {
        self.value = value
        self.label = label
    }
}

/// Options under a heading (value lists only); without a label, a plain run of options.
public struct OptionGroup: Codable, Sendable, Hashable {
    public var label: String?
    public var options: [Option]

    public init(label: String? = nil, options: [Option]) {
        self.label = label
        self.options = options
    }
}

/// A named list of options shared by value-list fields (`<list id>`); admins may replace its options.
public struct OptionList: Sendable, Hashable {
    public var id: String
    public var groups: [OptionGroup]
    public var location: SourceLocation?

    public init(id: String, groups: [OptionGroup], location: SourceLocation? = nil) {
        self.id = id
        self.groups = groups
        self.location = location
    }

    public var options: [Option] { groups.flatMap(\.options) }
}

extension OptionList: Codable {
    enum CodingKeys: String, CodingKey { case id, groups }
}
