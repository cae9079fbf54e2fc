import Crypto
import Foundation
import NIOCore

/// The stylesheets and scripts of the public folder, minified once at startup and kept in memory,
/// so the sources stay commented and indented for people while browsers get the small bytes.
/// A changed file is seen after a restart.
public struct StaticAssets: Sendable {
    /// One minified file, ready to send.
    public struct Asset: Sendable {
        public var body: ByteBuffer
        /// A strong validator: the first 16 hex digits of the SHA-256 of `body`, quoted.
        public var eTag: String
        public var contentType: String
        /// The file's size before minifying, for the startup log.
        public var sourceSize: Int
    }

    /// The assets by URL path (`/css/fieldwork.css`).
    public let assets: [String: Asset]

    /// Reads and minifies every `.css` and `.js` file under `publicFolder`, hidden ones aside.
    /// A missing folder gives no assets; a file that cannot be read stops the server.
    public init(publicFolder: URL) throws {
        var assets: [String: Asset] = [:]
        let files = FileManager.default.enumerator(atPath: publicFolder.path)
        while let relative = files?.nextObject() as? String {
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
                let kind = Kind(fileExtension: (relative as NSString).pathExtension)
            else { continue }
            let file = publicFolder.appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            let source = [UInt8](try Data(contentsOf: file))
            let minified = kind.minify(source)
            let digest = SHA256.hash(data: minified).prefix(8).map { String(format: "%02x", $0) }.joined()
            assets["/" + relative] = Asset(
                body: ByteBuffer(bytes: minified), eTag: "\"\(digest)\"", contentType: kind.contentType,
                sourceSize: source.count)
        }
        self.assets = assets
    }

    /// The asset served at a URL path, if any.
    public subscript(path: String) -> Asset? { assets[path] }

    private enum Kind {
        case css, js

        init?(fileExtension: String) {
            switch fileExtension {
            case "css": self = .css
            case "js": self = .js
            default: return nil
            }
        }

        var contentType: String {
            switch self {
            case .css: "text/css; charset=utf-8"
            case .js: "text/javascript; charset=utf-8"
            }
        }

        func minify(_ source: [UInt8]) -> [UInt8] {
            switch self {
            case .css: CSSMinifier.minify(source)
            case .js: JSMinifier.minify(source)
            }
        }
    }
}
