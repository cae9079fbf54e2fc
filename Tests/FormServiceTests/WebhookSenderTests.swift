import Crypto
import Foundation
import Testing

@testable import FormService

/// Webhook signatures, the retry schedule, and deliveries to a real HTTP server on loopback.
@Suite("Webhook deliveries")
struct WebhookSenderTests {
    @Test("a delivery is signed as the Standard Webhooks specification's own example is")
    func specificationVector() {
        // The example the specification's libraries test against.
        let signature = WebhookSignature.sign(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: Array(#"{"test": 2432232314}"#.utf8),
            secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        #expect(WebhookSignature.sign(id: "msg_1", timestamp: 1, body: [UInt8](), secret: "MfKQ9r8GKYqr") == nil)
    }

    @Test("a new secret is whsec_ and the base64 of 32 random bytes, different every time")
    func newSecret() {
        let secret = WebhookSignature.newSecret()
        #expect(secret.hasPrefix("whsec_"))
        #expect(Data(base64Encoded: String(secret.dropFirst(6)))?.count == 32)
        #expect(secret != WebhookSignature.newSecret())
    }

    @Test("the first retry comes within 10 s, later ones at most an hour apart, and none after 24 hours")
    func schedule() {
        let schedule = WebhookSchedule()
        let since = Date(timeIntervalSince1970: 1_800_000_000)
        // The longest waits (the jitter at its top): 10 s, 20 s, 40 s … then an hour, never more.
        #expect(schedule.wait(afterFailures: 1, random: 1) == 10)
        #expect(schedule.wait(afterFailures: 2, random: 1) == 20)
        #expect(schedule.wait(afterFailures: 3, random: 1) == 40)
        #expect(schedule.wait(afterFailures: 9, random: 1) == 2560)
        #expect(schedule.wait(afterFailures: 10, random: 1) == 3600)
        #expect(schedule.wait(afterFailures: 500, random: 1) == 3600)
        // Full jitter: anywhere under the cap, but never at once.
        #expect(schedule.wait(afterFailures: 6, random: 0.5) == 160)
        #expect(schedule.wait(afterFailures: 6, random: 0) == 1)
        #expect(schedule.next(afterFailures: 1, since: since, now: since, random: 1) == since.addingTimeInterval(10))
        // Near the end of the window the last try is at its end; at the end, none.
        let late = since.addingTimeInterval(24 * 3600 - 60)
        #expect(
            schedule.next(afterFailures: 30, since: since, now: late, random: 1) == since.addingTimeInterval(24 * 3600))
        #expect(
            schedule.next(afterFailures: 31, since: since, now: since.addingTimeInterval(24 * 3600), random: 0) == nil)
        // Every wait over a whole day of failures keeps to the bounds.
        var now = since
        var failures = 0
        while let next = schedule.next(afterFailures: failures + 1, since: since, now: now) {
            failures += 1
            #expect(next.timeIntervalSince(now) <= (failures == 1 ? 10 : 3600))
            now = next
        }
        #expect(now == since.addingTimeInterval(24 * 3600))
        #expect((20...200).contains(failures))
    }

    @Test("a delivery is a signed JSON POST whose signature verifies over id, timestamp and body")
    func signedPost() async throws {
        let secret = WebhookSignature.newSecret()
        try await TestServer.with({ _ in .init(204) }) { server in
            let http = ServiceHTTPClient()
            let sender = WebhookSender(http: http)
            let body = #"{"type":"object.created","data":{"id":"1"}}"#
            let at = Date(timeIntervalSince1970: 1_800_000_123)
            let attempt = await sender.send(
                WebhookMessage(id: "msg_abc", url: "\(server.base)/hooks", secret: secret, body: body), at: at)
            try await http.shutdown()
            #expect(attempt.delivered && attempt.status == 204)
            let request = try #require(server.requests.first)
            #expect(request.method == "POST" && request.uri == "/hooks")
            #expect(request.header("content-type") == "application/json")
            #expect(request.header("webhook-id") == "msg_abc")
            #expect(request.header("webhook-timestamp") == "1800000123")
            #expect(request.text == body)
            // Checked with the key and the bytes received, as a receiver does.
            let key = SymmetricKey(data: Data(base64Encoded: String(secret.dropFirst(6)))!)
            let mac = HMAC<SHA256>.authenticationCode(
                for: Data("msg_abc.1800000123.".utf8) + Data(request.body), using: key)
            #expect(request.header("webhook-signature") == "v1," + Data(mac).base64EncodedString())
        }
    }

    @Test("a redirect is not followed and counts as not delivered")
    func redirect() async throws {
        try await TestServer.with({ request in
            request.uri == "/elsewhere" ? .init(200) : .init(302, headers: [("Location", "/elsewhere")])
        }) { server in
            let http = ServiceHTTPClient()
            let attempt = await WebhookSender(http: http).send(
                WebhookMessage(
                    id: "msg_r", url: "\(server.base)/hooks", secret: WebhookSignature.newSecret(), body: "{}"))
            try await http.shutdown()
            #expect(attempt.status == 302 && !attempt.delivered)
            #expect(server.requests.map(\.uri) == ["/hooks"])
        }
    }

    @Test("an answer is read only up to 64 KB and kept as a short excerpt on one line")
    func largeAnswer() async throws {
        let large = "line one\nline two " + String(repeating: "x", count: 1 << 20)
        try await TestServer.with({ _ in .init(500, body: large, chunked: true) }) { server in
            let http = ServiceHTTPClient()
            let attempt = await WebhookSender(http: http).send(
                WebhookMessage(id: "msg_l", url: "\(server.base)/", secret: WebhookSignature.newSecret(), body: "{}"))
            try await http.shutdown()
            #expect(attempt.status == 500 && !attempt.delivered)
            #expect(attempt.answer.hasPrefix("line one line two xxx"))
            #expect(attempt.answer.count == WebhookSender.excerptLimit + 1)
        }
    }

    @Test("an attempt that gets no answer within its time limit ends then, with what happened")
    func timeLimit() async throws {
        try await TestServer.with({ _ in .init(200, delay: .seconds(3600)) }) { server in
            let http = ServiceHTTPClient()
            let started = ContinuousClock.now
            let attempt = await WebhookSender(http: http, timeLimit: .milliseconds(300)).send(
                WebhookMessage(id: "msg_t", url: "\(server.base)/", secret: WebhookSignature.newSecret(), body: "{}"))
            // Ended by its own limit, not by the answer an hour later, however busy the machine.
            #expect(ContinuousClock.now - started < .seconds(600))
            try await http.shutdown()
            #expect(attempt.status == nil && !attempt.delivered)
            #expect(attempt.answer == "No answer within the time limit.")
        }
    }

    @Test("a receiver nobody answers at is recorded as refused, not thrown")
    func refused() async throws {
        let http = ServiceHTTPClient()
        let attempt = await WebhookSender(http: http).send(
            WebhookMessage(id: "msg_n", url: "http://127.0.0.1:1/", secret: WebhookSignature.newSecret(), body: "{}"))
        try await http.shutdown()
        #expect(attempt.status == nil)
        #expect(attempt.answer == "127.0.0.1:1 refused the connection.", "\(attempt.answer)")
    }
}
