/// The slots of a whole page: its layout, title, token and messages.
enum PageSlots {
    /// The class on `<html>` that picks the layout: `fw-layout-auto|compact|regular`.
    struct LayoutClass: Slot {
        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            buffer.writeString(state.layout.htmlClass)
        }
    }

    /// The media query of the regular-width stylesheet's `<link>` (``LayoutMode/regularMedia``).
    struct RegularMedia: Slot {
        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            buffer.writeString(state.layout.regularMedia)
        }
    }

    /// "Error: " before the page title when the form has errors, as screen readers hear the
    /// title first.
    struct TitlePrefix: Slot {
        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            if !state.errors.isEmpty { markup.titleError.write(to: &buffer) }
        }
    }

    /// The hidden `_csrf` input's value.
    struct CSRFToken: Slot {
        static var differsPerRequest: Bool { true }

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            HTML.writeEscaped(state.csrfToken, to: &buffer)
        }
    }

    /// The error summary box, with one link per error, or nothing.
    struct ErrorSummary: Slot {
        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            guard !state.errors.isEmpty else { return }
            markup.errorSummary.write(to: &buffer) { part, buffer in
                guard part == .items else { return }
                for error in state.errors {
                    (error.field.isEmpty ? markup.errorNote : markup.errorItem).write(to: &buffer) { part in
                        switch part {
                        case .href: DOMID.link(error.field)
                        case .message: error.item.map { "\($0): \(error.message)" } ?? error.message
                        default: nil
                        }
                    }
                }
            }
        }
    }

    /// The object's path, `/forms/{id}/{object}`: the edit form's action, the detail page's links.
    struct ObjectPath: Slot {
        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            HTML.writeEscaped(state.objectPath, to: &buffer)
        }
    }

    /// The object's key information as a heading.
    struct Heading: Slot {
        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            HTML.writeEscaped(state.heading, to: &buffer)
        }
    }

    /// A hidden input with a value the request gives, or nothing: a form's tokens.
    struct HiddenToken: Slot {
        enum Token: Hashable, Sendable {
            /// The signed values of read-only fields (a create view).
            case prefill
            /// The create view's one-time token.
            case once
            /// The draft the service keeps for this create.
            case draft
            /// The ETag of the service's object an edit view shows.
            case etag
        }

        let token: Token

        static var differsPerRequest: Bool { true }

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            let (name, value): (String, String?) =
                switch token {
                case .prefill: (InputName.prefill, state.prefillSeal)
                case .once: (InputName.once, state.submissionToken)
                case .draft: (InputName.draft, state.keptDraft)
                case .etag: (InputName.etag, state.serviceETag)
                }
            if let value { markup.writeHiddenInput(name: name, value: value, to: &buffer) }
        }
    }

    /// A create view's Cancel: a link back to the parent page, or, while the service keeps a
    /// draft of this create, a button that sends the form to `discard`, which discards the draft
    /// first (`../shared/spec/odata-service.md`, "Drafts").
    struct CreateCancel: Slot {
        let home: String
        let discard: String

        static var differsPerRequest: Bool { true }

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            if state.keptDraft != nil {
                markup.cancelDraft.write(to: &buffer) { part in
                    switch part {
                    case .href: discard
                    case .name: InputName.discard
                    default: nil
                    }
                }
            } else {
                markup.cancelLink.write(to: &buffer) { part in part == .href ? home : nil }
            }
        }
    }

    /// "Sign in", or the account's name with a Sign out button (and the admin page's link).
    struct AccountBar: Slot {
        static var differsPerRequest: Bool { true }

        func write(_ state: RenderState, _ markup: SlotMarkup, to buffer: inout PageBuffer) {
            guard let name = state.accountName else {
                markup.signIn.write(to: &buffer)
                return
            }
            markup.account.write(to: &buffer) { part, buffer in
                switch part {
                case .adminLink: if state.isAdmin { markup.adminLink.write(to: &buffer) }
                case .name: HTML.writeEscaped(name, to: &buffer)
                case .csrf: HTML.writeEscaped(state.csrfToken, to: &buffer)
                default: break
                }
            }
        }
    }
}
