import CompressNIO
import Crypto
import FormModel
import Foundation
import NIOCore

/// Every file of the public folder, read once at startup and kept in memory: the stylesheets
/// and scripts minified (the sources stay commented and indented for people), the text ones
/// gzipped once as well, so that a request only copies bytes. A changed file is seen after a
/// restart.
///
/// All of them are served under one fingerprinted prefix, `/assets/<version>/`, where the
/// version is a hash of every file's path and bytes: a response there never changes, so
/// browsers keep it for a year without asking again. One version for the whole set rather than
/// one per file, because the scripts are ES modules that import each other by relative URL
/// (`./element.js`, `../css/attachments.css`): under one prefix those URLs stay right as they
/// are, where per-file names would have to be rewritten into every importer, and would change
/// with any module they import anyway.
package struct StaticAssets: Sendable {
    /// One file, ready to send.
    package struct Asset: Sendable {
        package var body: ByteBuffer
        /// The same bytes gzipped, when the type is text and gzip makes it smaller.
        package var gzipped: ByteBuffer?
        /// A strong validator: the first 16 hex digits of the SHA-256 of `body`, quoted.
        package var eTag: String
        /// The gzipped representation's validator: another representation, another tag.
        package var gzippedETag: String { eTag.dropLast() + "-gzip\"" }
        package var contentType: String
        /// The file's size before minifying, for the startup log.
        package var sourceSize: Int
    }

    /// The assets by URL path under the prefix (`/css/fieldwork.css`).
    package let assets: [String: Asset]
    /// The fingerprint of the whole set: 16 hex digits of a hash of every path and body.
    package let version: String

    /// Where the current assets are served: `/assets/<version>`; a page links `base + path`.
    package var base: String { "/assets/\(version)" }

    /// Reads (and minifies and gzips) every file under `publicFolder`, hidden ones aside.
    /// A missing folder gives no assets; a file that cannot be read stops the server.
    package init(publicFolder: URL) throws {
        var assets: [String: Asset] = [:]
        let files = FileManager.default.enumerator(atPath: publicFolder.path)
        while let relative = files?.nextObject() as? String {
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
            let file = publicFolder.appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            let kind = Kind(fileExtension: (relative as NSString).pathExtension.lowercased())
            let source = [UInt8](try Data(contentsOf: file))
            let bytes = kind.minify(source)
            let digest = Self.hex16(SHA256.hash(data: bytes))
            assets["/" + relative] = Asset(
                body: ByteBuffer(bytes: bytes), gzipped: kind.isText ? try Self.gzip(bytes) : nil,
                eTag: "\"\(digest)\"", contentType: kind.contentType, sourceSize: source.count)
        }
        self.assets = assets
        var hasher = SHA256()
        for (path, asset) in assets.sorted(by: { $0.key < $1.key }) {
            hasher.update(data: Data("\(path)\n\(asset.eTag)\n".utf8))
        }
        version = Self.hex16(hasher.finalize())
    }

    /// The first 16 hex digits of a digest: the ETags' and the version's.
    private static func hex16(_ digest: SHA256Digest) -> String {
        Hex.encode(Array(digest.prefix(8)))
    }

    /// The asset served at a path under the prefix, if any.
    package subscript(path: String) -> Asset? { assets[path] }

    /// The bytes gzipped at the best level (it happens once), or nil when that saves nothing.
    static func gzip(_ bytes: [UInt8]) throws -> ByteBuffer? {
        var buffer = ByteBuffer(bytes: bytes)
        let gzipped = try buffer.compress(
            with: .gzip(configuration: .init(windowSize: .window128k, compressionLevel: .bestCompression)))
        return gzipped.readableBytes < bytes.count ? gzipped : nil
    }

    private enum Kind {
        case css, js, svg, json, text, png, jpeg, gif, webp, icon, woff2, other

        init(fileExtension: String) {
            switch fileExtension {
            case "css": self = .css
            case "js", "mjs": self = .js
            case "svg": self = .svg
            case "json", "webmanifest": self = .json
            case "txt": self = .text
            case "png": self = .png
            case "jpg", "jpeg": self = .jpeg
            case "gif": self = .gif
            case "webp": self = .webp
            case "ico": self = .icon
            case "woff2": self = .woff2
            default: self = .other
            }
        }

        var contentType: String {
            switch self {
            case .css: "text/css; charset=utf-8"
            case .js: "text/javascript; charset=utf-8"
            case .svg: "image/svg+xml"
            case .json: "application/json"
            case .text: "text/plain; charset=utf-8"
            case .png: "image/png"
            case .jpeg: "image/jpeg"
            case .gif: "image/gif"
            case .webp: "image/webp"
            case .icon: "image/x-icon"
            case .woff2: "font/woff2"
            case .other: "application/octet-stream"
            }
        }

        /// Whether gzip is worth trying: text compresses, images and fonts are compressed already.
        var isText: Bool {
            switch self {
            case .css, .js, .svg, .json, .text: true
            case .png, .jpeg, .gif, .webp, .icon, .woff2, .other: false
            }
        }

        func minify(_ source: [UInt8]) -> [UInt8] {
            switch self {
            case .css: CSSMinifier.minify(source)
            case .js: JSMinifier.minify(source)
            default: source
            }
        }
    }
}
