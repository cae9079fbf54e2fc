import FormModel
import Foundation
import NIOCore

/// A page rendered once with sentinels in its per-request holes, split into static bytes and slots.
///
/// Serving it only walks the pieces: static bytes are copied, slots are filled from a
/// ``RenderState`` with every value escaped. No template engine runs per request.
public struct RenderPlan: Sendable {
    enum Piece: Sendable {
        case bytes([UInt8])
        case slot(Slot)
    }

    let pieces: [Piece]
    /// The error summary box, split the same way; emitted only when there are errors.
    let errorSummary: [Piece]
    /// Bytes of static markup, to reserve the response buffer in one go.
    let staticByteCount: Int

    init(pieces: [Piece], errorSummary: [Piece] = []) {
        self.pieces = pieces
        self.errorSummary = errorSummary
        self.staticByteCount = pieces.reduce(0) { sum, piece in
            if case .bytes(let bytes) = piece { return sum + bytes.count }
            return sum
        }
    }

    /// A plan without slots: the page is the same for every request.
    init(staticPage: String) {
        self.init(pieces: [.bytes(Array(staticPage.utf8))])
    }

    /// Splits rendered output at the registry's sentinels.
    static func split(_ rendered: String, registry: SlotRegistry) throws(RenderPlanError) -> [Piece] {
        let bytes = Array(rendered.utf8)
        let open = Array(String(HTML.sentinelOpen).utf8) + Array(registry.nonce.utf8)
        let close = Array(String(HTML.sentinelClose).utf8)
        var pieces: [Piece] = []
        var chunkStart = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == open[0], bytes[index...].starts(with: open) else {
                index += 1
                continue
            }
            var cursor = index + open.count
            var number = 0
            var digits = 0
            while cursor < bytes.count, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "9"), digits < 9 {
                number = number * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
                cursor += 1
                digits += 1
            }
            guard digits > 0, bytes[cursor...].starts(with: close), number < registry.slots.count else {
                throw RenderPlanError.malformedSentinel(offset: index)
            }
            if chunkStart < index { pieces.append(.bytes(Array(bytes[chunkStart..<index]))) }
            pieces.append(.slot(registry.slots[number]))
            index = cursor + close.count
            chunkStart = index
        }
        if chunkStart < bytes.count { pieces.append(.bytes(Array(bytes[chunkStart...]))) }
        // A sentinel character left over means escaping or a template mangled a sentinel.
        let stray = String(HTML.sentinelOpen).utf8.first!
        for case .bytes(let chunk) in pieces where chunk.contains(stray) {
            if String(decoding: chunk, as: UTF8.self).unicodeScalars.contains(where: {
                $0 == HTML.sentinelOpen || $0 == HTML.sentinelClose
            }) {
                throw RenderPlanError.strayCharacter
            }
        }
        return pieces
    }

    /// The page for one request.
    public func render(_ state: RenderState, allocator: ByteBufferAllocator = ByteBufferAllocator()) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: staticByteCount + 1024)
        write(pieces, state: state, to: &buffer)
        return buffer
    }

    private func write(_ pieces: [Piece], state: RenderState, to buffer: inout ByteBuffer) {
        for piece in pieces {
            switch piece {
            case .bytes(let bytes): buffer.writeBytes(bytes)
            case .slot(let slot): fill(slot, state: state, to: &buffer)
            }
        }
    }

    private func fill(_ slot: Slot, state: RenderState, to buffer: inout ByteBuffer) {
        switch slot {
        case .layoutClass:
            buffer.writeString(state.layout.htmlClass)
        case .titlePrefix:
            if !state.errors.isEmpty { buffer.writeStaticString("Error: ") }
        case .csrfToken:
            HTML.writeEscaped(state.csrfToken, to: &buffer)
        case .errorSummary:
            if !state.errors.isEmpty { write(errorSummary, state: state, to: &buffer) }
        case .errorItems:
            for error in state.errors {
                buffer.writeStaticString("<li><a href=\"#field-")
                HTML.writeEscaped(error.field, to: &buffer)
                buffer.writeStaticString("\">")
                HTML.writeEscaped(error.message, to: &buffer)
                buffer.writeStaticString("</a></li>")
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
                buffer.writeStaticString("<input type=\"hidden\" name=\"")
                HTML.writeEscaped(field, to: &buffer)
                buffer.writeStaticString("\" value=\"")
                HTML.writeEscaped(value, to: &buffer)
                buffer.writeStaticString("\">")
            }
        case .durationPart(let field, let part):
            writeValueAttribute(DurationValue.part(part, of: field, in: state), to: &buffer)
        case .fieldError(let field):
            if let error = state.error(for: field) {
                buffer.writeStaticString("<p class=\"fw-field__error\" id=\"field-")
                HTML.writeEscaped(field, to: &buffer)
                buffer.writeStaticString(
                    "-error\"><span class=\"fw-field__error-icon\" aria-hidden=\"true\"></span><span class=\"fw-visually-hidden\">Error: </span>"
                )
                HTML.writeEscaped(error.message, to: &buffer)
                buffer.writeStaticString("</p>")
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
                buffer.writeStaticString("<input type=\"hidden\" name=\"")
                buffer.writeString(SignedPrefill.fieldName)
                buffer.writeStaticString("\" value=\"")
                HTML.writeEscaped(seal, to: &buffer)
                buffer.writeStaticString("\">")
            }
        case .files(let field):
            FileListMarkup.writeKept(state.files[field] ?? [], field: field, state: state, to: &buffer)
        case .displayValue(let field):
            if let files = state.files[field], !files.isEmpty {
                FileListMarkup.writeShown(files, state: state, to: &buffer)
            } else if let text = state.display[field] {
                HTML.writeEscaped(text, to: &buffer)
                if let items = state.displayItems[field] {
                    // A native disclosure: the whole list is there without JavaScript.
                    buffer.writeStaticString("<details class=\"fw-detail__more\"><summary>Show all ")
                    buffer.writeString(String(items.count))
                    buffer.writeStaticString("</summary><ul class=\"fw-detail__items\">")
                    for item in items {
                        buffer.writeStaticString("<li>")
                        HTML.writeEscaped(item, to: &buffer)
                        buffer.writeStaticString("</li>")
                    }
                    buffer.writeStaticString("</ul></details>")
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
                buffer.writeStaticString("<li class=\"fw-list__item\"><a class=\"fw-list__link\" href=\"")
                HTML.writeEscaped(item.href, to: &buffer)
                buffer.writeStaticString("\">")
                HTML.writeEscaped(item.text, to: &buffer)
                buffer.writeStaticString("</a></li>")
            }
        case .accountBar:
            if let name = state.accountName {
                if state.isAdmin {
                    buffer.writeStaticString("<a class=\"fw-page-header__admin\" href=\"/admin\">Admin</a>")
                }
                buffer.writeStaticString("<form class=\"fw-account\" method=\"post\" action=\"/logout\"><span class=\"fw-account__name\">")
                HTML.writeEscaped(name, to: &buffer)
                buffer.writeStaticString("</span><input type=\"hidden\" name=\"_csrf\" value=\"")
                HTML.writeEscaped(state.csrfToken, to: &buffer)
                buffer.writeStaticString("\"><button class=\"fw-account__button\" type=\"submit\">Sign out</button></form>")
            } else {
                buffer.writeStaticString("<a class=\"fw-page-header__back\" href=\"/login\">Sign in</a>")
            }
        case .pager:
            guard state.newerPage != nil || state.olderPage != nil else { break }
            buffer.writeStaticString("<nav class=\"fw-pager\" aria-label=\"More\">")
            if let newer = state.newerPage {
                buffer.writeStaticString("<a class=\"fw-pager__link\" rel=\"prev\" href=\"")
                HTML.writeEscaped(newer, to: &buffer)
                buffer.writeStaticString("\">Newer</a>")
            }
            if let older = state.olderPage {
                buffer.writeStaticString("<a class=\"fw-pager__link fw-pager__link--older\" rel=\"next\" href=\"")
                HTML.writeEscaped(older, to: &buffer)
                buffer.writeStaticString("\">Older</a>")
            }
            buffer.writeStaticString("</nav>")
        case .listEmpty(let text):
            if state.listItems.isEmpty {
                buffer.writeStaticString("<p class=\"fw-list__empty\">")
                HTML.writeEscaped(text, to: &buffer)
                buffer.writeStaticString("</p>")
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
public enum RenderPlanError: Error, Hashable {
    case malformedSentinel(offset: Int)
    case strayCharacter
    case missingTemplate(String)
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
