internal import CLibXML2
import Foundation

/// Builds a `LeanTree` from SAX events while libxml2 parses.
final class LeanBuilder {
    @exclusivity(unchecked) var elements: PlainBuffer<LeanTree.Element>
    @exclusivity(unchecked) var attributes: PlainBuffer<LeanTree.Attribute>
    @exclusivity(unchecked) var bytes: PlainBuffer<UInt8>

    /// An open element: what libxml2's tree builder would know of its children, so blank text is
    /// dropped exactly where `XML_PARSE_NOBLANKS` drops it.
    struct Open {
        var index: Int32
        var lastChild: Int32 = -1
        var hasChildNodes = false
        var firstChildIsText = false
        var lastChildIsText = false
        /// libxml2's `xml:space` state of the element: -1 default, 0 `default`, 1 `preserve`, -2 text seen.
        var space: Int32
    }
    @exclusivity(unchecked) var open: PlainBuffer<Open>

    init(capacity: Int) {
        // Room from the document size, so that the buffers seldom grow: growing copies them, and
        // memory reserved but never written costs next to nothing. Values and texts are parts of
        // the document, so `bytes` hardly ever needs more than its size; real EDMX files have an
        // element per 95–130 bytes and an attribute per 45–65.
        elements = PlainBuffer(capacity: capacity / 64)
        attributes = PlainBuffer(capacity: capacity / 32)
        bytes = PlainBuffer(capacity: capacity)
        open = PlainBuffer(capacity: 64)
    }

    deinit {
        elements.release()
        attributes.release()
        bytes.release()
        open.release()
    }

    func start(
        name: UnsafePointer<xmlChar>, uri: UnsafePointer<xmlChar>?, line: Int, space: Int32,
        attributeCount: Int, attributes values: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        let index = Int32(elements.count)
        if !open.isEmpty {
            let parent = open.count - 1
            let last = open[parent].lastChild
            if last < 0 {
                elements[Int(open[parent].index)].firstChild = index
            } else {
                elements[Int(last)].nextSibling = index
            }
            open[parent].lastChild = index
            childNode(isText: false)
        }
        let first = Int32(attributes.count)
        if let values {
            for i in 0..<attributeCount {
                // localname, prefix, URI, value, end of value.
                let base = values + 5 * i
                guard let attributeName = base[0], let valueStart = base[3], let valueEnd = base[4] else { continue }
                let value = UnsafeBufferPointer(start: valueStart, count: valueEnd - valueStart)
                let offset = bytes.count
                if value.count > 0 && memchr(valueStart, Int32(UInt8(ascii: "&")), value.count) != nil {
                    // Without entity substitution libxml2 hands over an `&` (from `&amp;` or
                    // `&#38;`) as `&#38;`, for its tree builder to read again; nothing else is left.
                    var i = 0
                    while i < value.count {
                        if value[i] == UInt8(ascii: "&"), i + 4 < value.count, value[i + 1] == UInt8(ascii: "#"),
                            value[i + 2] == UInt8(ascii: "3"),
                            value[i + 3] == UInt8(ascii: "8"), value[i + 4] == UInt8(ascii: ";")
                        {
                            bytes.append(UInt8(ascii: "&"))
                            i += 5
                        } else {
                            bytes.append(value[i])
                            i += 1
                        }
                    }
                } else {
                    bytes.append(contentsOf: value)
                }
                let length = bytes.count - offset
                bytes.append(0)
                attributes.append(
                    LeanTree.Attribute(
                        name: attributeName, uri: base[2], valueStart: Int32(offset), valueLength: Int32(length)))
            }
        }
        elements.append(
            LeanTree.Element(
                name: name, uri: uri, firstAttribute: first, attributeCount: Int32(attributes.count) - first, line: line
            ))
        open.append(Open(index: index, space: space))
    }

    func end() {
        if !open.isEmpty { open.removeLast() }
    }

    /// A child node other than an element's own text chunk (element, comment, processing instruction).
    func childNode(isText: Bool) {
        guard !open.isEmpty else { return }
        let parent = open.count - 1
        if !open[parent].hasChildNodes {
            open[parent].hasChildNodes = true
            open[parent].firstChildIsText = isText
        }
        open[parent].lastChildIsText = isText
    }

    /// Character data of the innermost open element. `next` is the parser's position after it,
    /// `isReference` whether it came from a character or entity reference (`&#32;`, `&amp;`).
    func text(_ chars: UnsafePointer<xmlChar>, _ length: Int, next: UnsafePointer<xmlChar>, isReference: Bool) {
        guard !open.isEmpty, length > 0 else { return }
        let top = open.count - 1
        if !isReference {
            var blank = true
            for i in 0..<length where !ByteScan.isWhitespace(chars[i]) {
                blank = false
                break
            }
            // libxml2's areBlanks(), as it decides with a tree: blank character data is dropped
            // unless xml:space says otherwise, it is the whole content of an element, or it
            // stands beside text.
            if blank, open[top].space == -1 || open[top].space == 0 {
                let raw = next[0]
                let keep =
                    (raw != UInt8(ascii: "<") && raw != 0x0D)
                    || (!open[top].hasChildNodes && raw == UInt8(ascii: "<") && next[1] == UInt8(ascii: "/"))
                    || open[top].lastChildIsText || open[top].firstChildIsText
                if !keep { return }
            }
            if open[top].space == -1 { open[top].space = -2 }
        }
        childNode(isText: true)
        let e = Int(open[top].index)
        if elements[e].textStart >= 0 && Int(elements[e].textStart + elements[e].textLength) + 1 != bytes.count {
            // Text after a child: move the element's text to the end first (rare in element-only formats).
            let start = Int(elements[e].textStart)
            let old = Array(UnsafeBufferPointer(start: bytes.base + start, count: Int(elements[e].textLength)))
            elements[e].textStart = Int32(bytes.count)
            old.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
            bytes.append(0)
        }
        if elements[e].textStart < 0 {
            elements[e].textStart = Int32(bytes.count)
        } else {
            bytes.removeLast()  // the NUL
        }
        bytes.append(contentsOf: UnsafeBufferPointer(start: chars, count: length))
        bytes.append(0)
        elements[e].textLength += Int32(length)
    }
}
