// The ceiling of scripts/bench-http: a bare Hummingbird route, without any middleware, that
// answers one page from memory, as fast as the framework serves a page. The benchmark gives it
// the bytes of Fieldwork's create view, so both send the same page.
//
//   swift run -c release BareRoute PAGE_FILE [PORT] [--nio-executor]
//
// With --nio-executor, Swift Concurrency's tasks run on NIO's event loops as in `fieldwork`
// (NIOSingletons' takeover), so a page can be compared with the route on either executor.
import Foundation
import Hummingbird
import NIOCore
import NIOPosix

var arguments = CommandLine.arguments.dropFirst()
if let flag = arguments.firstIndex(of: "--nio-executor") {
    arguments.remove(at: flag)
    NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
}
guard let file = arguments.first, let page = FileManager.default.contents(atPath: file) else {
    FileHandle.standardError.write(Data("usage: BareRoute PAGE_FILE [PORT] [--nio-executor]\n".utf8))
    exit(2)
}
let port = arguments.dropFirst().first.flatMap(Int.init) ?? 8090
let body = ByteBuffer(bytes: page)
let router = Router()
router.get("/page") { _, _ -> Response in
    var headers = HTTPFields()
    headers[.contentType] = "text/html; charset=utf-8"
    headers[.contentLength] = String(body.readableBytes)
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
