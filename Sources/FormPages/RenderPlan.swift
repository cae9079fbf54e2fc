import FormModel
import Foundation
import NIOCore

/// A page rendered once with sentinels in its per-request holes, split into static bytes and slots.
///
/// Serving it only walks the pieces: static bytes are copied, slots are filled from a
/// ``RenderState`` with every value escaped, and markup a slot adds comes from the fragments
/// of ``SlotMarkup``. No template engine runs per request.
package struct RenderPlan: Sendable {
    typealias Piece = Chunk<Slot>

    let pieces: [Piece]
    /// What the slots write besides values: error messages, files, list items.
    let markup: SlotMarkup
    /// Bytes of static markup, to reserve the response buffer in one go.
    let staticByteCount: Int

    init(pieces: [Piece], markup: SlotMarkup) {
        self.pieces = pieces
        self.markup = markup
        self.staticByteCount = pieces.reduce(0) { sum, piece in
            if case .bytes(let bytes) = piece { return sum + bytes.count }
            return sum
        }
    }

    /// A plan without slots: the page is the same for every request.
    init(staticPage: String, markup: SlotMarkup) {
        self.init(pieces: [.bytes(Array(staticPage.utf8))], markup: markup)
    }

    /// The page for one request.
    package func render(_ state: RenderState, allocator: ByteBufferAllocator = ByteBufferAllocator()) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: staticByteCount + 1024)
        for piece in pieces {
            switch piece {
            case .bytes(let bytes): buffer.writeBytes(bytes)
            case .hole(let slot): fill(slot, state: state, to: &buffer)
            }
        }
        return buffer
    }

    private func fill(_ slot: Slot, state: RenderState, to buffer: inout ByteBuffer) {
        switch slot {
        case .layoutClass:
            buffer.writeString(state.layout.htmlClass)
        case .regularMedia:
            buffer.writeString(state.layout.regularMedia)
        case .titlePrefix:
            if !state.errors.isEmpty { buffer.writeStaticString("Error: ") }
        case .csrfToken:
            HTML.writeEscaped(state.csrfToken, to: &buffer)
        case .errorSummary:
            guard !state.errors.isEmpty else { break }
            markup.errorSummary.write(to: &buffer) { part, buffer in
                guard part == .items else { return }
                for error in state.errors {
                    markup.errorItem.write(to: &buffer) { part in
                        switch part {
                        case .field: error.field
                        case .message: error.message
                        default: nil
                        }
                    }
                }
            }
        case .value(let field):
            writeValueAttribute(state.firstValue(field), to: &buffer)
        case .text(let field):
            if let text = state.firstValue(field) {
                // The HTML parser drops one newline right after <textarea>; keep a leading one.
                if text.hasPrefix("\n") || text.hasPrefix("\r") { buffer.writeStaticString("\n") }
                HTML.writeEscaped(text, to: &buffer)
            }
        case .checked(let field, let option):
            if state.values[field]?.contains(option) == true { buffer.writeStaticString(" checked") }
        case .selected(let field, let option):
            if state.values[field]?.contains(option) == true { buffer.writeStaticString(" selected") }
        case .switchOn(let field):
            if let value = state.firstValue(field), SwitchValue.isOn(value) { buffer.writeStaticString(" checked") }
        case .hiddenValues(let field):
            for value in state.values[field] ?? [] where !value.isEmpty {
                writeHiddenInput(name: field, value: value, to: &buffer)
            }
        case .durationPart(let field, let part):
            writeValueAttribute(DurationValue.part(part, of: field, in: state), to: &buffer)
        case .fieldError(let field):
            if let error = state.error(for: field) {
                markup.fieldError.write(to: &buffer) { part in
                    switch part {
                    case .field: field
                    case .message: error.message
                    default: nil
                    }
                }
            }
        case .invalid(let field):
            if state.error(for: field) != nil { buffer.writeStaticString(" aria-invalid=\"true\"") }
        case .describedBy(let field, let ids):
            let hasError = state.error(for: field) != nil
            guard hasError || !ids.isEmpty else { return }
            buffer.writeStaticString(" aria-describedby=\"")
            HTML.writeEscaped(ids.joined(separator: " "), to: &buffer)
            if hasError {
                if !ids.isEmpty { buffer.writeStaticString(" ") }
                buffer.writeStaticString("field-")
                HTML.writeEscaped(field, to: &buffer)
                buffer.writeStaticString("-error")
            }
            buffer.writeStaticString("\"")
        case .cellState(let field):
            if state.error(for: field) != nil { buffer.writeStaticString(" fw-cell--error") }
        case .objectPath:
            HTML.writeEscaped(state.objectPath, to: &buffer)
        case .prefillSeal:
            if let seal = state.prefillSeal {
                writeHiddenInput(name: InputName.prefill, value: seal, to: &buffer)
            }
        case .submissionToken:
            if let token = state.submissionToken {
                writeHiddenInput(name: InputName.once, value: token, to: &buffer)
            }
        case .files(let field):
            FileListMarkup.writeKept(state.files[field] ?? [], field: field, state: state, markup: markup, to: &buffer)
        case .displayValue(let field):
            if let files = state.files[field], !files.isEmpty {
                FileListMarkup.writeShown(files, state: state, markup: markup, to: &buffer)
            } else if let text = state.display[field] {
                HTML.writeEscaped(text, to: &buffer)
                if let items = state.displayItems[field] {
                    markup.moreItems.write(to: &buffer) { part, buffer in
                        switch part {
                        case .count: buffer.writeString(String(items.count))
                        case .items:
                            for item in items {
                                markup.moreItem.write(to: &buffer) { $0 == .text ? item : nil }
                            }
                        default: break
                        }
                    }
                }
            }
        case .displayHidden(let field):
            if !state.hasDisplayValue(field) { buffer.writeStaticString(" hidden") }
        case .displayGroupHidden(let fields):
            if !fields.contains(where: state.hasDisplayValue) { buffer.writeStaticString(" hidden") }
        case .heading:
            HTML.writeEscaped(state.heading, to: &buffer)
        case .listItems:
            for item in state.listItems {
                markup.listItem.write(to: &buffer) { part in
                    switch part {
                    case .href: item.href
                    case .text: item.text
                    default: nil
                    }
                }
            }
        case .accountBar:
            guard let name = state.accountName else {
                markup.signIn.write(to: &buffer) { _ in nil }
                break
            }
            markup.account.write(to: &buffer) { part, buffer in
                switch part {
                case .adminLink: if state.isAdmin { markup.adminLink.write(to: &buffer) { _ in nil } }
                case .name: HTML.writeEscaped(name, to: &buffer)
                case .csrf: HTML.writeEscaped(state.csrfToken, to: &buffer)
                default: break
                }
            }
        case .pager:
            guard state.newerPage != nil || state.olderPage != nil else { break }
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
        case .listEmpty(let text):
            if state.listItems.isEmpty { markup.listEmpty.write(to: &buffer) { $0 == .text ? text : nil } }
        case .longList(let field, let several, let labels):
            writeLongList(field, several: several, labels: labels, state: state, to: &buffer)
        case .noLongerOffered(let field, let control):
            writeNoLongerOffered(field, control: control, state: state, to: &buffer)
        }
    }

    /// The object's stored choices that the field no longer offers, chosen while the submitted
    /// values hold them, labelled so that nobody takes them for current options.
    private func writeNoLongerOffered(
        _ field: String, control: KeptChoiceControl, state: RenderState, to buffer: inout ByteBuffer
    ) {
        for (index, value) in (state.noLongerOffered[field] ?? []).enumerated() {
            let chosen = state.values[field]?.contains(value) == true
            let fragment = control == .option ? markup.keptOption : markup.choiceOption
            fragment.write(to: &buffer) { part, buffer in
                switch part {
                case .type: buffer.writeStaticString(control == .checkbox ? "checkbox" : "radio")
                case .id: HTML.writeEscaped("field-\(field)-kept-\(index + 1)", to: &buffer)
                case .name: HTML.writeEscaped(field, to: &buffer)
                case .value: HTML.writeEscaped(value, to: &buffer)
                case .checked:
                    if chosen { buffer.writeStaticString(control == .option ? " selected" : " checked") }
                case .text: HTML.writeEscaped("\(value) (no longer offered)", to: &buffer)
                default: break
                }
            }
        }
    }

    /// A long list's chosen values (checked), then the matches of its search not among them.
    private func writeLongList(
        _ field: String, several: Bool, labels: OptionLabels, state: RenderState, to buffer: inout ByteBuffer
    ) {
        let chosen = (state.values[field] ?? []).filter { !$0.isEmpty }
        var options = chosen.map { (value: $0, label: labels.label(of: $0), checked: true) }
        let search = state.listSearches[field]
        for match in search?.matches ?? [] where !chosen.contains(match.value) {
            options.append((match.value, match.label, false))
        }
        for (index, option) in options.enumerated() {
            markup.choiceOption.write(to: &buffer) { part, buffer in
                switch part {
                case .type: buffer.writeString(several ? "checkbox" : "radio")
                case .id: HTML.writeEscaped("field-\(field)-option-\(index + 1)", to: &buffer)
                case .name: HTML.writeEscaped(field, to: &buffer)
                case .value: HTML.writeEscaped(option.value, to: &buffer)
                case .checked: if option.checked { buffer.writeStaticString(" checked") }
                case .text: HTML.writeEscaped(option.label, to: &buffer)
                default: break
                }
            }
        }
        if let search, search.matches.isEmpty {
            markup.noMatches.write(to: &buffer) {
                $0 == .text ? "Nothing matches “\(search.query)”; try fewer letters." : nil
            }
        } else if let search, search.total > search.matches.count {
            markup.noMatches.write(to: &buffer) {
                $0 == .text
                    ? "The first \(search.matches.count) of \(search.total) matches are shown; search with more letters to narrow them."
                    : nil
            }
        }
    }

    private func writeHiddenInput(name: String, value: String, to buffer: inout ByteBuffer) {
        markup.hiddenInput.write(to: &buffer) { part in
            switch part {
            case .name: name
            case .value: value
            default: nil
            }
        }
    }

    private func writeValueAttribute(_ value: String?, to buffer: inout ByteBuffer) {
        guard let value, !value.isEmpty else { return }
        buffer.writeStaticString(" value=\"")
        HTML.writeEscaped(value, to: &buffer)
        buffer.writeStaticString("\"")
    }
}

/// Why rendered output could not be split into a plan; a bug in a template or in escaping.
package enum RenderPlanError: Error, Hashable {
    case malformedSentinel(offset: Int)
    case strayCharacter
    case missingTemplate(String)
    /// A slot template names something that is no ``Fragment/Part``.
    case unknownPart(template: String, name: String)
}

/// How a switch's submitted or default value reads.
enum SwitchValue {
    static func isOn(_ value: String) -> Bool {
        value == "on" || value == "true"
    }
}

/// A duration's hours and minutes inputs, from their own values or split from the ISO value.
enum DurationValue {
    static func part(_ part: DurationPart, of field: String, in state: RenderState) -> String? {
        if let own = state.values["\(field).\(part.rawValue)"]?.first { return own }
        guard let iso = state.firstValue(field), let split = split(iso) else { return nil }
        return part == .hours ? String(split.hours) : String(split.minutes)
    }

    /// `PT1H30M` → (1, 30); days and weeks count as 24 and 168 hours; seconds are dropped.
    static func split(_ iso: String) -> (hours: Int, minutes: Int)? {
        guard let duration = ISODuration(iso) else { return nil }
        let minutes = NSDecimalNumber(decimal: duration.totalSeconds).intValue / 60
        return (minutes / 60, minutes % 60)
    }
}
