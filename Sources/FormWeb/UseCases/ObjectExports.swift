import FormModel
import FormStore
import Foundation
import Logging
import NIOCore
import NIOFileSystem

/// Every object of a form, or those created or changed in a window, written out as CSV, as JSON
/// Lines, or as a ZIP of their attachments, for the admin page and the JSON API alike.
///
/// Each walks the form's objects in change order a page at a time (``ObjectStore/changes``, a
/// keyset query on an index, so the thousandth page costs what the first does) and hands each
/// page's bytes to `send` before it reads the next: memory holds a page, whatever the form's
/// size, and the first bytes leave before the second page is read. When `send` throws (the
/// client went away), the walk stops there.
struct ObjectExports: Sendable {
    let objects: ObjectStore
    let attachments: AttachmentStore
    let users: UserStore

    /// Objects a page: large enough that the queries cost little beside the writing, small
    /// enough that a page's rows and bytes stay a few hundred kilobytes.
    static let pageSize = 500

    /// The CSV: a header line (labels or names), then a line per object (``ObjectTable``).
    func csv(
        form: StoredForm, query: ExportQuery, send: (ByteBuffer) async throws -> Void
    ) async throws {
        let accounts = Dictionary(try await users.list().map { ($0.id, $0.name) }) { first, _ in first }
        let table = ObjectTable(fields: try form.schema().allFields, service: form.usesService, accounts: accounts)
        var buffer = ByteBuffer()
        CSVWriter.appendLine(table.header(query.header), to: &buffer)
        // The header goes at once: the client sees the download start before any query runs.
        try await send(buffer)
        try await walk(form.id, query.window) { page in
            var buffer = ByteBuffer()
            buffer.reserveCapacity(page.count * 256)
            for change in page { CSVWriter.appendLine(table.row(change.object), to: &buffer) }
            try await send(buffer)
        }
    }

    /// JSON Lines: each object as `GET /api/forms/{id}/objects/{object}` gives it, one a line.
    func jsonLines(form: StoredForm, window: ChangeWindow, send: (ByteBuffer) async throws -> Void) async throws {
        let encoder = JSONResponse.encoder()
        try await walk(form.id, window) { page in
            var buffer = ByteBuffer()
            for change in page {
                var line = try JSONResponse.body(ObjectJSON(change.object), encoder: encoder)
                buffer.writeBuffer(&line)
                buffer.writeInteger(UInt8(ascii: "\n"))
            }
            try await send(buffer)
        }
    }

    /// A ZIP of the objects' attachments, each under `<object id>/<file name>`, and last
    /// `manifest.csv`: a line per file with its object, field, name in the archive, size and
    /// type. A file whose bytes are missing on disk is left out of both, and logged.
    func attachmentsZip(
        form: StoredForm, window: ChangeWindow, alwaysZip64: Bool = false, logger: Logger,
        send: (ByteBuffer) async throws -> Void
    ) async throws {
        var zip = ZipWriter()
        zip.alwaysZip64 = alwaysZip64
        var manifest = Spill()
        do {
            var line = ByteBuffer()
            CSVWriter.appendLine(
                ["object", "field", "file", "size", "content_type"].map(CSVWriter.Cell.text), to: &line)
            try await manifest.append(line)
            try await walk(form.id, window) { page in
                let files = try await attachments.files(objectIDs: page.map(\.object.id))
                for change in page {
                    var names = Set<String>()
                    for file in files[change.object.id] ?? [] {
                        let name = ZipNames.unique(ZipNames.safe(file.name), in: &names)
                        let path = "\(change.object.id.uuidString.lowercased())/\(name)"
                        guard try await addFile(file, as: path, to: &zip, send: send, logger: logger) else { continue }
                        var line = ByteBuffer()
                        CSVWriter.appendLine(
                            [
                                .text(change.object.id.uuidString.lowercased()), .text(file.field), .text(path),
                                .number(String(file.size)), .text(file.contentType ?? ""),
                            ], to: &line)
                        try await manifest.append(line)
                    }
                }
            }
            try await send(zip.begin(name: "manifest.csv", modified: Date(), size: UInt64(manifest.size)))
            try await manifest.replay { chunk in
                zip.add(chunk)
                try await send(chunk)
            }
            try await send(try await zip.end())
            try await zip.finish(send)
        } catch {
            await manifest.discard()
            await zip.discard()
            throw error
        }
    }

    /// A ZIP of an XForm's objects as ODK tools keep submissions: for each object with an
    /// instance, a folder named by its `instanceID` (`uuid_…`) holding `submission.xml`, the
    /// instance XML exactly as stored, and the object's attachments under the file names the
    /// instance gives them.
    func instancesZip(
        form: StoredForm, window: ChangeWindow, logger: Logger, send: (ByteBuffer) async throws -> Void
    ) async throws {
        var zip = ZipWriter()
        do {
            var folders = Set<String>()
            try await walk(form.id, window) { page in
                let ids = page.map(\.object.id)
                let instances = try await objects.instances(of: ids)
                let files = try await attachments.files(objectIDs: ids)
                for change in page {
                    guard let instance = instances[change.object.id] else { continue }
                    let folder = ZipNames.unique(ZipNames.safe(instance.id), in: &folders)
                    let xml = ByteBuffer(string: instance.xml)
                    let modified = change.object.updatedAt ?? change.object.createdAt ?? Date()
                    try await send(
                        zip.begin(name: "\(folder)/submission.xml", modified: modified, size: UInt64(xml.readableBytes))
                    )
                    zip.add(xml)
                    try await send(xml)
                    try await send(try await zip.end())
                    var names: Set<String> = ["submission.xml"]
                    for file in files[change.object.id] ?? [] {
                        let name = ZipNames.unique(ZipNames.safe(file.name), in: &names)
                        _ = try await addFile(file, as: "\(folder)/\(name)", to: &zip, send: send, logger: logger)
                    }
                }
            }
            try await zip.finish(send)
        } catch {
            await zip.discard()
            throw error
        }
    }

    /// One attachment's entry, read from disk in chunks as it is sent; false when its bytes are
    /// missing (nothing was sent then).
    private func addFile(
        _ file: StoredAttachment, as path: String, to zip: inout ZipWriter, send: (ByteBuffer) async throws -> Void,
        logger: Logger
    ) async throws -> Bool {
        let location = FilePath(attachments.location(of: file).path)
        let handle: ReadFileHandle
        do {
            handle = try await FileSystem.shared.openFile(forReadingAt: location)
        } catch {
            logger.warning(
                "An attachment's bytes are missing; left out of the export",
                metadata: ["file": "\(file.id)", "object": "\(file.objectID?.uuidString.lowercased() ?? "")"])
            return false
        }
        do {
            let size = try await handle.info().size
            try await send(zip.begin(name: path, modified: file.createdAt, size: UInt64(max(size, 0))))
            for try await chunk in handle.readChunks(chunkLength: .kibibytes(128)) {
                zip.add(chunk)
                try await send(chunk)
            }
            try await send(try await zip.end())
        } catch {
            try? await handle.close()
            throw error
        }
        try await handle.close()
        return true
    }

    /// Calls `body` with each page of the form's objects in change order.
    func walk(
        _ formID: String, _ window: ChangeWindow, _ body: ([ObjectChange]) async throws -> Void
    ) async throws {
        var position: ChangePosition?
        while true {
            let page = try await objects.changes(formID: formID, after: position, window: window, limit: Self.pageSize)
            if page.isEmpty { return }
            try await body(page)
            if page.count < Self.pageSize { return }
            position = page.last?.position
        }
    }
}

/// Names of files inside the attachments ZIP.
enum ZipNames {
    /// A file name that stays one name in any unzipper: no folder separators, no control
    /// characters, no leading dots (`..` would climb out of the folder), at most 200 bytes.
    static func safe(_ name: String) -> String {
        var safe = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "/", "\\", ":", "*", "?", "\"", "<", ">", "|": safe.unicodeScalars.append("_")
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: safe.unicodeScalars.append("_")
            default: safe.unicodeScalars.append(scalar)
            }
        }
        while safe.hasPrefix(".") || safe.hasPrefix(" ") { safe.removeFirst() }
        while safe.hasSuffix(" ") || safe.hasSuffix(".") { safe.removeLast() }
        while safe.utf8.count > 200 { safe.removeFirst() }
        return safe.isEmpty ? "file" : safe
    }

    /// `name`, or `name (2).ext` and so on when an earlier file of the same object took it.
    static func unique(_ name: String, in taken: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while taken.contains(candidate.lowercased()) {
            let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
            let stem = dot.map { String(name[..<$0]) } ?? name
            let suffix = dot.map { String(name[$0...]) } ?? ""
            candidate = "\(stem) (\(number))\(suffix)"
            number += 1
        }
        taken.insert(candidate.lowercased())
        return candidate
    }
}
