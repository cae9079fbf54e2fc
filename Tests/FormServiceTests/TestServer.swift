import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1 with a port of its own, answering each request with what
/// the test's handler says: a real socket, so that the client's connections, redirects, time
/// limits and streaming are what a service would see.
final class TestServer: Sendable {
    struct Request: Sendable {
        var method: String
        var uri: String
        var headers: HTTPHeaders
        var body: [UInt8]

        func header(_ name: String) -> String? { headers.first(name: name) }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct Response: Sendable {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]
        /// Waited before the head is written: a slow service.
        var delay: Duration?
        /// Without `Content-Length`: the body goes chunked.
        var chunked: Bool

        init(
            _ status: Int = 200, headers: [(String, String)] = [], body: String = "", delay: Duration? = nil,
            chunked: Bool = false
        ) {
            self.status = status
            self.headers = headers
            self.body = Array(body.utf8)
            self.delay = delay
            self.chunked = chunked
        }

        static func json(_ status: Int = 200, _ body: String, headers: [(String, String)] = []) -> Response {
            Response(status, headers: [("Content-Type", "application/json")] + headers, body: body)
        }
    }

    typealias Handler = @Sendable (Request) async -> Response

    let port: Int
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let received: Mutex<[Request]>
    private let log: Box

    private init(port: Int, group: MultiThreadedEventLoopGroup, channel: any Channel, log: Box) {
        self.log = log
        self.port = port
        self.group = group
        self.channel = channel
        self.received = Mutex([])
    }

    /// The requests received so far, in order.
    var requests: [Request] { received.withLock { $0 } }

    var base: String { "http://127.0.0.1:\(port)" }

    static func start(_ handler: @escaping Handler) async throws -> TestServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let log = Box()
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(Connection(handler: handler, log: log))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let server = TestServer(port: channel.localAddress!.port!, group: group, channel: channel, log: log)
        log.server.withLock { $0 = server }
        return server
    }

    func record(_ request: Request) {
        received.withLock { $0.append(request) }
    }

    func stop() async throws {
        let answers = log.answers.withLock { $0 }
        for answer in answers { answer.cancel() }
        for answer in answers { await answer.value }
        try await channel.close()
        try await group.shutdownGracefully()
    }

    /// Runs `body` with a server and stops it after, whatever happens.
    static func with<T>(_ handler: @escaping Handler, _ body: (TestServer) async throws -> T) async throws -> T {
        let server = try await start(handler)
        do {
            let result = try await body(server)
            try await server.stop()
            return result
        } catch {
            try? await server.stop()
            throw error
        }
    }

    private final class Box: Sendable {
        let server = Mutex<TestServer?>(nil)
        /// The answers being made: cancelled and awaited before the event loops stop, so that no
        /// slow answer writes on a loop that is gone.
        let answers = Mutex<[Task<Void, Never>]>([])
    }

    private final class Connection: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let handler: Handler
        let log: Box
        var head: HTTPRequestHead?
        var body: [UInt8] = []

        init(handler: @escaping Handler, log: Box) {
            self.handler = handler
            self.log = log
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                body = []
            case .body(let buffer):
                body += buffer.readableBytesView
            case .end:
                guard let head else { return }
                let request = Request(method: head.method.rawValue, uri: head.uri, headers: head.headers, body: body)
                log.server.withLock { $0 }?.record(request)
                let channel = context.channel
                let handler = self.handler
                let keepAlive = head.isKeepAlive
                let task = Task {
                    let response = await handler(request)
                    if let delay = response.delay {
                        do { try await Task.sleep(for: delay) } catch { return }
                    }
                    guard !Task.isCancelled else { return }
                    var headers = HTTPHeaders(response.headers)
                    if !response.chunked {
                        headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
                    }
                    if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
                    let responseHead = HTTPResponseHead(
                        version: .http1_1, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
                    channel.write(HTTPServerResponsePart.head(responseHead), promise: nil)
                    if !response.body.isEmpty {
                        channel.write(
                            HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: response.body))), promise: nil)
                    }
                    channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in
                        if !keepAlive { channel.close(promise: nil) }
                    }
                }
                log.answers.withLock { $0.append(task) }
            }
        }
    }
}
