import FormModel
import FormStore
import Foundation
import MultipartKit
import NIOCore
import NIOFileSystem

/// Reads a `multipart/form-data` body chunk by chunk into text fields and staged files,
/// enforcing the limits while the bytes arrive, never holding the whole body in memory.
///
/// Plain parts become text fields (a repeated name appends). Parts with a `filename` under
/// the input name of an attachments field of the schema (an item's too) are written to
/// `<staging>/<id>` while their size is counted and their first 8 KB kept for
/// `ContentSniffer`; everything else is dropped.
/// On any error, every file this request staged is removed before the error is thrown.
struct MultipartSubmissionReader: Sendable {
    /// How much of a file's start `ContentSniffer` gets.
    static let sniffLength = 8 * 1024

    let schema: FormSchema
    let limits: AttachmentLimits
    let stagingFolder: URL

    /// Reads the whole body.
    /// - Parameters:
    ///   - body: the request body, as it arrives.
    ///   - contentType: the request's `Content-Type`, which carries the boundary.
    ///   - contentLength: the declared length, if any, so an oversized request is refused unread.
    /// - Throws: ``UploadError`` for a refused request; I/O errors as they come.
    func read<Body: AsyncSequence>(
        _ body: Body, contentType: String?, contentLength: Int?
    ) async throws -> ReceivedUpload where Body.Element == ByteBuffer {
        guard let boundary = MultipartHeader.boundary(ofContentType: contentType) else {
            throw UploadError.notMultipart
        }
        let limit = limits.requestLimit(for: schema)
        if let contentLength, contentLength > limit { throw UploadError.tooLarge(limit: limit) }
        // Owner-only (these are people's files); folders of an earlier version were narrowed at
        // start (``AttachmentStore/makePrivate()``).
        try FileManager.default.createDirectory(
            at: stagingFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])

        // The parser's callbacks are synchronous, but writing files is not: collect the events
        // one chunk yields (at most that chunk's bytes), then act on them.
        let events = EventQueue()
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { events.items.append(.header(name: $0, value: $1)) }
        parser.onBody = { events.items.append(.body($0)) }
        parser.onPartComplete = { events.items.append(.complete) }

        var assembler = PartAssembler(schema: schema, limits: limits, stagingFolder: stagingFolder, requestLimit: limit)
        do {
            for try await chunk in body {
                try assembler.count(chunk.readableBytes)
                do { try parser.execute(chunk) } catch { throw UploadError.malformed }
                let batch = events.items
                events.items.removeAll(keepingCapacity: true)
                try await assembler.handle(batch)
            }
            return try assembler.finish()
        } catch {
            await assembler.discard()
            throw error
        }
    }
}

/// What `MultipartParser` reported, in order.
private enum ParserEvent {
    case header(name: String, value: String)
    case body(ByteBuffer)
    case complete
}

private final class EventQueue {
    var items: [ParserEvent] = []
}

/// Turns parser events into fields and staged files; owns the open file and the staged paths
/// so that `discard()` can undo everything.
private struct PartAssembler {
    let schema: FormSchema
    let limits: AttachmentLimits
    let stagingFolder: URL
    let requestLimit: Int

    private var received = 0
    private var sawPart = false
    private var textBytes = 0
    private var headers: [(name: String, value: String)] = []
    private var current: Part?
    private var upload = ReceivedUpload()
    private var keptCount: [String: Int] = [:]
    /// Closed, complete staging files of this request.
    private var staged: [URL] = []

    init(schema: FormSchema, limits: AttachmentLimits, stagingFolder: URL, requestLimit: Int) {
        self.schema = schema
        self.limits = limits
        self.stagingFolder = stagingFolder
        self.requestLimit = requestLimit
    }

    private enum Part {
        case text(name: String, bytes: ByteBuffer)
        case file(FileInProgress)
        /// A part nobody asked for; `field` names an attachments field when it was a file over the count.
        case skipped(overCountField: String?, hasName: Bool, sawBytes: Bool)
    }

    private struct FileInProgress {
        var id: String
        var field: String
        var name: String
        var filenameWasEmpty: Bool
        var maxSize: Int
        var size = 0
        var head: [UInt8] = []
        var pending = ByteBuffer()
        var handle: WriteFileHandle?
        var written: Int64 = 0
        var path: URL
        var oversized: Bool { size > maxSize }
    }

    /// Counts raw body bytes against the request limit.
    mutating func count(_ bytes: Int) throws {
        received += bytes
        if received > requestLimit { throw UploadError.tooLarge(limit: requestLimit) }
    }

    mutating func handle(_ events: [ParserEvent]) async throws {
        for event in events {
            switch event {
            case .header(let name, let value):
                headers.append((name, value))
            case .body(let bytes):
                if current == nil { current = try begin() }
                try append(bytes)
            case .complete:
                if current == nil { current = try begin() }
                try await complete()
            }
        }
        // One write per chunk rather than one per slice (the parser cuts the body at every CR).
        if case .file(var file) = current {
            try await flush(&file)
            current = .file(file)
        }
    }

    /// The result, once the body has ended; a part still open means the body was cut short,
    /// and bytes without a single part mean the boundary was not the body's.
    func finish() throws -> ReceivedUpload {
        guard current == nil, headers.isEmpty, sawPart || received == 0 else { throw UploadError.malformed }
        return upload
    }

    /// Removes everything this request staged. Runs detached: when the request task was
    /// cancelled (the client went away), file operations in it would be refused.
    mutating func discard() async {
        var handle: WriteFileHandle?
        if case .file(let file) = current { handle = file.handle }
        let paths = staged
        current = nil
        staged = []
        await Task.detached {
            try? await handle?.close(makeChangesVisible: false)
            for path in paths { try? FileManager.default.removeItem(at: path) }
        }.value
    }

    private mutating func begin() throws -> Part {
        defer { headers = [] }
        sawPart = true
        let disposition = headers.last { $0.name.lowercased() == "content-disposition" }
            .flatMap { MultipartHeader.disposition($0.value) }
        guard let disposition, let name = disposition.name else {
            return .skipped(overCountField: nil, hasName: false, sawBytes: false)
        }
        guard let filename = disposition.filename else {
            return .text(name: name, bytes: ByteBuffer())
        }
        // A form's own field by its name, an item's by its input name (`members[1].photo`).
        guard let field = schema.field(named: name) ?? schema.field(atInput: name), field.kind == .attachments else {
            return .skipped(overCountField: nil, hasName: !filename.isEmpty, sawBytes: false)
        }
        if keptCount[name, default: 0] >= limits.keptFileCount(for: field) {
            return .skipped(overCountField: name, hasName: !filename.isEmpty, sawBytes: false)
        }
        let id = UUID().uuidString.lowercased()
        return .file(
            FileInProgress(
                id: id, field: name, name: FileName.sanitise(filename), filenameWasEmpty: filename.isEmpty,
                maxSize: limits.maxFileBytes(for: field), path: stagingFolder.appendingPathComponent(id)))
    }

    private mutating func append(_ bytes: ByteBuffer) throws {
        switch current {
        case .text(let name, var text):
            textBytes += bytes.readableBytes
            if text.readableBytes + bytes.readableBytes > limits.maxFieldBytes {
                throw UploadError.textTooLarge(limit: limits.maxFieldBytes)
            }
            if textBytes > limits.textAllowance { throw UploadError.textTooLarge(limit: limits.textAllowance) }
            var bytes = bytes
            text.writeBuffer(&bytes)
            current = .text(name: name, bytes: text)
        case .file(var file):
            file.size += bytes.readableBytes
            if file.oversized {
                // Past max-size: count on (the message names the real size), keep nothing more.
                file.pending.clear()
            } else {
                if file.head.count < MultipartSubmissionReader.sniffLength {
                    file.head.append(
                        contentsOf: bytes.readableBytesView.prefix(
                            MultipartSubmissionReader.sniffLength - file.head.count))
                }
                var bytes = bytes
                file.pending.writeBuffer(&bytes)
            }
            current = .file(file)
        case .skipped(let field, let hasName, _):
            current = .skipped(overCountField: field, hasName: hasName, sawBytes: true)
        case nil:
            break
        }
    }

    private func flush(_ file: inout FileInProgress) async throws {
        guard !file.oversized, file.pending.readableBytes > 0 else { return }
        if file.handle == nil {
            // Created invisibly (O_TMPFILE where available) and linked in on close, so a crash
            // mid-upload leaves no half file behind; owner-only, it is someone's upload.
            file.handle = try await FileSystem.shared.openFile(
                forWritingAt: FilePath(file.path.path),
                options: .newFile(replaceExisting: false, permissions: [.ownerReadWrite]))
        }
        let written = try await file.handle!.write(contentsOf: file.pending, toAbsoluteOffset: file.written)
        file.written += written
        file.pending.clear()
    }

    private mutating func complete() async throws {
        defer { current = nil }
        switch current {
        case .text(let name, let bytes):
            upload.fields[name, default: []].append(String(decoding: bytes.readableBytesView, as: UTF8.self))
        case .file(var file):
            // What a browser sends for a file input left empty: no name, no bytes.
            if file.filenameWasEmpty && file.size == 0 { return }
            if file.oversized {
                if let handle = file.handle {
                    file.handle = nil
                    current = .file(file)
                    try await handle.close(makeChangesVisible: false)
                }
                upload.files.append(
                    ReceivedFile(
                        id: file.id, field: file.field, name: file.name, size: file.size,
                        contentType: ContentSniffer.sniff(file.head), stagingFile: nil))
            } else {
                try await flush(&file)
                if file.handle == nil {
                    // An empty file someone did choose: it still exists, with no bytes.
                    file.handle = try await FileSystem.shared.openFile(
                        forWritingAt: FilePath(file.path.path),
                        options: .newFile(replaceExisting: false, permissions: [.ownerReadWrite]))
                }
                let handle = file.handle!
                file.handle = nil
                current = .file(file)
                // On disk before its row commits: an acknowledged create's files survive a crash.
                try await handle.synchronize()
                try await handle.close()
                staged.append(file.path)
                upload.files.append(
                    ReceivedFile(
                        id: file.id, field: file.field, name: file.name, size: file.size,
                        contentType: ContentSniffer.sniff(file.head), stagingFile: file.path))
            }
            keptCount[file.field, default: 0] += 1
        case .skipped(let field, let hasName, let sawBytes):
            if let field, hasName || sawBytes { upload.droppedFiles[field, default: 0] += 1 }
        case nil:
            break
        }
    }
}
