import Foundation

/// What an evaluation may ask of the form (its itext, its options' labels) and of the world
/// (the clock and the zone). FormXML knows no form model: the caller answers from its own.
public protocol XPathHost: Sendable {
    /// `jr:itext(id)`: the text `id` in the default language; nil when there is none ("" then).
    func itext(_ id: String) -> String?
    /// `jr:choice-name(node, 'ref')`: the label, in the default language, of the option whose
    /// value is `value` in the select bound at `selectRef`; nil when there is none ("" then).
    func choiceName(value: String, selectRef: String) -> String?
    /// The clock `today()` and `now()` read.
    var now: Date { get }
    /// The zone of `today()`, `now()`, dateTimes written without an offset, and of times shown.
    var timeZone: TimeZone { get }
}
