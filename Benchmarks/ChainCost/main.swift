// What each global middleware costs a request, without HTTP: a Hummingbird router with a bare
// route (a 13 KB page from memory), and with the middleware named on the command line in front
// of it, answers `iterations` requests in process, each body written out. scripts/callgrind-chain
// runs it under callgrind once per chain and reports the instructions each middleware adds.
//
//   swift run -c release ChainCost ITERATIONS [request-id] [security-headers] [error-pages]
//       [metrics] [log-requests] [hummingbird-metrics] [--not-found]
//
// `log-requests` and `hummingbird-metrics` are Hummingbird's LogRequestsMiddleware and
// MetricsMiddleware, which the server used before: for comparison.
import FormPages
import FormStore
import FormWeb
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded

struct DiscardingWriter: ResponseBodyWriter {
    var bytes = 0
    mutating func write(_ buffer: ByteBuffer) async throws { bytes += buffer.readableBytes }
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let iterations = arguments.first.flatMap(Int.init) else {
    FileHandle.standardError.write(Data("usage: ChainCost ITERATIONS [middleware…] [--not-found]\n".utf8))
    exit(2)
}
let names = Set(arguments.dropFirst())
let resources = ResourceRoot.resolve()
let renderer = try await PageRenderer(templates: resources.templates)
FieldworkMetrics.bootstrap()

let router = Router(context: BasicRequestContext.self)
// In the order Application+build.swift adds them.
if names.contains("request-id") { router.add(middleware: RequestIDMiddleware()) }
if names.contains("security-headers") { router.add(middleware: SecurityHeadersMiddleware()) }
if names.contains("log-requests") { router.add(middleware: LogRequestsMiddleware(.debug)) }
if names.contains("error-pages") {
    router.add(
        middleware: ErrorPageMiddleware(
            notFound: try renderer.notFoundPage(), gone: try renderer.gonePage(),
            unavailable: try renderer.unavailablePage(), renderer: renderer))
}
if names.contains("metrics") { router.add(middleware: RequestMetricsMiddleware()) }
if names.contains("hummingbird-metrics") { router.add(middleware: MetricsMiddleware()) }
let page = ByteBuffer(repeating: UInt8(ascii: "x"), count: 13_419)
router.get("/page") { _, _ -> Response in
    var headers = HTTPFields()
    headers[.contentType] = "text/html; charset=utf-8"
    headers[.contentLength] = String(page.readableBytes)
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: page))
}
let responder = router.buildResponder()
let channel = EmbeddedChannel()
var logger = Logger(label: "chain-cost")
logger.logLevel = .warning
let path = names.contains("--not-found") ? "/no-such-page" : "/page"
var written = 0
for index in 0..<iterations {
    // As Hummingbird's server does for every request: `context.id` reads it.
    var logger = logger
    logger[metadataKey: "hb.request.id"] = .string(String(index))
    let request = Request(
        head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: path),
        body: RequestBody(buffer: ByteBuffer()))
    let context = BasicRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
    let response = try await responder.respond(to: request, context: context)
    let writer = DiscardingWriter()
    try await response.body.write(writer)
    written += response.headers.count
}
print("\(iterations) requests, \(written / max(iterations, 1)) header fields each")
