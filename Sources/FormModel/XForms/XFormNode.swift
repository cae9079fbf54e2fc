/// A node of an XForm's primary instance: what binds say of it, and which control, if any,
/// shows it.
public struct XFormNode: Codable, Sendable, Hashable {
    /// Why a node that a control or a repeat names is not part of the form.
    public enum LeftOut: String, Codable, Sendable, Hashable {
        /// Inside a repeat left out: one nested deeper than item lists go (`repeat-unsupported`),
        /// one with no question Fieldwork can show, or any repeat of a version imported before
        /// repeats were item lists.
        case `repeat`
        /// Its control is not supported (`odk:rank`, an external app...): `control-unsupported`.
        case control
    }

    /// The absolute path, as expressions write it (`/data/group/age`; `orx:meta` with its prefix).
    public var path: String
    /// The field that shows it; nil for groups, hidden values (calculated, preloaded or plain
    /// data) and nodes left out.
    public var field: String?
    /// The bind's type without prefix (`string`, `int`, `decimal`, `date`, `time`, `dateTime`,
    /// `boolean`, `select`, `select1`, `geopoint`, `geotrace`, `geoshape`, `binary`, `barcode`,
    /// `odk:rank`...): `string` when the bind gives none; nil for a group.
    public var type: String?
    /// Whether it holds other nodes.
    public var isGroup: Bool
    /// The control showing it, by element (`input`, `select1`, `select`, `range`, `upload`,
    /// `trigger`, `group`...); nil for a hidden node.
    public var control: String?
    /// The control's `appearance`, as written (`month-year`, `minimal`, `masked`...).
    public var appearance: String?
    /// The control's label and hint.
    public var label: XFormText?
    public var hint: XFormText?
    /// The bind's expressions and messages; nil when no bind names the node.
    public var bind: XFormBind?
    /// `jr:preload` / `jr:preloadParams`.
    public var preload: XFormPreload?
    /// The options of a select from a secondary instance.
    public var itemset: XFormItemset?
    /// When the node is not part of the form: nothing is shown for it and its rules are not judged.
    public var leftOut: LeftOut?
    /// When the node is a repeat's (`<repeat nodeset>`): the item list it is. The nodes below it
    /// are its items' (their ``field`` an item's field name), one copy of them per item.
    public var `repeat`: XFormRepeat?
    /// 1-based line of the node's element in the primary instance.
    public var line: Int
    /// The itext id of each option's label, by the option's value, where the select's options
    /// (its `<item>`s, or an itemset's inline instance) are translated: a page in another
    /// language shows them in it. Nil when no option's label is.
    public var optionTexts: [String: String]?

    public init(
        path: String, field: String? = nil, type: String? = "string", isGroup: Bool = false, control: String? = nil,
        appearance: String? = nil, label: XFormText? = nil, hint: XFormText? = nil, bind: XFormBind? = nil,
        preload: XFormPreload? = nil, itemset: XFormItemset? = nil, leftOut: LeftOut? = nil,
        repeat: XFormRepeat? = nil, line: Int
    ) {
        self.path = path
        self.field = field
        self.type = type
        self.isGroup = isGroup
        self.control = control
        self.appearance = appearance
        self.label = label
        self.hint = hint
        self.bind = bind
        self.preload = preload
        self.itemset = itemset
        self.leftOut = leftOut
        self.repeat = `repeat`
        self.line = line
    }

    /// The appearance's space-separated words.
    public var appearances: [String] {
        appearance?.split(separator: " ").map(String.init) ?? []
    }
}

/// A repeat: the item list its node stands for, and what sets its count.
public struct XFormRepeat: Codable, Sendable, Hashable {
    /// The item list's name: its items' input names start with it (`members[0].age`).
    public var list: String
    /// `jr:count`: the number of items, evaluated per submission with the repeat's parent as
    /// context (the importer rewrites a path relative to the repeat to one from its parent).
    public var count: XFormExpression?
    /// Whether people add and remove items: false with `jr:count` or `jr:noAddRemove="true()"`.
    public var addRemove: Bool

    public init(list: String, count: XFormExpression? = nil, addRemove: Bool = true) {
        self.list = list
        self.count = count
        self.addRemove = addRemove
    }
}

/// What a `<bind>` says of its node: raw expressions, each with where it is written, and the
/// form's own messages.
public struct XFormBind: Codable, Sendable, Hashable {
    /// 1-based line of the `<bind>` (of the last one, when several name the node).
    public var line: Int
    public var relevant: XFormExpression?
    public var required: XFormExpression?
    public var readonly: XFormExpression?
    /// Evaluated with `.` = the node, only when it is relevant and non-empty.
    public var constraint: XFormExpression?
    public var calculate: XFormExpression?
    /// `jr:constraintMsg`: shown when the constraint fails.
    public var constraintMessage: XFormText?
    /// `jr:requiredMsg`: shown when a required answer is missing.
    public var requiredMessage: XFormText?

    public init(
        line: Int, relevant: XFormExpression? = nil, required: XFormExpression? = nil,
        readonly: XFormExpression? = nil, constraint: XFormExpression? = nil, calculate: XFormExpression? = nil,
        constraintMessage: XFormText? = nil, requiredMessage: XFormText? = nil
    ) {
        self.line = line
        self.relevant = relevant
        self.required = required
        self.readonly = readonly
        self.constraint = constraint
        self.calculate = calculate
        self.constraintMessage = constraintMessage
        self.requiredMessage = requiredMessage
    }

    /// Whether an expression is the constant `true()` (as `required` and `readonly` nearly always are).
    public static func isTrue(_ expression: XFormExpression?) -> Bool {
        guard let source = expression?.source else { return false }
        let compact = source.filter { !$0.isWhitespace }
        return compact == "true()"
    }
}

/// `jr:preload="timestamp" jr:preloadParams="start"`: a value the client (here, the server) fills in.
public struct XFormPreload: Codable, Sendable, Hashable {
    /// `uid`, `timestamp`, `date`, `property`, `patient`, `user`...
    public var preload: String
    /// `start`, `end`, `today`, `username`, `email`, `deviceid`...
    public var params: String?

    public init(preload: String, params: String? = nil) {
        self.preload = preload
        self.params = params
    }
}

/// The options of a select from a secondary instance:
/// `<itemset nodeset="instance('cities')/root/item[country = /data/country]">`.
public struct XFormItemset: Codable, Sendable, Hashable {
    /// The nodeset, raw, with any filter (a choice filter reads other answers).
    public var nodeset: XFormExpression
    /// The instance the nodeset starts from (`instance('cities')`), when it does.
    public var instance: String?
    /// The `value ref`, relative to an item (`name`).
    public var value: String
    /// The `label ref`, relative to an item (`label`); nil when the label comes from itext.
    public var label: String?
    /// The argument of `label ref="jr:itext(itextId)"`, relative to an item: each item's itext id.
    public var labelItext: String?

    public init(
        nodeset: XFormExpression, instance: String? = nil, value: String, label: String? = nil,
        labelItext: String? = nil
    ) {
        self.nodeset = nodeset
        self.instance = instance
        self.value = value
        self.label = label
        self.labelItext = labelItext
    }
}
