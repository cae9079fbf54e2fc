import FormStore
import Foundation
import HTTPTypes
import Hummingbird

/// Builds the response that serves a stored file: streamed from disk, under headers that stop
/// a browser from ever treating an upload as a page of this site.
package enum AttachmentResponse {
    /// Raster images, the only types shown inline (thumbnails); they cannot run script.
    static let inlineTypes: Set<String> = ["image/png", "image/jpeg", "image/gif", "image/webp"]

    /// The response for a file the caller has already checked the viewer may see.
    /// - Throws: `HTTPError(.notFound)` when the bytes are missing.
    package static func response(
        for file: StoredAttachment, store: AttachmentStore, context: some RequestContext
    ) async throws -> Response {
        let body = try await FileIO().loadFile(path: store.location(of: file).path, context: context)
        return Response(status: .ok, headers: headers(for: file), body: body)
    }

    /// The headers for a file: its sniffed type (never markup), disposition, and lock-down.
    static func headers(for file: StoredAttachment) -> HTTPFields {
        let type = servedType(file.contentType)
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.contentDisposition] = disposition(
            inline: inlineTypes.contains(type), filename: file.name)
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        // Even if a browser rendered it, a sandboxed document with no sources can do nothing.
        headers[HTTPField.Name("Content-Security-Policy")!] = "default-src 'none'; sandbox"
        // Files people send are as private as the pages that show them: kept by no cache, the
        // browser's own included (a shared computer's next user reads none of them back).
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name("Cross-Origin-Resource-Policy")!] = "same-origin"
        return headers
    }

    /// The sniffed type, except that anything a browser could render as a document or run
    /// (HTML, SVG, XML, script) and anything unknown goes out as plain bytes.
    static func servedType(_ sniffed: String?) -> String {
        guard let sniffed = sniffed?.lowercased(), !sniffed.isEmpty else { return "application/octet-stream" }
        let essence = sniffed.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let active = ["html", "xml", "svg", "javascript", "ecmascript", "xsl"]
        if active.contains(where: { essence.contains($0) }) { return "application/octet-stream" }
        return essence.isEmpty ? "application/octet-stream" : essence
    }

    /// `attachment; filename="plain ASCII"; filename*=UTF-8''percent-encoded` (RFC 6266):
    /// the quoted form for old clients, with anything that could break out of the quotes or
    /// the header replaced; the encoded form carries the real name.
    static func disposition(inline: Bool, filename: String) -> String {
        var fallback = ""
        for scalar in filename.unicodeScalars {
            if scalar.isASCII, scalar.value >= 0x20, scalar.value != 0x7F, scalar != "\"", scalar != "\\" {
                fallback.unicodeScalars.append(scalar)
            } else {
                fallback += "_"
            }
        }
        let attrChars = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$&+-.^_`|~".utf8)
        var encoded = ""
        for byte in filename.utf8 {
            if attrChars.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += String(format: "%%%02X", byte)
            }
        }
        return "\(inline ? "inline" : "attachment"); filename=\"\(fallback)\"; filename*=UTF-8''\(encoded)"
    }
}
