import FormModel
import FormStore
import Foundation
import NIOCore

/// The CSV export of a form with item lists, as ODK Central exports repeats: a ZIP of the
/// objects' file (`{form}.csv`, as ``ObjectExports/csv(form:query:send:)`` writes it, each
/// list's count among its columns) and one file per item list (`{form}-members.csv`, a list
/// within items `{form}-members-doses.csv`), an item a line: its object's id, for a list within
/// items the id of the item holding it, the item's own `_id` and its position in its list (from
/// 1), then its fields. Each file fills a spill (memory holds a megabyte of each, the rest goes
/// to a temporary file) while the objects are walked a page at a time; the ZIP is sent at the end.
extension ObjectExports {
    /// One file of items: the list, its path of list names (`members`, `doses`), its file's name.
    struct ItemFile {
        let list: ItemList
        let names: [String]
        let fileName: String
    }

    /// Every item list of a schema, lists within items after their list, each with its file.
    static func itemFiles(_ lists: [ItemList], formID: String, names: [String] = []) -> [ItemFile] {
        lists.flatMap { list in
            let path = names + [list.name]
            return [ItemFile(list: list, names: path, fileName: "\(formID)-\(path.joined(separator: "-")).csv")]
                + itemFiles(list.lists, formID: formID, names: path)
        }
    }

    func csvZip(
        form: StoredForm, schema: FormSchema, query: ExportQuery, send: (ByteBuffer) async throws -> Void
    ) async throws {
        let accounts = Dictionary(try await users.list().map { ($0.id, $0.name) }) { first, _ in first }
        let table = ObjectTable(
            fields: schema.allFields, lists: schema.itemLists, service: form.usesService, accounts: accounts)
        let files = Self.itemFiles(schema.itemLists, formID: form.id)
        var spills = Array(repeating: Spill(), count: files.count + 1)
        var zip = ZipWriter()
        do {
            var header = ByteBuffer()
            CSVWriter.appendLine(table.header(query.header), to: &header)
            try await spills[0].append(header)
            for (index, file) in files.enumerated() {
                var line = ByteBuffer()
                CSVWriter.appendLine(Self.itemHeader(file, query.header), to: &line)
                try await spills[index + 1].append(line)
            }
            try await walk(form.id, query.window) { page in
                var objects = ByteBuffer()
                var items = Array(repeating: ByteBuffer(), count: files.count)
                for change in page {
                    let object = change.object
                    CSVWriter.appendLine(table.row(object), to: &objects)
                    for (index, file) in files.enumerated() {
                        Self.appendItems(
                            of: file, in: object.values, names: file.names[...], objectID: object.id, parent: nil,
                            to: &items[index])
                    }
                }
                try await spills[0].append(objects)
                for index in files.indices { try await spills[index + 1].append(items[index]) }
            }
            let names = ["\(form.id).csv"] + files.map(\.fileName)
            for index in spills.indices {
                try await send(zip.begin(name: names[index], modified: Date(), size: UInt64(spills[index].size)))
                try await spills[index].replay { chunk in
                    zip.add(chunk)
                    try await send(chunk)
                }
                try await send(try await zip.end())
            }
            try await zip.finish(send)
        } catch {
            for index in spills.indices { await spills[index].discard() }
            await zip.discard()
            throw error
        }
    }

    /// `object_id`, `parent_id` (a list within items), `_id`, `position`, then the fields.
    static func itemHeader(_ file: ItemFile, _ kind: ExportQuery.CSVHeader) -> [CSVWriter.Cell] {
        var columns: [(name: String, label: String)] = [("object_id", "Object id")]
        if file.names.count > 1 {
            columns.append(("parent_id", "\(file.names.dropLast().joined(separator: " ")) item id"))
        }
        columns += [("_id", "Item id"), ("position", "Position")]
        columns += file.list.fields.flatMap { [$0] + ($0.children ?? []) }.map { ($0.name, $0.displayName) }
        return columns.map { .text(kind == .names ? $0.name : $0.label) }
    }

    /// The lines of the items of the list at `names` (through the items of the lists before it).
    static func appendItems(
        of file: ItemFile, in values: [String: FieldValue], names: ArraySlice<String>, objectID: UUID,
        parent: String?, to buffer: inout ByteBuffer
    ) {
        guard let name = names.first, case .items(let items)? = values[name] else { return }
        for (index, item) in items.enumerated() {
            if names.count > 1 {
                appendItems(
                    of: file, in: item.values, names: names.dropFirst(), objectID: objectID, parent: item.id,
                    to: &buffer)
                continue
            }
            var cells: [CSVWriter.Cell] = [.text(objectID.uuidString.lowercased())]
            if file.names.count > 1 { cells.append(.text(parent ?? "")) }
            cells += [.text(item.id ?? ""), .number(String(index + 1))]
            for field in file.list.fields.flatMap({ [$0] + ($0.children ?? []) }) {
                cells.append(item.values[field.name].map(ObjectTable.cell) ?? .text(""))
            }
            CSVWriter.appendLine(cells, to: &buffer)
        }
    }
}
