import FormModel

/// An item list on the detail page: its label and count, then a table with a column for each
/// of an item's fields and lists (a list within an item reads "2 doses", files show as the
/// page's own do), a row an item; at compact width the stylesheet stacks each row, each value
/// under its column's name. The values are the request's display texts and files by their
/// page names (`members[0].age`), as the detail page's own fields are.
struct ItemTableSlot: Slot {
    let list: ItemList

    func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
        let count = state.itemCounts[list.name] ?? 0
        // Every field of an item, a switch's children after it, then its lists.
        let columns =
            list.fields.flatMap { [$0] + ($0.children ?? []) }.map { ($0.name, $0.displayName) }
            + list.lists.map { ($0.name, $0.label) }
        markup.itemTable.write(to: &buffer) { part, buffer in
            switch part {
            case .text: HTML.writeEscaped(list.label, to: &buffer)
            case .count: buffer.writeString(String(count))
            case .items where count == 0:
                markup.itemTableNone.write(to: &buffer) { $0 == .text ? "No \(list.pluralNoun)" : nil }
            case .items:
                markup.itemTableRows.write(to: &buffer) { part, buffer in
                    switch part {
                    case .label:
                        for (_, label) in columns {
                            markup.itemTableHead.write(to: &buffer) { $0 == .text ? label : nil }
                        }
                    case .items:
                        for index in 0..<count {
                            let path = ItemList.itemPath(list.name, index, in: nil)
                            markup.itemTableRow.write(to: &buffer) { part, buffer in
                                guard part == .items else { return }
                                for (name, label) in columns {
                                    markup.itemTableCell.write(to: &buffer) { part, buffer in
                                        switch part {
                                        case .label: HTML.writeEscaped(label, to: &buffer)
                                        case .text:
                                            // An attachments field's files as on the page's own: tiles linking to them.
                                            if let files = state.files["\(path).\(name)"], !files.isEmpty {
                                                FileListMarkup.writeShown(
                                                    files, state: state, markup: markup, to: &buffer)
                                            } else {
                                                HTML.writeEscaped(state.display["\(path).\(name)"] ?? "", to: &buffer)
                                            }
                                        default: break
                                        }
                                    }
                                }
                            }
                        }
                    default: break
                    }
                }
            default: break
            }
        }
    }
}
