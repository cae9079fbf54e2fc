// The ceiling of scripts/bench-http: a bare Hummingbird route, without any middleware, that
// answers one page from memory, as fast as the framework serves a page. The benchmark gives it
// the bytes of Fieldwork's create view, so both send the same page.
//
//   swift run -c release BareRoute PAGE_FILE [PORT] [--nio-executor]
//
// With --nio-executor, Swift Concurrency's tasks run on NIO's event loops as in `fieldwork`
// (NIOSingletons' takeover), so a page can be compared with the route on either executor.
//
// `/duties` answers the same page with what any server must do for a first visit to a create
// view, written by hand in the one handler, with no middleware, routing by parameter or form
// lookup: a new browser id (32 random bytes) in a Set-Cookie, its CSRF token (HMAC-SHA256 from
// a keyed state made once), a one-time token and a request id (random), both tokens written
// into the page's hidden inputs (the page copied from its static runs, as a specialised plan
// is), and the response headers Fieldwork sends (CSP, nosniff, referrer policy, no-store).
// The floor under the create view's cost that Fieldwork's duties set, beside the bare route.
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOPosix
import Synchronization

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

/// The page's static runs between the values of its `_csrf` and `_once` inputs.
let pieces: [ByteBuffer] = {
    var runs: [ByteBuffer] = []
    var rest = page[...]
    for name in ["_csrf", "_once"] {
        let marker = Data("name=\"\(name)\" value=\"".utf8)
        guard let found = rest.range(of: marker), let end = rest[found.upperBound...].firstIndex(of: 0x22) else {
            FileHandle.standardError.write(Data("BareRoute: the page has no \(name) input\n".utf8))
            exit(2)
        }
        runs.append(ByteBuffer(bytes: rest[..<found.upperBound]))
        rest = rest[end...]
    }
    runs.append(ByteBuffer(bytes: rest))
    return runs
}()
let keyed = HMAC<SHA256>(key: SymmetricKey(size: .bits256))
let contentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-src 'self' blob:; "
    + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"

/// Random bytes from a pool filled 4 KB at a time (one `getrandom` for a hundred tokens).
let randomPool = Mutex<(bytes: [UInt8], next: Int)>(([], 0))

@Sendable func randomBytes(_ count: Int) -> [UInt8] {
    randomPool.withLock { pool in
        if pool.next + count > pool.bytes.count {
            var generator = SystemRandomNumberGenerator()
            pool.bytes = (0..<512).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64, Array.init) }
            pool.next = 0
        }
        defer { pool.next += count }
        return Array(pool.bytes[pool.next..<pool.next + count])
    }
}

let base64Letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

/// Base64url without padding, each group of three bytes written as four letters in place.
@Sendable func base64url(_ input: [UInt8]) -> String {
    String(unsafeUninitializedCapacity: (input.count * 4 + 2) / 3) { out in
        input.withUnsafeBufferPointer { bytes in
            base64Letters.withUnsafeBufferPointer { letters in
                var written = 0
                var index = 0
                while index + 3 <= bytes.count {
                    let bits = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
                    out[written] = letters[bits >> 18]
                    out[written + 1] = letters[(bits >> 12) & 63]
                    out[written + 2] = letters[(bits >> 6) & 63]
                    out[written + 3] = letters[bits & 63]
                    written += 4
                    index += 3
                }
                let left = bytes.count - index
                if left > 0 {
                    let bits = Int(bytes[index]) << 16 | (left == 2 ? Int(bytes[index + 1]) << 8 : 0)
                    out[written] = letters[bits >> 18]
                    out[written + 1] = letters[(bits >> 12) & 63]
                    written += 2
                    if left == 2 {
                        out[written] = letters[(bits >> 6) & 63]
                        written += 1
                    }
                }
                return written
            }
        }
    }
}

@Sendable func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    return String(unsafeUninitializedCapacity: bytes.count * 2) { out in
        for (index, byte) in bytes.enumerated() {
            out[2 * index] = digits[Int(byte >> 4)]
            out[2 * index + 1] = digits[Int(byte & 15)]
        }
        return bytes.count * 2
    }
}

/// The headers every page sends alike, made (and checked) once.
let fixedHeaders: [HTTPField] = [
    HTTPField(name: .contentType, value: "text/html; charset=utf-8"),
    HTTPField(name: .cacheControl, value: "no-store"),
    HTTPField(name: .contentSecurityPolicy, value: contentSecurityPolicy),
    HTTPField(name: HTTPField.Name("X-Content-Type-Options")!, value: "nosniff"),
    HTTPField(name: HTTPField.Name("Referrer-Policy")!, value: "same-origin"),
]
let requestIDName = HTTPField.Name("X-Request-ID")!

router.get("/duties") { request, _ -> Response in
    let id =
        request.headers[.cookie].flatMap { $0.split(separator: "=").last.map(String.init) }
        ?? base64url(randomBytes(32))
    var mac = keyed
    mac.update(data: Array(id.utf8))
    let token = base64url(Array(mac.finalize()))
    let once = base64url(randomBytes(32))
    var body = ByteBuffer()
    body.reserveCapacity(page.count + 128)
    body.writeImmutableBuffer(pieces[0])
    body.writeString(token)
    body.writeImmutableBuffer(pieces[1])
    body.writeString(once)
    body.writeImmutableBuffer(pieces[2])
    var headers = HTTPFields(fixedHeaders)
    headers.append(HTTPField(name: .contentLength, value: String(body.readableBytes)))
    headers.append(HTTPField(name: .setCookie, value: "fieldwork_csrf=\(id); Path=/; HttpOnly; SameSite=Lax"))
    headers.append(HTTPField(name: requestIDName, value: hex(randomBytes(16))))
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
