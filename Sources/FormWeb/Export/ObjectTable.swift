import FormModel
import FormStore
import Foundation

/// The CSV export's columns for one form: the object's id, one column per field of the form's
/// newest version (an object of an older version leaves the fields it never had empty; a field
/// since removed is not exported), one per item list with its count of items (the items are
/// files of their own), then its version, creator, created and updated, and for a form whose
/// objects live in its OData service, the entity's key there and the link's state.
struct ObjectTable: Sendable {
    let fields: [Field]
    var lists: [ItemList] = []
    let service: Bool
    /// Account names by id, for the creator column.
    let accounts: [UUID: String]

    /// The separator of several values in one cell (choices, files).
    static let separator = "; "

    /// The header line: labels for people, or names for scripts.
    func header(_ kind: ExportQuery.CSVHeader) -> [CSVWriter.Cell] {
        var columns: [(name: String, label: String)] = [("id", "Id")]
        columns += fields.map { ($0.name, $0.displayName) }
        columns += lists.map { ($0.name, "\($0.label) (count)") }
        columns += [("version", "Version"), ("creator", "Created by"), ("created", "Created"), ("updated", "Updated")]
        if service { columns += [("service_key", "Key in the service"), ("service_state", "Service state")] }
        return columns.map { .text(kind == .names ? $0.name : $0.label) }
    }

    /// One object's line.
    func row(_ object: StoredObject) -> [CSVWriter.Cell] {
        var cells: [CSVWriter.Cell] = [.text(object.id.uuidString.lowercased())]
        for field in fields { cells.append(object.values[field.name].map(Self.cell) ?? .text("")) }
        for list in lists { cells.append(object.values[list.name].map(Self.cell) ?? .number("0")) }
        cells.append(.number(String(object.formVersion)))
        cells.append(.text(creator(object)))
        cells.append(.number(object.createdAt.map(Self.timestamp) ?? ""))
        cells.append(.number(object.updatedAt.map(Self.timestamp) ?? ""))
        if service {
            cells.append(.text(object.service?.key ?? ""))
            cells.append(.text(object.service?.state.rawValue ?? ""))
        }
        return cells
    }

    /// Who created the object: the account's name, `anonymous` for a visitor (never the browser
    /// id, which would let whoever reads the file act as that browser), or `removed account`.
    private func creator(_ object: StoredObject) -> String {
        if let id = object.creatorUserID { return accounts[id] ?? "removed account" }
        return object.creatorBrowser == nil ? "removed account" : "anonymous"
    }

    /// A value in its plain form: numbers as numbers, dates, times and durations in ISO 8601,
    /// switches as `true` or `false`, choices by their values and files by their names, several
    /// joined by ``separator``.
    static func cell(_ value: FieldValue) -> CSVWriter.Cell {
        switch value {
        case .text(let text), .choice(let text): .text(text)
        case .number(let number): .number(DecimalText.plain(number))
        case .bool(let on): .number(on ? "true" : "false")
        case .date(let date): .number(date.description)
        case .time(let time): .number(time.description)
        case .datetime(let moment): .number(moment.description)
        case .duration(let duration): .number(duration.description)
        case .choices(let values): .text(values.joined(separator: separator))
        case .files(let files): .text(files.map(\.name).joined(separator: separator))
        // An item list's column counts its items; they are lines of its own file.
        case .items(let items): .number(String(items.count))
        }
    }

    /// `2026-11-21T14:30:05Z`, as the JSON API writes it.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
