import FormModel
import Foundation
import NIOCore

/// A page rendered once with sentinels in its per-request holes, split into static bytes and slots.
///
/// Serving it only walks the pieces: static bytes are copied, slots are filled from a
/// ``RenderState`` with every value escaped, and markup a slot adds comes from the fragments
/// of ``SlotMarkup``. No template engine runs per request.
package struct RenderPlan: Sendable {
    /// Every static byte of the page, in order: the slots sit between them.
    let bytes: [UInt8]
    /// The page as runs of static bytes, each followed by a slot or by nothing (the last).
    let segments: [Segment]
    /// The slots, by the index a segment names.
    let slots: [any Slot]
    /// What the slots write besides values: error messages, files, list items.
    let markup: SlotMarkup

    /// Static bytes up to `end` (from the previous segment's end), then slot `slot` (-1: none).
    /// Plain integers, so that walking the page retains and copies nothing.
    struct Segment: Sendable {
        let end: Int
        let slot: Int
    }

    init(pieces: [Chunk<PlanSlot>], markup: SlotMarkup) {
        var bytes: [UInt8] = []
        var segments: [Segment] = []
        var slots: [any Slot] = []
        for piece in pieces {
            switch piece {
            case .bytes(let chunk): bytes += chunk
            case .hole(let hole):
                segments.append(Segment(end: bytes.count, slot: slots.count))
                slots.append(hole.slot)
            }
        }
        segments.append(Segment(end: bytes.count, slot: -1))
        self.bytes = bytes
        self.segments = segments
        self.slots = slots
        self.markup = markup
    }

    /// A plan without slots: the page is the same for every request.
    init(staticPage: String, markup: SlotMarkup) {
        self.init(pieces: [.bytes(Array(staticPage.utf8))], markup: markup)
    }

    /// The plan with every slot that writes the same for the same values (and layout) filled in
    /// from `state`: what is left is the slots that differ per request (the tokens). A create
    /// view shown with its initial values, as nearly every one is, is then a copy of static
    /// bytes and a few tokens.
    func specialized(for state: RenderState) -> RenderPlan {
        var page = PageBuffer(capacity: bytes.count + 1024)
        var segments: [Segment] = []
        var slots: [any Slot] = []
        var start = 0
        for segment in self.segments {
            page.writeBytes(bytes[start..<segment.end])
            start = segment.end
            guard segment.slot >= 0 else { continue }
            let slot = self.slots[segment.slot]
            if type(of: slot).differsPerRequest {
                segments.append(Segment(end: page.bytes.count, slot: slots.count))
                slots.append(slot)
            } else {
                slot.write(state, markup, to: &page)
            }
        }
        segments.append(Segment(end: page.bytes.count, slot: -1))
        return RenderPlan(bytes: page.bytes, segments: segments, slots: slots, markup: markup)
    }

    private init(bytes: [UInt8], segments: [Segment], slots: [any Slot], markup: SlotMarkup) {
        self.bytes = bytes
        self.segments = segments
        self.slots = slots
        self.markup = markup
    }

    /// Writes the plan into a page being written (an item's plan into its list's slot).
    func write(_ state: RenderState, to page: inout PageBuffer) {
        var start = 0
        for segment in segments {
            page.writeBytes(bytes[start..<segment.end])
            start = segment.end
            if segment.slot >= 0 { slots[segment.slot].write(state, markup, to: &page) }
        }
    }

    /// Plans with at most this many slots write their static bytes straight into the body.
    static let directSlots = 16

    /// The page for one request.
    /// - Parameter direct: how to write it (tests compare both); by default, straight into the
    ///   body when the plan has few slots.
    package func render(
        _ state: RenderState, allocator: ByteBufferAllocator = ByteBufferAllocator(), direct: Bool? = nil
    ) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: bytes.count + 1024)
        if direct ?? (slots.count <= Self.directSlots) {
            // A fresh view's specialised plan or a static page: a few long runs of static bytes,
            // copied once, into the body; each slot writes into a small scratch buffer first.
            var scratch = PageBuffer(capacity: 512)
            bytes.withUnsafeBytes { all in
                var start = 0
                for segment in segments {
                    buffer.writeBytes(UnsafeRawBufferPointer(rebasing: all[start..<segment.end]))
                    start = segment.end
                    guard segment.slot >= 0 else { continue }
                    scratch.removeAll()
                    slots[segment.slot].write(state, markup, to: &scratch)
                    scratch.bytes.withUnsafeBytes { buffer.writeBytes($0) }
                }
            }
        } else {
            // Many slots, each a few short writes: into an array first, where a write costs no
            // run-time exclusivity check (a ByteBuffer's does), then into the body in one copy.
            var page = PageBuffer(capacity: bytes.count + 1024)
            var start = 0
            for segment in segments {
                page.writeBytes(bytes[start..<segment.end])
                start = segment.end
                if segment.slot >= 0 { slots[segment.slot].write(state, markup, to: &page) }
            }
            // As raw bytes: one copy (`writeBytes` of an array went byte by byte).
            page.bytes.withUnsafeBytes { buffer.writeBytes($0) }
        }
        return buffer
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
