import CompressNIO
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

/// The public files over HTTP, in-process, against a copy of the resources with one image added
/// (the real Public folder has none): minified, gzipped, under a fingerprinted prefix.
@Suite("Static assets")
struct StaticAssetsTests {
    /// A 1x1 PNG.
    static let png = Data(
        base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=")!

    func withApp(_ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let data = Fixtures.temporaryDataFolder()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fieldwork-resources-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: data)
            try? FileManager.default.removeItem(at: root)
        }
        let real = ResourceRoot.resolve()
        let resources = ResourceRoot(url: root)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: real.templates, to: resources.templates)
        try FileManager.default.copyItem(at: real.publicFolder, to: resources.publicFolder)
        let images = resources.publicFolder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try Self.png.write(to: images.appendingPathComponent("dot.png"))
        var configuration = Fixtures.configuration(data: data)
        configuration.resources = resources
        let app = try await buildApplication(configuration)
        try await app.test(.router, test)
    }

    static func source(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: ResourceRoot.resolve().publicFolder.appendingPathComponent(path)))
    }

    /// The fingerprinted prefix the pages link, read from the create view.
    static func base(_ client: some TestClientProtocol) async throws -> String {
        let page = try await client.execute(uri: "/login", method: .get) { String(buffer: $0.body) }
        let match = try #require(
            page.firstMatch(of: #/<link rel="stylesheet" href="(/assets/[0-9a-f]{16})/css/fieldwork.css">/#))
        return String(match.1)
    }

    @Test("the pages link the stylesheets and scripts under /assets/<version>/, kept a year as immutable")
    func fingerprinted() async throws {
        let minified = CSSMinifier.minify(try Self.source("css/fieldwork.css"))
        try await withApp { client in
            let base = try await Self.base(client)
            let page = try await client.execute(uri: "/login", method: .get) { String(buffer: $0.body) }
            #expect(page.contains(#"<script type="module" src="\#(base)/js/fieldwork.js"></script>"#))
            #expect(page.contains(#"<link rel="stylesheet" href="\#(base)/css/regular.css""#))
            try await client.execute(uri: "\(base)/css/fieldwork.css", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/css; charset=utf-8")
                #expect(response.headers[.contentLength] == String(minified.count))
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
                #expect(response.headers[.eTag]?.wholeMatch(of: /"[0-9a-f]{16}"/) != nil)
                #expect(response.headers[.vary] == "Accept-Encoding")
                #expect(response.headers[.contentEncoding] == nil)
                WebTests.expectSecurityHeaders(response)
                #expect(Array(buffer: response.body) == minified)
            }
        }
    }

    @Test("a client that accepts gzip gets the gzipped bytes, which unzip to the minified file; q=0 refuses it")
    func gzipped() async throws {
        let minified = JSMinifier.minify(try Self.source("js/fieldwork.js"))
        try await withApp { client in
            let base = try await Self.base(client)
            for accept in ["gzip", "gzip, deflate, br", "br;q=1.0, gzip;q=0.8", "*"] {
                var body = try await client.execute(
                    uri: "\(base)/js/fieldwork.js", method: .get, headers: [.acceptEncoding: accept]
                ) { response in
                    #expect(response.status == .ok, "\(accept)")
                    #expect(response.headers[.contentEncoding] == "gzip", "\(accept)")
                    #expect(response.headers[.vary] == "Accept-Encoding")
                    #expect(response.headers[.eTag]?.wholeMatch(of: /"[0-9a-f]{16}-gzip"/) != nil)
                    #expect(response.headers[.contentLength] == String(response.body.readableBytes))
                    #expect(response.body.readableBytes < minified.count)
                    return response.body
                }
                #expect(Array(buffer: try body.decompress(with: .gzip())) == minified, "\(accept)")
            }
            for accept in ["gzip;q=0", "br", "identity", "*;q=0", "gzip;q=0, *"] {
                try await client.execute(
                    uri: "\(base)/js/fieldwork.js", method: .get, headers: [.acceptEncoding: accept]
                ) { response in
                    #expect(response.headers[.contentEncoding] == nil, "\(accept)")
                    #expect(Array(buffer: response.body) == minified, "\(accept)")
                }
            }
        }
    }

    @Test("the plain addresses of before the fingerprints still answer, revalidated after 5 minutes")
    func plainPaths() async throws {
        let minified = CSSMinifier.minify(try Self.source("css/fieldwork.css"))
        try await withApp { client in
            try await client.execute(uri: "/css/fieldwork.css", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == "public, max-age=300, must-revalidate")
                #expect(Array(buffer: response.body) == minified)
            }
        }
    }

    @Test("an address under another version (a page from before a restart) gets the current file, revalidated")
    func otherVersion() async throws {
        let minified = CSSMinifier.minify(try Self.source("css/fieldwork.css"))
        try await withApp { client in
            try await client.execute(uri: "/assets/0000000000000000/css/fieldwork.css", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == "no-cache")
                #expect(Array(buffer: response.body) == minified)
            }
            try await client.execute(uri: "/assets/0000000000000000/css/nope.css", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("a second request with the ETag in If-None-Match gets 304 and no body; a stale one gets the file")
    func notModified() async throws {
        try await withApp { client in
            let base = try await Self.base(client)
            for accept in ["", "gzip"] {
                let eTag = try await client.execute(
                    uri: "\(base)/css/fieldwork.css", method: .get, headers: [.acceptEncoding: accept]
                ) { response in
                    try #require(response.headers[.eTag])
                }
                for ifNoneMatch in [eTag, #""0000000000000000", "# + eTag, "W/" + eTag, "*"] {
                    try await client.execute(
                        uri: "\(base)/css/fieldwork.css", method: .get,
                        headers: [.ifNoneMatch: ifNoneMatch, .acceptEncoding: accept]
                    ) { response in
                        #expect(response.status == .notModified, "\(ifNoneMatch)")
                        #expect(response.headers[.eTag] == eTag)
                        #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
                        #expect(response.body.readableBytes == 0)
                    }
                }
                try await client.execute(
                    uri: "\(base)/css/fieldwork.css", method: .get,
                    headers: [.ifNoneMatch: #""0000000000000000""#, .acceptEncoding: accept]
                ) { response in
                    #expect(response.status == .ok)
                    #expect(response.body.readableBytes > 0)
                }
            }
        }
    }

    @Test("HEAD answers the headers of GET without the body")
    func head() async throws {
        let minified = JSMinifier.minify(try Self.source("js/fieldwork.js"))
        try await withApp { client in
            try await client.execute(uri: "/js/fieldwork.js", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(response.headers[.contentLength] == String(minified.count))
                #expect(response.headers[.eTag] != nil)
                #expect(response.body.readableBytes == 0)
            }
        }
    }

    @Test("every script is served minified as JavaScript, under the prefix and at its plain address")
    func scripts() async throws {
        let folder = ResourceRoot.resolve().publicFolder.appendingPathComponent("js")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".js") }
        try await withApp { client in
            let base = try await Self.base(client)
            for name in names {
                let minified = JSMinifier.minify(try Self.source("js/\(name)"))
                for uri in ["\(base)/js/\(name)", "/js/\(name)"] {
                    try await client.execute(uri: uri, method: .get) { response in
                        #expect(response.status == .ok, "\(uri)")
                        #expect(response.headers[.contentType] == "text/javascript; charset=utf-8", "\(uri)")
                        #expect(Array(buffer: response.body) == minified, "\(uri)")
                    }
                }
            }
        }
    }

    @Test("an image comes from memory as it is, never gzipped")
    func image() async throws {
        try await withApp { client in
            let base = try await Self.base(client)
            try await client.execute(
                uri: "\(base)/images/dot.png", method: .get, headers: [.acceptEncoding: "gzip"]
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
                #expect(response.headers[.contentEncoding] == nil)
                #expect(response.headers[.vary] == nil)
                WebTests.expectSecurityHeaders(response)
                #expect(Data(buffer: response.body) == Self.png)
            }
        }
    }

    @Test("another file makes another version; the same files the same one")
    func version() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fieldwork-public-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let css = root.appendingPathComponent("css")
        try FileManager.default.createDirectory(at: css, withIntermediateDirectories: true)
        try Data("a { color: red }".utf8).write(to: css.appendingPathComponent("a.css"))
        let first = try StaticAssets(publicFolder: root)
        #expect(try StaticAssets(publicFolder: root).version == first.version)
        #expect(first.version.wholeMatch(of: /[0-9a-f]{16}/) != nil)
        try Data("a { color: blue }".utf8).write(to: css.appendingPathComponent("a.css"))
        #expect(try StaticAssets(publicFolder: root).version != first.version)
    }

    @Test("the public files count as route PublicFiles in the metrics, unknown paths as NotFound: never by path")
    func metricsRoute() async throws {
        let unknown = "nope-\(UUID().uuidString.lowercased())"
        try await withApp { client in
            let base = try await Self.base(client)
            let asked = [
                "/css/fieldwork.css", "\(base)/js/fieldwork.js", "\(base)/images/dot.png", "/css/\(unknown).css",
            ]
            for uri in asked + ["/\(unknown)", "/assets/0000000000000000/\(unknown).js"] {
                _ = try await client.execute(uri: uri, method: .get)
            }
        }
        // One registry for the process: other tests' requests are in it too.
        let text = String(decoding: FieldworkMetrics.exposition(), as: UTF8.self)
        #expect(text.contains(#"http_requests_total{route="PublicFiles",method="GET",status="200"}"#))
        #expect(text.contains(#"http_requests_total{route="PublicFiles",method="GET",status="404"}"#))
        #expect(text.contains(#"http_requests_total{route="NotFound",method="GET",status="404"}"#))
        #expect(!text.contains(unknown))
        #expect(!text.contains("/assets/"))
        for label in ["StaticAssets", "FileMiddleware", "Unknown"] { #expect(!text.contains(#"route="\#(label)""#)) }
    }

    @Test("an unknown script path answers the 404 page")
    func unknownScript() async throws {
        try await withApp { client in
            for uri in ["/js/nope.js", "/css/nope.css"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                    WebTests.expectSecurityHeaders(response)
                }
            }
        }
    }

    @Test("only GET and HEAD are answered from memory")
    func otherMethods() async throws {
        try await withApp { client in
            try await client.execute(uri: "/css/fieldwork.css", method: .post) { response in
                #expect(response.status != .ok)
                #expect(response.headers[.eTag] == nil)
            }
        }
    }

    @Test("If-None-Match matches a listed, weak or * tag, and nothing else")
    func ifNoneMatch() {
        let tag = #""0123456789abcdef""#
        #expect(AssetRoutes.matches([tag], eTag: tag))
        #expect(AssetRoutes.matches([#""x", "y""#, " W/" + tag], eTag: tag))
        #expect(AssetRoutes.matches(["*"], eTag: tag))
        #expect(!AssetRoutes.matches([], eTag: tag))
        #expect(!AssetRoutes.matches([#""0123456789abcdee""#, "0123456789abcdef"], eTag: tag))
    }

    @Test("Accept-Encoding takes gzip by name or by *, unless its weight is 0")
    func acceptEncoding() {
        #expect(AssetRoutes.acceptsGzip(["gzip"]))
        #expect(AssetRoutes.acceptsGzip(["deflate", "x-gzip;q=0.5"]))
        #expect(AssetRoutes.acceptsGzip(["*"]))
        #expect(AssetRoutes.acceptsGzip(["GZIP ; Q=0.001"]))
        #expect(!AssetRoutes.acceptsGzip([]))
        #expect(!AssetRoutes.acceptsGzip(["gzip;q=0"]))
        #expect(!AssetRoutes.acceptsGzip(["gzip;q=0.0, *"]))
        #expect(!AssetRoutes.acceptsGzip(["br, identity"]))
    }
}
