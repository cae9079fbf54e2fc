/// Markup a slot writes per request, from a small template in `Templates/slots/`: rendered once
/// with a sentinel for each `{{part}}`, then split like a plan, so writing it copies static bytes
/// and fills its parts. A slot writes a fragment once per item (a file, an error), or only when
/// the request calls for it (the sign-out form, the pager).
struct Fragment: Sendable {
    let chunks: [Chunk<Part>]

    /// A hole in a fragment, by the name its template uses (`{{field}}`).
    enum Part: String, Hashable, Sendable {
        /// A field's name.
        case field
        /// An error message.
        case message
        /// An input's name, a file's name, an account's name.
        case name
        /// An input's value.
        case value
        /// Items written in place: the error summary's errors, a list's files or entries.
        case items
        /// A file's thumbnail or type icon.
        case thumbnail
        /// A file's size.
        case size
        /// A file's id.
        case id
        /// The name of the checkbox that keeps a file (`NAME._kept`).
        case keptName
        /// Where a file is served.
        case url
        /// The kind of a file's icon: `pdf`, `csv`, `file`.
        case icon
        /// When a detail page's files were added, or the markup saying so.
        case date
        /// How many items a list has.
        case count
        /// Text: a list entry's, an empty list's.
        case text
        /// A link's target.
        case href
        /// The link to the admin page, for admins.
        case adminLink
        /// The CSRF token of a form in the fragment.
        case csrf
        /// An input's type: `radio` or `checkbox`.
        case type
        /// ` checked`, or nothing.
        case checked
        /// The links to the newer and older pages of a list.
        case newer
        case older
        /// The ids of what describes a field (`aria-describedby`).
        case ids
        /// The id of a field's error message.
        case errorID
        /// An item's place in its list, from 1.
        case index
        /// What was searched for.
        case query
        /// How many there are in all.
        case total
        /// A button's text ("Add member").
        case label
        /// ` hidden` on an element whose questions do not apply (an XForm's `relevant`), or nothing.
        case hidden
        /// The buttons acting on a list (Add), or nothing when people do not add to it.
        case actions
    }

    /// Writes the fragment; `part` writes each part (escaped text, or another fragment).
    func write(to buffer: inout PageBuffer, _ part: (Part, inout PageBuffer) -> Void) {
        for chunk in chunks {
            switch chunk {
            case .bytes(let bytes): buffer.writeBytes(bytes)
            case .hole(let hole): part(hole, &buffer)
            }
        }
    }

    /// Writes a fragment without parts.
    func write(to buffer: inout PageBuffer) {
        write(to: &buffer) { _, _ in }
    }

    /// Writes the fragment with its parts as escaped text; `text` gives each part's text, or nil.
    func write(to buffer: inout PageBuffer, text: (Part) -> String?) {
        write(to: &buffer) { part, buffer in
            if let value = text(part) { HTML.writeEscaped(value, to: &buffer) }
        }
    }
}
