import Foundation
import Hummingbird
import MultipartKit
import NIOCore

/// A `multipart/form-data` body of the admin page read into memory: specs and CSV files are
/// small, and the total is capped.
struct AdminUpload: Sendable {
    /// One part: a text field, or a file when `filename` is set.
    struct Part: Sendable {
        var name: String
        var filename: String?
        var data: [UInt8]

        var text: String { String(decoding: data, as: UTF8.self) }
    }

    /// A whole import: several metadata and annotation documents of up to 16 MB each.
    static let limit = 48 * 1024 * 1024

    var parts: [Part]

    /// The text of the first plain field with the name.
    func field(_ name: String) -> String? {
        parts.first { $0.name == name && $0.filename == nil }?.text
    }

    /// The texts of every plain field with the name, in order.
    func fields(_ name: String) -> [String] {
        parts.filter { $0.name == name && $0.filename == nil }.map(\.text)
    }

    /// The files sent under the name, or under any name when nil, in order; parts with an empty
    /// file name (a file input left empty) are left out.
    func files(_ name: String? = nil) -> [Part] {
        parts.filter { (name == nil || $0.name == name) && !($0.filename ?? "").isEmpty }
    }

    /// Reads the body; 413 past the limit, 400 for a body that is not multipart.
    static func read(_ request: Request) async throws -> AdminUpload {
        guard let boundary = MultipartHeader.boundary(ofContentType: request.headers[.contentType]) else {
            throw HTTPError(.unsupportedMediaType, message: "Send the form as multipart/form-data.")
        }
        let body: ByteBuffer
        do {
            body = try await request.boundedBody(upTo: limit)
        } catch {
            throw HTTPError(.contentTooLarge, message: "The upload is larger than \(limit / 1024 / 1024) MB.")
        }
        let collector = Collector()
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in
            guard name.lowercased() == "content-disposition",
                let (partName, filename) = MultipartHeader.disposition(value).map({ ($0.name, $0.filename) })
            else { return }
            collector.current.name = partName ?? ""
            collector.current.filename = filename
        }
        parser.onBody = { collector.current.data.append(contentsOf: $0.readableBytesView) }
        parser.onPartComplete = {
            collector.parts.append(collector.current)
            collector.current = Part(name: "", filename: nil, data: [])
        }
        do {
            try parser.execute(body)
        } catch {
            throw HTTPError(.badRequest, message: "The upload was cut short or malformed; send it again.")
        }
        return AdminUpload(parts: collector.parts)
    }

    private final class Collector {
        var parts: [Part] = []
        var current = Part(name: "", filename: nil, data: [])
    }
}
