/// The slots of a form's parent page: its list of objects, a page at a time.
enum ListSlots {
    /// The list items.
    struct Items: Slot {
        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            for item in state.listItems {
                markup.listItem.write(to: &buffer) { part in
                    switch part {
                    case .href: item.href
                    case .text: item.text
                    default: nil
                    }
                }
            }
        }
    }

    /// The empty-state paragraph, when the list is empty.
    struct Empty: Slot {
        let text: String

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            if state.listItems.isEmpty { markup.listEmpty.write(to: &buffer) { $0 == .text ? text : nil } }
        }
    }

    /// Links to the newer and older pages of the list, when there are more.
    struct Pager: Slot {
        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            guard state.newerPage != nil || state.olderPage != nil else { return }
            markup.pager.write(to: &buffer) { part, buffer in
                switch part {
                case .newer:
                    if let newer = state.newerPage {
                        markup.pagerNewer.write(to: &buffer) { $0 == .href ? newer : nil }
                    }
                case .older:
                    if let older = state.olderPage {
                        markup.pagerOlder.write(to: &buffer) { $0 == .href ? older : nil }
                    }
                default: break
                }
            }
        }
    }
}
