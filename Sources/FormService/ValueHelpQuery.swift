import FormModel
import Foundation

/// The query options that read a value help's collection, as Fiori elements asks: the value and
/// label properties only, ordered by value, searched with `$search` where the collection supports
/// it and else by `substringof` (V2) / case-insensitive `contains` (V4) over the text properties;
/// filtered by the form's values for the `In` and `InOut` parameters of other fields and by
/// every `Constant`.
package struct ValueHelpQuery: Sendable {
    package var help: ValueHelp
    package var field: String
    package var binding: ServiceBinding
    package var timeZone: TimeZone
    /// The collection's property that gives the field its value.
    package var valueProperty: String

    /// Nil when the help names no property that gives this field its value.
    package init?(help: ValueHelp, field: String, binding: ServiceBinding, timeZone: TimeZone = .utc) {
        guard let valueProperty = help.valueProperty(for: field) else { return nil }
        self.help = help
        self.field = field
        self.binding = binding
        self.timeZone = timeZone
        self.valueProperty = valueProperty
    }

    private var version: ODataVersion { binding.version }

    /// A list property's type: as the collection declares it, else the type of the field it
    /// meets, else a string.
    package func type(of listProperty: String) -> EdmType {
        if let name = help.listTypes[listProperty], let type = EdmType(name: name) { return type }
        let meeting = help.parameters.first { $0.listProperty == listProperty && $0.field != nil }?.field
        let local =
            meeting.flatMap { binding.fields[$0] }?.type
            ?? (listProperty == valueProperty ? binding.fields[field]?.type : nil)
        return local.flatMap(EdmType.init(name:)) ?? .string
    }

    /// One page: `$top`/`$skip` and the total (`$inlinecount=allpages` in V2, `$count=true` in V4).
    package func page(
        search: String?, formValues: [String: FieldValue], top: Int, skip: Int
    ) throws(ODataValueError) -> [(String, String)] {
        var filters = try fixedFilters(formValues)
        var options: [(String, String)] = [("$select", selected.joined(separator: ","))]
        let term = search?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if !term.isEmpty {
            if help.searchSupported {
                switch version {
                // SAP Gateway's V2 search is the custom option `search`; V4 has `$search`,
                // where a phrase in double quotes is searched as written.
                case .v2: options.append(("search", term))
                case .v4:
                    let escaped = term.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                        of: "\"", with: "\\\"")
                    options.append(("$search", "\"\(escaped)\""))
                }
            } else if let filter = searchFilter(term) {
                filters.append(filter)
            }
        }
        if !filters.isEmpty { options.append(("$filter", filters.joined(separator: " and "))) }
        options.append(("$orderby", valueProperty))
        options.append(("$top", String(max(top, 1))))
        if skip > 0 { options.append(("$skip", String(skip))) }
        options.append(version == .v2 ? ("$inlinecount", "allpages") : ("$count", "true"))
        return options
    }

    /// A fixed-value list, read whole up to `limit` options, with the total: a service that pages
    /// on its own answers fewer rows than it has.
    package func fixedList(formValues: [String: FieldValue], limit: Int) throws(ODataValueError) -> [(String, String)] {
        let filters = try fixedFilters(formValues)
        var options: [(String, String)] = [("$select", selected.joined(separator: ","))]
        if !filters.isEmpty { options.append(("$filter", filters.joined(separator: " and "))) }
        options.append(("$orderby", valueProperty))
        options.append(("$top", String(max(limit, 1))))
        options.append(version == .v2 ? ("$inlinecount", "allpages") : ("$count", "true"))
        return options
    }

    /// The lookup of one submitted value: the value property equal to it, with the list's filters.
    package func lookup(
        _ value: FieldValue, formValues: [String: FieldValue]
    ) throws(ODataValueError) -> [(String, String)] {
        let type = type(of: valueProperty)
        let typed = try EdmValue(value, type: type, property: valueProperty, timeZone: timeZone)
        let filters =
            [valueProperty + " eq " + ODataLiteral.write(typed, type: type, version: version)]
            + (try fixedFilters(formValues))
        return [
            ("$select", selected.joined(separator: ",")), ("$filter", filters.joined(separator: " and ")),
            ("$top", "2"),
        ]
    }

    /// The text an option's value has for a form value: what `option(_:json:)` gives back.
    package func valueText(_ value: FieldValue) throws(ODataValueError) -> String {
        try EdmValue(value, type: type(of: valueProperty), property: valueProperty, timeZone: timeZone).plainText
    }

    /// An option from a row: the value property's value, labelled by the label properties (joined
    /// by a space) or by the value itself; nil for a row without a value.
    package func option(_ row: [String: JSONValue], json: ODataJSON) -> Option? {
        guard let value = text(row[valueProperty], type: type(of: valueProperty), json: json), !value.isEmpty else {
            return nil
        }
        let labels = help.labelProperties.filter { $0 != valueProperty }.compactMap {
            text(row[$0], type: type(of: $0), json: json)
        }.filter { !$0.isEmpty }
        return Option(value: value, label: labels.isEmpty ? value : labels.joined(separator: " "))
    }

    /// What a row gives the form's other fields, by field name: the value of each `Out` and
    /// `InOut` parameter of another field (Fiori elements fills them all when a row is chosen).
    /// A parameter whose local property is no field of the form gives nothing.
    package func fills(_ row: [String: JSONValue], json: ODataJSON) -> [String: String] {
        var fills: [String: String] = [:]
        for parameter in filling {
            guard let field = parameter.field,
                let value = text(row[parameter.listProperty], type: type(of: parameter.listProperty), json: json)
            else { continue }
            fills[field] = value
        }
        return fills
    }

    /// The `Out` and `InOut` parameters of other fields.
    private var filling: [ValueHelp.Parameter] {
        help.parameters.filter { ($0.kind == .out || $0.kind == .inOut) && $0.field != nil && $0.field != field }
    }

    private func text(_ json: JSONValue?, type: EdmType, json reader: ODataJSON) -> String? {
        guard let json else { return nil }
        return reader.edmValue(json, type: type)?.plainText
    }

    /// The value property first, then the labels, each once: what a search looks through.
    private var shown: [String] {
        var out = [valueProperty]
        for name in help.labelProperties where !out.contains(name) { out.append(name) }
        return out
    }

    /// What is read of a row: ``shown``, then what the row gives other fields.
    private var selected: [String] {
        var out = shown
        for name in filling.map(\.listProperty) where !out.contains(name) { out.append(name) }
        return out
    }

    /// `Constant` parameters always; `In` and `InOut` parameters of other fields by the value
    /// the form holds (left out while that field is empty, as Fiori elements does).
    private func fixedFilters(_ formValues: [String: FieldValue]) throws(ODataValueError) -> [String] {
        var filters: [String] = []
        for parameter in help.parameters {
            let type = type(of: parameter.listProperty)
            switch parameter.kind {
            case .constant:
                guard let constant = parameter.constant else { continue }
                let typed = try EdmValue(
                    text: constant, type: type, property: parameter.listProperty, timeZone: timeZone)
                filters.append(
                    parameter.listProperty + " eq " + ODataLiteral.write(typed, type: type, version: version))
            case .in, .inOut:
                guard let other = parameter.field, other != field, let value = formValues[other] else { continue }
                if case .choices = value { continue }
                let typed = try EdmValue(value, type: type, property: parameter.listProperty, timeZone: timeZone)
                filters.append(
                    parameter.listProperty + " eq " + ODataLiteral.write(typed, type: type, version: version))
            case .out, .displayOnly, .filterOnly:
                continue
            }
        }
        return filters
    }

    /// The search as a filter over the value and label properties that hold text.
    private func searchFilter(_ term: String) -> String? {
        let searched = shown.filter { type(of: $0).isText }
        guard !searched.isEmpty else { return nil }
        let parts = searched.map { name in
            switch version {
            case .v2: "substringof(\(ODataLiteral.quoted(term)),\(name))"
            case .v4: "contains(tolower(\(name)),\(ODataLiteral.quoted(term.lowercased())))"
            }
        }
        return parts.count == 1 ? parts[0] : "(" + parts.joined(separator: " or ") + ")"
    }
}
