import FormModel

/// An item list on the detail page: its label and count, then a table with a column for each
/// of an item's fields and lists, a row an item; a list within an item is a table of its own in
/// the item's cell ("No doses" when it has none), files show as the page's own do. At compact
/// width the stylesheet stacks each row, each value under its column's name. The values are the
/// request's display texts and files by their page names (`members[0].age`,
/// `members[0].doses[1].given`), as the detail page's own fields are.
struct ItemTableSlot: Slot {
    let list: ItemList

    func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
        let count = state.itemCounts[list.name] ?? 0
        markup.itemTable.write(to: &buffer) { part, buffer in
            switch part {
            case .text: HTML.writeEscaped(list.label, to: &buffer)
            case .count: buffer.writeString(String(count))
            case .items: Self.writeItems(of: list, parent: nil, state, markup, to: &buffer)
            default: break
            }
        }
    }

    /// The table of a list's items (the list at `parent`'s item, or the form's), or "No members".
    private static func writeItems(
        of list: ItemList, parent: String?, _ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer
    ) {
        let count = state.itemCounts[parent.map { "\($0).\(list.name)" } ?? list.name] ?? 0
        guard count > 0 else {
            markup.itemTableNone.write(to: &buffer) { $0 == .text ? "No \(list.pluralNoun)" : nil }
            return
        }
        // Every field of an item, a switch's children after it, then its lists.
        let fields = list.fields.flatMap { [$0] + ($0.children ?? []) }
        markup.itemTableRows.write(to: &buffer) { part, buffer in
            switch part {
            case .label:
                for label in fields.map(\.displayName) + list.lists.map(\.label) {
                    markup.itemTableHead.write(to: &buffer) { $0 == .text ? label : nil }
                }
            case .items:
                for index in 0..<count {
                    let path = ItemList.itemPath(list.name, index, in: parent)
                    markup.itemTableRow.write(to: &buffer) { part, buffer in
                        guard part == .items else { return }
                        for field in fields {
                            cell(field.displayName, markup, to: &buffer) { buffer in
                                // An attachments field's files as on the page's own: tiles linking to them.
                                if let files = state.files["\(path).\(field.name)"], !files.isEmpty {
                                    FileListMarkup.writeShown(files, state: state, markup: markup, to: &buffer)
                                } else {
                                    HTML.writeEscaped(state.display["\(path).\(field.name)"] ?? "", to: &buffer)
                                }
                            }
                        }
                        for inner in list.lists {
                            cell(inner.label, markup, to: &buffer) { buffer in
                                writeItems(of: inner, parent: path, state, markup, to: &buffer)
                            }
                        }
                    }
                }
            default: break
            }
        }
    }

    private static func cell(
        _ label: String, _ markup: SlotMarkup, to buffer: inout PageBuffer, _ content: (inout PageBuffer) -> Void
    ) {
        markup.itemTableCell.write(to: &buffer) { part, buffer in
            switch part {
            case .label: HTML.writeEscaped(label, to: &buffer)
            case .text: content(&buffer)
            default: break
            }
        }
    }
}
