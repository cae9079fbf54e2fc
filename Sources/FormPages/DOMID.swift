/// The ids of a page's elements that other elements name: a label's `for`, `aria-describedby`,
/// the error summary's links, a script's lookups. Spelled here only; templates get them from
/// their contexts and slots (`{{id}}`, `{{hintID}}`, `{{errorID}}`), never by adding a suffix.
public enum DOMID {
    /// A field's control, or the first option of its radios or checkboxes: `field-<name>`. The
    /// error summary links here (``link(_:)``).
    public static func field(_ name: String) -> String { "field-" + name }

    /// The link to a field's control from the error summary: `#field-<name>`.
    public static func link(_ name: String) -> String { "#" + field(name) }

    /// A field's hint, which its control names in `aria-describedby`.
    public static func hint(_ name: String) -> String { hint(of: field(name)) }

    /// A field's error message under its cell, which its control names while it shows.
    public static func error(_ name: String) -> String { error(of: field(name)) }

    /// The hint of the control whose id is `id` (an admin page's `service-url`, say).
    public static func hint(of id: String) -> String { id + "-hint" }

    /// The error message of the control whose id is `id`.
    public static func error(of id: String) -> String { id + "-error" }

    /// A text field's count of characters ("up to 200 characters").
    public static func count(_ name: String) -> String { field(name) + "-count" }

    /// The option at `index` (from 1) of a choice whose options are in the page; the first
    /// option has the field's own id.
    public static func option(_ name: String, index: Int) -> String {
        index == 0 ? field(name) : field(name) + "-" + String(index)
    }

    /// The chosen value or search match at `index` (from 1) of a long value list.
    public static func listOption(_ name: String, index: Int) -> String {
        field(name) + "-option-" + String(index)
    }

    /// A stored choice its field no longer offers, at `index` (from 1), on the edit view.
    public static func keptOption(_ name: String, index: Int) -> String {
        field(name) + "-kept-" + String(index)
    }

    /// A long value list's title, which labels its group of options.
    public static func listTitle(_ name: String) -> String { field(name) + "-list" }

    /// A duration's minutes (its hours are the field's control).
    public static func minutes(_ name: String) -> String { field(name) + "-minutes" }

    /// A slider's range input, which a script shows beside the number.
    public static func range(_ name: String) -> String { field(name) + "-range" }

    /// An item list's section, by its path (`members`, `members[0].doses`): its heading is
    /// `<id>-label`, where focus goes after a removal.
    public static func items(_ path: String) -> String { "items-" + path }

    /// One item's fieldset, by its path (`members[1]`).
    public static func item(_ path: String) -> String { "item-" + path }
}

/// The ids of one control that a template of its own writes (the sign-in, password and admin
/// pages): `{{id}}`, `{{hintID}}`, `{{errorID}}`, and the error summary's `{{link}}`.
public struct ControlIDs: Sendable {
    public let id: String
    public let hintID: String
    public let errorID: String
    public let link: String

    /// The ids of a field's control (``DOMID/field(_:)``).
    public init(_ name: String) {
        self.init(id: DOMID.field(name))
    }

    /// The ids of the control whose id is `id`.
    public init(id: String) {
        self.id = id
        hintID = DOMID.hint(of: id)
        errorID = DOMID.error(of: id)
        link = "#" + id
    }
}
