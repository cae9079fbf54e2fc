import Mustache

/// Text a page template prints, made safe for Mustache in one place: imported and user text
/// passes ``HTML/clean(_:)`` when it becomes a `PageText`, and Mustache escapes it like any value.
///
/// swift-mustache prints a ``MustacheCustomRenderable`` by escaping its ``renderText``; an absent
/// text (``none``) is `isNull`, so `{{#name}}` skips it and `{{^name}}` shows. As a
/// ``MustacheParent`` with no children, a `PageText` pushed by `{{#name}}` hides nothing: names
/// inside the section are found in the enclosing contexts.
///
/// Build one from text with `PageText(text)`, or by interpolation: literals are the code's own
/// text and pass as they are, interpolated strings are cleaned, and slot sentinels go in with
/// `\(slot:)`, since cleaning would strip them.
struct PageText: Sendable, Hashable, MustacheCustomRenderable, MustacheParent {
    /// The cleaned text.
    let text: String
    let isNull: Bool

    /// Imported or user text, cleaned.
    init(_ text: String) {
        self.text = HTML.clean(text)
        isNull = false
    }

    /// The cleaned text, or ``none`` when there is none.
    init(_ text: String?) {
        self = text.map { PageText($0) } ?? PageText.none
    }

    private init(clean text: String, isNull: Bool = false) {
        self.text = text
        self.isNull = isNull
    }

    /// No text: a section on it is skipped, and it prints nothing.
    static let none = PageText(clean: "", isNull: true)

    var isEmpty: Bool { text.isEmpty }

    /// The cleaned text, or nil when it is empty (also after cleaning).
    static func nonEmpty(_ text: String?) -> PageText? {
        text.map { PageText($0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    // MARK: Mustache

    var renderText: String { text }

    func child(named: String) -> Any? { nil }
}

extension PageText: ExpressibleByStringInterpolation {
    /// Literals as they are, strings cleaned, page texts and sentinels as they are.
    struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var text = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// Imported or user text: cleaned.
        mutating func appendInterpolation(_ value: String) {
            text += PageText(value).text
        }

        mutating func appendInterpolation(_ value: PageText) {
            text += value.text
        }

        mutating func appendInterpolation(_ value: Int) {
            text += String(value)
        }

        /// A slot's sentinel (``SlotRegistry/sentinel(_:)``), which cleaning would strip.
        mutating func appendInterpolation(slot sentinel: String) {
            text += sentinel
        }
    }

    /// The code's own text.
    init(stringLiteral value: String) {
        self.init(clean: value)
    }

    init(stringInterpolation: StringInterpolation) {
        self.init(clean: stringInterpolation.text)
    }
}
