/// An XPath 1.0 expression as `XPathParser` reads it (W3C XPath 1.0, sections 2 and 3).
/// Parentheses are not kept: the tree's shape says what they grouped, and `text` puts back the
/// ones precedence needs. Abbreviations are expanded (`.` is `self::node()`, `..`
/// `parent::node()`, `@a` `attribute::a`, `//` a `descendant-or-self::node()` step), so that
/// two spellings of one path are one tree.
indirect enum XPathExpression: Hashable, Sendable {
    /// `left op right`, for every binary operator from `or` to `|`.
    case binary(XPathOperator, XPathExpression, XPathExpression)
    /// Unary minus.
    case negate(XPathExpression)
    /// A string literal: its value, without the quotes.
    case string(String)
    /// A number literal as written (`12`, `365.25`, `.5`), so that printing gives back its digits.
    case number(String)
    /// A function call.
    case function(XPathFunction)
    /// A location path, absolute or relative, or steps after a filter expression
    /// (`instance('x')/root/item`).
    case path(XPathPath)
    /// A primary expression with predicates: `instance('x')[1]`, `(a | b)[last()]`.
    case filter(XPathExpression, predicates: [XPathExpression])
}

/// The binary operators, by the grammar's precedence (XPath 1.0 section 3: `or` binds loosest,
/// `|` tightest); all are left-associative.
enum XPathOperator: String, Hashable, Sendable, CaseIterable {
    case or
    case and
    case equal = "="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case plus = "+"
    case minus = "-"
    case multiply = "*"
    case div
    case mod
    case union = "|"

    /// 1 (`or`) to 8 (`|`); unary minus is 7, between `*` and `|`.
    var precedence: Int {
        switch self {
        case .or: 1
        case .and: 2
        case .equal, .notEqual: 3
        case .less, .lessOrEqual, .greater, .greaterOrEqual: 4
        case .plus, .minus: 5
        case .multiply, .div, .mod: 6
        case .union: 8
        }
    }

    /// The operators whose operands XPath converts to numbers, and whose date operands the typed
    /// rewrite turns into days (`=` and `!=` compare strings when a side is a string, so they stay).
    var isNumeric: Bool {
        switch self {
        case .less, .lessOrEqual, .greater, .greaterOrEqual, .plus, .minus, .multiply, .div, .mod: true
        case .or, .and, .equal, .notEqual, .union: false
        }
    }
}
