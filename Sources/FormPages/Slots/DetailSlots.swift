/// The slots of an object's detail page: each field's value for people, and the rows and groups
/// hidden when they have nothing to show.
enum DetailSlots {
    /// A value formatted for people; an attachments field's files as tiles.
    struct Value: Slot {
        let field: String

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            if let files = state.files[field], !files.isEmpty {
                FileListMarkup.writeShown(files, state: state, markup: markup, to: &buffer)
            } else if let text = state.display[field] {
                HTML.writeEscaped(text, to: &buffer)
                guard let items = state.displayItems[field] else { return }
                markup.moreItems.write(to: &buffer) { part, buffer in
                    switch part {
                    case .count: buffer.writeString(String(items.count))
                    case .items:
                        for item in items { markup.moreItem.write(to: &buffer) { $0 == .text ? item : nil } }
                    default: break
                    }
                }
            }
        }
    }

    /// ` hidden` on a row whose field has no value.
    struct RowHidden: Slot {
        let field: String

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            if !state.hasDisplayValue(field) { markup.hidden.write(to: &buffer) }
        }
    }

    /// ` hidden` on a group none of whose fields has a value.
    struct GroupHidden: Slot {
        let fields: [String]

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            if !fields.contains(where: state.hasDisplayValue) { markup.hidden.write(to: &buffer) }
        }
    }
}
