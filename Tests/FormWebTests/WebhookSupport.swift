import Crypto
import FormModel
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import TestSupport
import Testing

@testable import FormService
@testable import FormStore
@testable import FormWeb

/// A webhook receiver on a real loopback port: answers each POST to `/hooks` as its script says
/// (a status, or no answer for a while), and keeps every request it got.
final class WebhookReceiver: Sendable {
    enum Answer: Sendable {
        case status(Int)
        /// Answers 504 only once ``release()`` is called (or after five minutes): whatever the
        /// worker's time limit, it gives up first.
        case hang
    }

    struct Received: Sendable {
        var id: String
        var timestamp: String
        var signature: String
        var body: [UInt8]
        var answered: Int

        var text: String { String(decoding: body, as: UTF8.self) }
    }

    private let script: Mutex<[Answer]>
    private let log = Mutex<[Received]>([])
    private let released = Mutex(false)
    /// The answer once the script is used up.
    let otherwise: Answer

    init(script: [Answer] = [], otherwise: Answer = .status(204)) {
        self.script = Mutex(script)
        self.otherwise = otherwise
    }

    var received: [Received] { log.withLock { $0 } }

    /// Ends every hang, now and later.
    func release() { released.withLock { $0 = true } }

    /// Runs `test` with the receiver listening; its URL is `http://127.0.0.1:PORT/hooks`.
    func run(_ test: @escaping @Sendable (String) async throws -> Void) async throws {
        let router = Router()
        router.post("hooks") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let answer = self.script.withLock { $0.isEmpty ? self.otherwise : $0.removeFirst() }
            var status = 504
            if case .status(let code) = answer { status = code }
            // Logged as it arrives: a request whose sender gave up still reached the receiver.
            self.log.withLock {
                $0.append(
                    Received(
                        id: request.headers[HTTPField.Name("webhook-id")!] ?? "",
                        timestamp: request.headers[HTTPField.Name("webhook-timestamp")!] ?? "",
                        signature: request.headers[HTTPField.Name("webhook-signature")!] ?? "",
                        body: Array(buffer: body), answered: status))
            }
            if case .hang = answer {
                let end = ContinuousClock.now + .seconds(300)
                while !self.released.withLock({ $0 }), ContinuousClock.now < end {
                    try await Task.sleep(for: .milliseconds(10))
                }
            }
            return Response(status: .init(code: status))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await test("http://127.0.0.1:\(try #require(client.port))/hooks")
        }
    }

    /// Waits until `count` requests came (``Fixtures/eventually(_:within:_:)``).
    func waitFor(_ count: Int) async throws {
        try await Fixtures.eventually("the receiver got \(count) requests") { received.count >= count }
    }

    /// Whether a request's signature is the HMAC-SHA256 of `id.timestamp.body` with the secret's key.
    static func verifies(_ received: Received, secret: String) -> Bool {
        guard let key = Data(base64Encoded: String(secret.dropFirst("whsec_".count))) else { return false }
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data("\(received.id).\(received.timestamp).".utf8) + Data(received.body),
            using: SymmetricKey(data: key))
        return received.signature == "v1," + Data(mac).base64EncodedString()
    }
}

/// Webhooks below HTTP: a store, a worker on an injected clock, objects written through the use case.
enum WebhookFixtures {
    static let form = Fixtures.schema([Field(name: "note", kind: .text, label: "Note")], id: "hooked")

    static func webhooks(_ database: FieldworkDatabase, data: URL) throws -> Webhooks {
        let sealing = try SealingKey.load(environment: nil, dataFolder: data)
        return Webhooks(store: WebhookStore(database: database, sealing: sealing), wakeup: WebhookWakeup())
    }

    /// A clock a few seconds ahead of now: the events written before it are due on it. Make it
    /// after the writes: events are stamped with the system's time.
    static func clock() -> TestClock {
        let clock = TestClock()
        clock.advance(by: Date().timeIntervalSince(clock.now) + 5)
        return clock
    }

    /// A worker with its own HTTP client on `clock`, on `database`. Its time limit is what a
    /// machine busy with the whole suite needs to answer a request: every receiver that is meant
    /// to answer does; one meant not to hangs until released.
    static func worker(
        _ webhooks: Webhooks, http: ServiceHTTPClient, clock: TestClock, timeLimit: Duration = .seconds(20)
    ) -> WebhookDeliveryService {
        WebhookDeliveryService(
            store: webhooks.store, sender: WebhookSender(http: http, timeLimit: timeLimit), wakeup: webhooks.wakeup,
            logger: Fixtures.logger, now: { clock.now })
    }

    /// Registers an endpoint for ``form``; its secret.
    static func register(
        _ webhooks: Webhooks, url: String, events: [String] = ["created", "updated", "deleted"],
        formID: String = form.id
    ) async throws -> String {
        guard
            case .registered(_, let secret) = try await webhooks.register(
                formID: formID, url: url, events: events, by: "test")
        else {
            Issue.record("the endpoint was refused")
            return ""
        }
        return secret
    }

    /// Creates an object of ``form`` with its events, as ``ObjectSubmissions`` does.
    @discardableResult
    static func create(
        _ database: FieldworkDatabase, _ webhooks: Webhooks, title: String = "Hooked"
    )
        async throws -> StoredObject
    {
        let announce = try await webhooks.announcing(.created, formID: form.id)
        let object = try await database.objects.create(
            formID: form.id, version: 1, values: ["title": .text(title)], keyText: title, creator: .browser("b"),
            alongside: announce)
        if announce != nil { webhooks.committed() }
        return object
    }

    static func events(_ database: FieldworkDatabase) async throws -> [WebhookEventRecord] {
        try await WebhookEventRecord.query(on: database.database()).sort(\.$createdAt).all()
    }
}
