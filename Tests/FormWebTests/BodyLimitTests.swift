import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

@testable import FormWeb

/// A body that says it is longer than its route takes is refused at once, unread: 413.
@Suite("Declared bodies over the limit")
struct BodyLimitTests {
    static let form = Fixtures.schema([], id: "notes", title: "New Note", object: "Note")

    /// Sends a request head over a real connection, no body, and returns the status line of the
    /// answer: the server must answer without waiting for the body it was promised. Blocking
    /// socket calls, on a Dispatch thread (never one of the suite's task threads).
    static func statusLine(port: Int, head: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try blockingStatusLine(port: port, head: head) })
            }
        }
    }

    struct SocketFailure: Error {}

    private static func blockingStatusLine(port: Int, head: String) throws -> String {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw SocketFailure() }
        defer { close(socket) }
        // A minute at most for the answer: far more than an answer takes, far less than a 2 GB body.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw SocketFailure() }
        let bytes = Array(head.utf8)
        guard send(socket, bytes, bytes.count, 0) == bytes.count else { throw SocketFailure() }
        var answer = [UInt8](repeating: 0, count: 512)
        let read = recv(socket, &answer, answer.count, 0)
        guard read > 0 else { throw SocketFailure() }
        return String(decoding: answer[..<read], as: UTF8.self).components(separatedBy: "\r\n")[0]
    }

    @Test("sign-in, the JSON API and the admin import refuse a declared 2 GB body at once with 413")
    func declaredTooLarge() async throws {
        try await TestApp.run(forms: [(Self.form, .public)], adminToken: "s3cret-token", live: true) { client in
            let port = try #require(client.port)
            for (path, type, extra) in [
                ("/login", "application/x-www-form-urlencoded", ""),
                ("/api/forms/notes/objects", "application/json", ""),
                ("/api/forms", "application/xml", "Authorization: Bearer s3cret-token\r\n"),
            ] {
                let head =
                    "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \(type)\r\n\(extra)"
                    + "Content-Length: 2000000000\r\n\r\n"
                let status = try await Self.statusLine(port: port, head: head)
                #expect(status.hasPrefix("HTTP/1.1 413 "), "\(path): \(status)")
            }
        }
    }
}
