import Foundation
import Logging
import Synchronization
import Testing

@testable import FormWeb

/// Every sign-in that succeeds, is refused or is held leaves a `notice` line with the user name,
/// the client's address and the request id; never the password.
@Suite("Sign-in log")
struct SignInLogTests {
    /// A log handler that keeps every line.
    struct Keeper: LogHandler {
        struct Line: Sendable {
            var level: Logger.Level
            var message: String
            var metadata: [String: String]
        }

        let kept: Kept
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(
            level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String,
            function: String, line: UInt
        ) {
            let merged = self.metadata.merging(metadata ?? [:]) { $1 }.mapValues { "\($0)" }
            kept.lines.withLock { $0.append(Line(level: level, message: "\(message)", metadata: merged)) }
        }
    }

    final class Kept: Sendable {
        let lines = Mutex<[Keeper.Line]>([])
        var all: [Keeper.Line] { lines.withLock { $0 } }
    }

    @Test("a refusal, a hold and a success are logged at notice, with user, client and request id, never the password")
    func logged() async throws {
        let kept = Kept()
        try await TestApp.run(
            forms: [], users: [("ada", "lovelace-1815", false), ("bea", "bea's password 1", false)],
            configure: { configuration in
                configuration.logLevel = .notice
                configuration.logger = Logger(label: "fieldwork-test") { _ in Keeper(kept: kept) }
            }
        ) { client in
            let browser = TestBrowser(client)
            let login = try await browser.get("/login")
            for _ in 1...6 {
                _ = try await browser.post(
                    "/login", [("_csrf", login.csrf ?? ""), ("name", "ada"), ("password", "guess-number-1")])
            }
            let other = TestBrowser(client)
            let page = try await other.get("/login")
            _ = try await other.post(
                "/login", [("_csrf", page.csrf ?? ""), ("name", "ada2"), ("password", "guess-number-1")])
            try await TestBrowser(client).signIn("bea", password: "bea's password 1")
        }
        let lines = kept.all.filter { $0.metadata["user"] != nil }
        let refused = lines.filter { $0.message == "Sign-in refused: wrong user name or password" }
        let held = lines.filter { $0.message == "Sign-in held back" }
        #expect(refused.count == 5 + 1, "five for ada, one for ada2")
        #expect(held.count == 1)
        let succeeded = lines.filter { $0.message == "Sign-in succeeded" }
        #expect(succeeded.map { $0.metadata["user"] } == ["bea"])
        #expect(lines.allSatisfy { $0.level == .notice && $0.metadata["client"] != nil })
        #expect(lines.allSatisfy { $0.metadata[RequestIDMiddleware<AppRequestContext>.metadataKey] != nil })
        #expect(
            !kept.all.contains { line in
                line.message.contains("guess-number-1")
                    || line.metadata.values.contains { $0.contains("guess-number-1") }
            })
    }
}
