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
package struct PageText: Sendable, Hashable, MustacheCustomRenderable, MustacheParent {
    /// The cleaned text.
    package let text: String
    package let isNull: Bool

    /// Imported or user text, cleaned.
    package init(_ text: String) {
        self.text = HTML.clean(text)
        isNull = false
    }

    /// The cleaned text, or ``none`` when there is none.
    package init(_ text: String?) {
        self = text.map { PageText($0) } ?? PageText.none
    }

    private init(clean text: String, isNull: Bool = false) {
        self.text = text
        self.isNull = isNull
    }

    /// No text: a section on it is skipped, and it prints nothing.
    package static let none = PageText(clean: "", isNull: true)

    package var isEmpty: Bool { text.isEmpty }

    /// The cleaned text, or nil when it is empty (also after cleaning).
    package static func nonEmpty(_ text: String?) -> PageText? {
        text.map { PageText($0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    // MARK: Mustache

    package var renderText: String { text }

    package func child(named: String) -> Any? { nil }
}

extension PageText: ExpressibleByStringInterpolation {
    /// Literals as they are, strings cleaned, page texts and sentinels as they are.
    package struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var text = ""

        package init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        package mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// Imported or user text: cleaned.
        package mutating func appendInterpolation(_ value: String) {
            text += PageText(value).text
        }

        package mutating func appendInterpolation(_ value: PageText) {
            text += value.text
        }

        package mutating func appendInterpolation(_ value: Int) {
            text += String(value)
        }

        /// A slot's sentinel (``SlotRegistry/sentinel(_:)``), which cleaning would strip.
        package mutating func appendInterpolation(slot sentinel: String) {
            text += sentinel
        }
    }

    /// The code's own text.
    package init(stringLiteral value: String) {
        self.init(clean: value)
    }

    package init(stringInterpolation: StringInterpolation) {
        self.init(clean: stringInterpolation.text)
    }
}
