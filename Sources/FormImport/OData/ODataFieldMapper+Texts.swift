import BoundedPatterns
import FormModel
import Foundation

/// A property's texts: labels, hints, names, and what a dropped property says.
extension ODataFormMapper {
    /// Reports a piece of a property's mapping that was left out.
    func dropped(_ context: PropertyContext, _ why: String) {
        report.warn(
            .mappingDropped,
            "\(shortTypeName(context.entityType))/\(context.property.name): \(why); that part is left out.",
            file: metadata.file, line: context.property.line)
    }

    func shortTypeName(_ name: String) -> String { Self.shortName(name) }

    /// A qualified name without its namespace (`ns.Product` → `Product`).
    static func shortName(_ name: String) -> String {
        name.lastIndex(ofASCII: UInt8(ascii: ".")).map { String(name[name.index(after: $0)...]) } ?? name
    }

    /// A label as written, or for an unresolved CAP text key (`{i18n>CreatedAt}`) its key in words.
    func label(_ text: String?) -> String? { label(text, nil) }

    /// The first of the labels, in the order they take precedence, that is text; failing that,
    /// the first text key in words. A key (`{@i18n>labelStatus}`) names a text in the app's
    /// translation files, which an import does not read: a label of the service further down
    /// (`sap:label="Status"`) says more than the key does.
    func label(_ first: String?, _ second: String?, _ third: String? = nil) -> String? {
        var key: String?
        for text in [first, second, third] {
            guard let text = nonEmpty(text) else { continue }
            guard let found = ODataFormMapper.textKey(text) else { return text }
            if key == nil { key = found }
        }
        return key.map { Words.fromIdentifier($0.split(separator: ".").joined(separator: " ")) }
    }

    /// A hint as written; an unresolved text key is no hint.
    func hint(_ text: String?) -> String? {
        guard let text = nonEmpty(text), ODataFormMapper.textKey(text) == nil else { return nil }
        return text
    }

    /// The key of a CAP text placeholder, `{i18n>Key}` or `{@i18n>Key}`: the service left it unresolved.
    static func textKey(_ text: String) -> String? {
        guard text.hasPrefix("{"), text.hasSuffix("}"), let arrow = text.firstIndex(ofASCII: UInt8(ascii: ">")) else {
            return nil
        }
        let bundle = text[text.index(after: text.startIndex)..<arrow]
        guard bundle == "i18n" || bundle == "@i18n" else { return nil }
        let key = text[text.index(after: arrow)..<text.index(before: text.endIndex)]
        return key.isEmpty ? nil : String(key)
    }

    func nonEmpty(_ text: String?) -> String? {
        guard let text else { return nil }
        // Almost every text starts with a visible ASCII character: decide on the bytes first.
        if let first = text.utf8.first, first > 0x20, first < 0x80 { return text }
        return text.contains(where: { !$0.isWhitespace }) ? text : nil
    }
}
