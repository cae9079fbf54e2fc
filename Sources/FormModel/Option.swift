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
    /// What the list holds, as a heading for it (an OData value list's `Label`); without one,
    /// the list is headed by the label of the field showing it.
    public var title: String?
    public var groups: [OptionGroup]
    /// Options come from a list an admin uploads (an OData value list): the list may be empty
    /// until then, and while it is, its fields accept any value of their type.
    public var external: Bool
    /// Options come from the OData service the form is connected to, searched on the server as
    /// a long list's are; set when a form is prepared, never stored.
    public var remote: Bool = false
    public var location: SourceLocation?

    public init(
        id: String, title: String? = nil, groups: [OptionGroup], external: Bool = false,
        location: SourceLocation? = nil
    ) {
        self.id = id
        self.title = title
        self.groups = groups
        self.external = external
        self.location = location
    }

    public var options: [Option] { groups.flatMap(\.options) }
}

extension OptionList: Codable {
    enum CodingKeys: String, CodingKey { case id, title, groups, external }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try c.decode(String.self, forKey: .id),
            title: try c.decodeIfPresent(String.self, forKey: .title),
            groups: try c.decodeIfPresent([OptionGroup].self, forKey: .groups) ?? [],
            external: try c.decodeIfPresent(Bool.self, forKey: .external) ?? false)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encode(groups, forKey: .groups)
        if external { try c.encode(true, forKey: .external) }
    }
}
