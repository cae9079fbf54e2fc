import FormModel
import FormXML
import Foundation

/// An external instance an admin uploads for an XForm's list (`<instance id="cities"
/// src="jr://file/cities.csv"/>`, never fetched): the file the form was made with, as ODK tools
/// take it. A CSV with a header row naming its columns (`name`, `label` or `label::English`, and
/// any others the form's choice filters read, `state` say), or XML (`<root><item><name>…`). It
/// becomes the instance the server evaluates the form's itemsets against, filters included, and
/// the list's options (`name`, labelled by `label`).
package struct XFormExternalInstance: Sendable, Hashable {
    /// The instance as XML text: `<root><item><name>…</name>…</item>…</root>` for a CSV.
    package var xml: String
    package var options: [Option]

    /// Reads an uploaded file; throws every mistake, each saying what to fix.
    package static func read(_ bytes: [UInt8]) throws(Failure) -> XFormExternalInstance {
        let first = bytes.first {
            !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF)
        }
        if first == UInt8(ascii: "<") { return try xml(bytes) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Failure(["The file is neither XML nor UTF-8 text; save it as CSV UTF-8 or XML"])
        }
        return try csv(text)
    }

    /// Every mistake of a refused file.
    package struct Failure: Error, Sendable, Hashable {
        package var errors: [String]

        init(_ errors: [String]) {
            self.errors = errors
        }
    }

    /// `<root><item>…</item>…</root>`: each child of the root is an item; its `name` child is the
    /// value, its `label` child (else the name) the label.
    static func xml(_ bytes: [UInt8]) throws(Failure) -> XFormExternalInstance {
        let document: SafeXMLDocument
        do {
            document = try SafeXMLDocument.parse(bytes)
        } catch {
            let refusal = ImportError(error, file: nil)
            throw Failure(["\(refusal.line > 0 ? "Line \(refusal.line): " : "")\(refusal.message)"])
        }
        guard let root = document.root else { throw Failure(["The XML has no root element"]) }
        var options: [Option] = []
        var seen = Set<String>()
        for item in root.children {
            let children = item.children
            let value = (children.first { $0.localName == "name" }?.textContent ?? "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard !value.isEmpty, seen.insert(value).inserted else { continue }
            let label = (children.first { $0.localName == "label" }?.textContent ?? "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            options.append(Option(value: value, label: label.isEmpty ? value : label))
        }
        guard !options.isEmpty else {
            throw Failure([
                "No item of the XML has a name: write each option as <item><name>…</name><label>…</label></item>"
            ])
        }
        guard options.count <= OptionCSV.maxOptions else {
            throw Failure(["The file has \(options.count) options; a list takes at most \(OptionCSV.maxOptions)"])
        }
        return XFormExternalInstance(xml: String(decoding: bytes, as: UTF8.self), options: options)
    }

    /// A CSV whose header names the columns: one item a line, each column a child element.
    static func csv(_ text: String) throws(Failure) -> XFormExternalInstance {
        let rows: [(line: Int, cells: [String])]
        switch OptionCSV.records(text) {
        case .success(let found):
            rows = found.filter { !$0.cells.allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty } }
        case .failure(let error): throw Failure([error.description])
        }
        guard let header = rows.first?.cells.map({ $0.trimmingCharacters(in: .whitespaces) }) else {
            throw Failure(["The file is empty; write a header line (name,label,…) and a line per option"])
        }
        guard let nameColumn = header.firstIndex(of: "name") else {
            throw Failure(["Line 1: the header names no name column; ODK's files start with name,label"])
        }
        let labelColumn = header.firstIndex(of: "label") ?? header.firstIndex { $0.hasPrefix("label::") }
        var errors: [String] = []
        for column in header where !isElementName(column) {
            errors.append(
                "Line 1: \"\(column)\" cannot name a column: use letters, digits, _ and - (and :: for a language)")
        }
        guard errors.isEmpty else { throw Failure(errors) }
        var xml = "<root>"
        var options: [Option] = []
        var seen: [String: Int] = [:]
        for row in rows.dropFirst() {
            let cells = row.cells.map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == header.count else {
                errors.append(
                    "Line \(row.line): write \(header.count) columns, as the header does; this line has \(cells.count)")
                continue
            }
            let value = cells[nameColumn]
            guard !value.isEmpty else {
                errors.append("Line \(row.line): enter a name in the name column")
                continue
            }
            if let first = seen[value] {
                errors.append(
                    "Line \(row.line): the name \"\(value)\" is already on line \(first); each name may appear once")
                continue
            }
            seen[value] = row.line
            let label = labelColumn.map { cells[$0] } ?? ""
            options.append(Option(value: value, label: label.isEmpty ? value : label))
            xml += "<item>"
            for (column, cell) in zip(header, cells) {
                // `label::English` is the element `label` in ODK's reading; the first label wins.
                let element = column.hasPrefix("label::") ? "label" : column
                if element == "label", column != header[labelColumn ?? 0] { continue }
                xml += "<\(element)>\(escaped(cell))</\(element)>"
            }
            xml += "</item>"
        }
        if options.count > OptionCSV.maxOptions {
            errors.append("The file has \(options.count) options; a list takes at most \(OptionCSV.maxOptions)")
        }
        if options.isEmpty && errors.isEmpty { errors.append("The file has a header but no option under it") }
        guard errors.isEmpty else { throw Failure(errors) }
        return XFormExternalInstance(xml: xml + "</root>", options: options)
    }

    /// An XML element name ODK's CSV columns can be: ASCII letters, digits, `_`, `-`, `.`, not
    /// starting with a digit, `-` or `.`; `label::lang` is allowed as a label column.
    static func isElementName(_ column: String) -> Bool {
        let name = column.hasPrefix("label::") ? "label" : column
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_", first.isASCII
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0))
        }
    }

    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }
}

extension XFormRules {
    /// The rules with the external instances admins uploaded (by list id, the field of a select
    /// whose itemset reads the instance) in place: `instance('cities')` then reads the file.
    package func withUploadedInstances(_ uploaded: [String: String]) -> XFormRules {
        guard !uploaded.isEmpty else { return self }
        var rules = self
        for node in nodes {
            guard let field = node.field, let xml = uploaded[field], let id = node.itemset?.instance,
                rules.secondaryInstances[id]?.src != nil
            else { continue }
            rules.secondaryInstances[id]?.xml = xml
        }
        return rules
    }

    /// The external instance a list's select reads (`instance('cities')` of `src="jr://file/…"`),
    /// by the list's id (its field's name); nil for a list of another kind.
    package func externalInstance(forList listID: String) -> String? {
        guard let id = node(forField: listID)?.itemset?.instance, secondaryInstances[id]?.src != nil else {
            return nil
        }
        return id
    }
}
