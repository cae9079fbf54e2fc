import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import FormWeb

/// The minified stylesheets and scripts over HTTP, in-process, against a copy of the resources
/// with one image added (the real Public folder has none).
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

    @Test("GET /css/fieldwork.css answers the minified stylesheet with a strong ETag and the cache header")
    func stylesheet() async throws {
        let minified = CSSMinifier.minify(try Self.source("css/fieldwork.css"))
        try await withApp { client in
            try await client.execute(uri: "/css/fieldwork.css", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/css; charset=utf-8")
                #expect(response.headers[.contentLength] == String(minified.count))
                #expect(response.headers[.cacheControl] == "public, max-age=300, must-revalidate")
                #expect(response.headers[.eTag]?.wholeMatch(of: /"[0-9a-f]{16}"/) != nil)
                WebTests.expectSecurityHeaders(response)
                #expect(Array(buffer: response.body) == minified)
            }
        }
    }

    @Test("a second request with the ETag in If-None-Match gets 304 and no body; a stale one gets the file")
    func notModified() async throws {
        try await withApp { client in
            let eTag = try await client.execute(uri: "/css/fieldwork.css", method: .get) { response in
                try #require(response.headers[.eTag])
            }
            for ifNoneMatch in [eTag, #""0000000000000000", "# + eTag, "W/" + eTag, "*"] {
                try await client.execute(uri: "/css/fieldwork.css", method: .get, headers: [.ifNoneMatch: ifNoneMatch])
                { response in
                    #expect(response.status == .notModified, "\(ifNoneMatch)")
                    #expect(response.headers[.eTag] == eTag)
                    #expect(response.headers[.cacheControl] == "public, max-age=300, must-revalidate")
                    #expect(response.body.readableBytes == 0)
                }
            }
            try await client.execute(
                uri: "/css/fieldwork.css", method: .get, headers: [.ifNoneMatch: #""0000000000000000""#]
            ) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes > 0)
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

    @Test("every script is served minified as JavaScript")
    func scripts() async throws {
        let folder = ResourceRoot.resolve().publicFolder.appendingPathComponent("js")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".js") }
        try await withApp { client in
            for name in names {
                let minified = JSMinifier.minify(try Self.source("js/\(name)"))
                try await client.execute(uri: "/js/\(name)", method: .get) { response in
                    #expect(response.status == .ok, "\(name)")
                    #expect(response.headers[.contentType] == "text/javascript; charset=utf-8", "\(name)")
                    #expect(Array(buffer: response.body) == minified, "\(name)")
                }
            }
        }
    }

    @Test("an image still comes from FileMiddleware, with its own cache header")
    func image() async throws {
        try await withApp { client in
            try await client.execute(uri: "/images/dot.png", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(response.headers[.cacheControl] == "public, max-age=86400")
                // FileMiddleware's mark: it offers byte ranges, the assets do not.
                #expect(response.headers[.acceptRanges] == "bytes")
                WebTests.expectSecurityHeaders(response)
                #expect(Data(buffer: response.body) == Self.png)
            }
        }
    }

    @Test("the public files count as route PublicFiles in the metrics, unknown paths as NotFound: never by path")
    func metricsRoute() async throws {
        let unknown = "nope-\(UUID().uuidString.lowercased())"
        try await withApp { client in
            let asked = ["/css/fieldwork.css", "/js/fieldwork.js", "/images/dot.png", "/css", "/css/\(unknown).css"]
            for uri in asked + ["/\(unknown)"] { _ = try await client.execute(uri: uri, method: .get) }
        }
        // One registry for the process: other tests' requests are in it too.
        let text = String(decoding: FieldworkMetrics.exposition(), as: UTF8.self)
        #expect(text.contains(#"http_requests_total{route="PublicFiles",method="GET",status="200"}"#))
        // A folder's redirect to its slash is the files' answer too.
        #expect(text.contains(#"http_requests_total{route="PublicFiles",method="GET",status="301"}"#))
        #expect(text.contains(#"http_requests_total{route="NotFound",method="GET",status="404"}"#))
        #expect(!text.contains(unknown))
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
        #expect(StaticAssetsMiddleware<BasicRequestContext>.matches([tag], eTag: tag))
        #expect(StaticAssetsMiddleware<BasicRequestContext>.matches([#""x", "y""#, " W/" + tag], eTag: tag))
        #expect(StaticAssetsMiddleware<BasicRequestContext>.matches(["*"], eTag: tag))
        #expect(!StaticAssetsMiddleware<BasicRequestContext>.matches([], eTag: tag))
        #expect(
            !StaticAssetsMiddleware<BasicRequestContext>.matches(
                [#""0123456789abcdee""#, "0123456789abcdef"], eTag: tag))
    }
}
