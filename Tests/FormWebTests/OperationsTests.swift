import FormModel
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

/// `/health`, `/ready`, `/metrics`, the request id and the log line formats.
@Suite("Operations")
struct OperationsTests {
    static let form = Fixtures.schema([], id: "ops-notes", title: "New Note", object: "Note")
    static let token = "metrics-token-1"
    static let requestID = HTTPField.Name("X-Request-ID")!

    @Test("GET /health answers 200 ok, sets no cookie and carries the security headers")
    func health() async throws {
        try await TestApp.run(forms: []) { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "ok\n")
                #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
                #expect(response.headers[.setCookie] == nil)
                WebTests.expectSecurityHeaders(response)
            }
        }
    }

    @Test("GET /ready answers 200 when the database answers")
    func ready() async throws {
        try await TestApp.run(forms: []) { client in
            try await client.execute(uri: "/ready", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "ready\n")
                #expect(response.headers[.setCookie] == nil)
            }
        }
    }

    @Test("the readiness check is false by its timeout when the probe hangs, and false when it throws")
    func readinessTimeout() async throws {
        let hanging = Readiness(probe: { try await Task.sleep(for: .seconds(3600)) }, timeout: .milliseconds(200))
        let clock = ContinuousClock()
        let start = clock.now
        #expect(await hanging.check() == false)
        let waited = clock.now - start
        #expect(waited >= .milliseconds(200))
        // The timeout ended it, not the probe's hour, however busy the machine.
        #expect(waited < .seconds(600))

        struct Refused: Error {}
        #expect(await Readiness(probe: { throw Refused() }, timeout: .seconds(600)).check() == false)
        #expect(await Readiness(probe: {}, timeout: .seconds(600)).check() == true)
    }

    @Test("a sane X-Request-ID is echoed on the response, error pages included")
    func requestIDEchoed() async throws {
        try await TestApp.run(forms: []) { client in
            for uri in ["/health", "/no-such-page"] {
                try await client.execute(uri: uri, method: .get, headers: [Self.requestID: "edge-7f3a:42.b_c"]) {
                    #expect($0.headers[Self.requestID] == "edge-7f3a:42.b_c", "\(uri)")
                }
            }
        }
    }

    @Test("without a sane X-Request-ID every response gets a fresh id of its own")
    func requestIDGenerated() async throws {
        try await TestApp.run(forms: []) { client in
            var seen: Set<String> = []
            let bad = ["", "two words", "new\u{7F}line", String(repeating: "a", count: 65), "é"]
            for sent in [nil] + bad.map(Optional.some) {
                let headers: HTTPFields = sent.map { [Self.requestID: $0] } ?? [:]
                try await client.execute(uri: "/health", method: .get, headers: headers) { response in
                    let id = response.headers[Self.requestID] ?? ""
                    #expect(RequestIDMiddleware<AppRequestContext>.isSane(id), "\(id)")
                    #expect(id != sent)
                    seen.insert(id)
                }
            }
            #expect(seen.count == bad.count + 1)
        }
    }

    @Test(
        "the request's logger carries the request id, the incoming one or the generated one, and so do other loggers' lines"
    )
    func requestIDInLogger() async throws {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: RequestIDMiddleware())
        router.get("/id") { _, context -> String in
            // What the request's logger adds, then what the logging system's provider adds to any logger.
            let provided = RequestIDs.metadataProvider.get()["hb.request.id"]?.description ?? "none"
            return (context.logger[metadataKey: "hb.request.id"]?.description ?? "none") + " " + provided
        }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/id", method: .get, headers: [Self.requestID: "abc-123"]) { response in
                #expect(String(buffer: response.body) == "abc-123 abc-123")
            }
            try await client.execute(uri: "/id", method: .get) { response in
                let generated = try #require(response.headers[Self.requestID])
                #expect(String(buffer: response.body) == "\(generated) \(generated)")
            }
        }
        #expect(RequestIDs.metadataProvider.get().isEmpty)
    }

    @Test("GET /metrics is refused without the admin token or with a wrong one")
    func metricsRefused() async throws {
        try await TestApp.run(forms: [], adminToken: Self.token) { client in
            for headers: HTTPFields in [[:], [.authorization: "Bearer wrong"], [.authorization: "Basic \(Self.token)"]]
            {
                try await client.execute(uri: "/metrics", method: .get, headers: headers) { response in
                    #expect(response.status == .unauthorized)
                    #expect(!String(buffer: response.body).contains("http_requests_total"))
                }
            }
        }
        // No token configured: nobody gets in with a bearer token.
        try await TestApp.run(forms: []) { client in
            try await client.execute(
                uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(Self.token)"]
            ) { #expect($0.status == .unauthorized) }
        }
    }

    @Test("GET /metrics with the admin token serves Prometheus text: requests by route and status, latencies")
    func metricsServed() async throws {
        try await TestApp.run(forms: [(Self.form, .public)], adminToken: Self.token) { client in
            _ = try await client.execute(uri: "/forms/ops-notes/new", method: .get)
            _ = try await client.execute(uri: "/no-such-page", method: .get)
            let text = try await Self.metrics(client)
            #expect(text.contains("# TYPE http_requests_total counter"))
            #expect(text.contains(#"http_requests_total{route="/forms/{id}/new",method="GET",status="200"}"#))
            #expect(text.contains(#"route="NotFound",method="GET",status="404"}"#))
            #expect(text.contains("# TYPE http_request_duration_seconds histogram"))
            #expect(
                text.contains(
                    #"http_request_duration_seconds_bucket{route="/forms/{id}/new",method="GET",status="200",le="0.001"}"#
                ))
            #expect(text.contains("# TYPE fieldwork_cache_hits_total counter"))
            #expect(text.contains(#"fieldwork_cache_misses_total{cache="sessions"}"#))
        }
    }

    @Test("the counters move: a create, a refused create, a stored and a refused import")
    func countersMove() async throws {
        try await TestApp.run(forms: [(Self.form, .public)], users: AdminFixtures.users, adminToken: Self.token) {
            client in
            let created = #"fieldwork_objects_created_total"#
            let refused = #"fieldwork_submissions_refused_total{action="create"}"#
            let stored = #"fieldwork_imports_total{via="api",outcome="stored"}"#
            let refusedImport = #"fieldwork_imports_total{via="api",outcome="refused"}"#
            let before = try await Self.metrics(client)

            let browser = TestBrowser(client)
            #expect(try await browser.postJSON("/api/forms/ops-notes/objects", #"{"title":"One"}"#).status == .created)
            #expect(
                try await browser.postJSON("/api/forms/ops-notes/objects", #"{"title":""}"#).status
                    == .unprocessableContent)
            let headers: HTTPFields = [.contentType: "application/xml", .authorization: "Bearer \(Self.token)"]
            #expect(
                try await browser.send(
                    "/api/forms", method: .post, headers: headers, body: ByteBuffer(string: AdminFixtures.spec())
                ).status == .created)
            #expect(
                try await browser.send(
                    "/api/forms", method: .post, headers: headers, body: ByteBuffer(string: AdminFixtures.broken)
                ).status == .unprocessableContent)

            let after = try await Self.metrics(client)
            // Other suites run beside this one in the same process: at least one more, not exactly one.
            for series in [created, refused, stored, refusedImport] {
                let old = Self.value(series, in: before) ?? 0
                let new = try #require(Self.value(series, in: after), "\(series) missing")
                #expect(new >= old + 1, "\(series): \(old) -> \(new)")
            }
        }
    }

    @Test("the metrics facade counts cache hits and misses per cache")
    func cacheCounters() {
        func read(_ series: String) -> Double {
            Self.value(series, in: String(decoding: FieldworkMetrics.exposition(), as: UTF8.self)) ?? 0
        }
        let hits = read(#"fieldwork_cache_hits_total{cache="plans"}"#)
        let misses = read(#"fieldwork_cache_misses_total{cache="forms"}"#)
        FieldworkMetrics.cacheHit(.plans)
        FieldworkMetrics.cacheHit(.plans)
        FieldworkMetrics.cacheMiss(.forms)
        #expect(read(#"fieldwork_cache_hits_total{cache="plans"}"#) >= hits + 2)
        #expect(read(#"fieldwork_cache_misses_total{cache="forms"}"#) >= misses + 1)
    }

    @Test("a json log line is one JSON object with the fields, the metadata and escaped text")
    func jsonLine() throws {
        let line = StructuredLogHandler.line(
            format: .json, time: Date(timeIntervalSince1970: 1_700_000_000.25), level: .warning, label: "fieldwork",
            message: "Said \"no\"\nthen left\u{1}", source: "FormWeb",
            metadata: ["hb.request.id": "abc-123", "count": .stringConvertible(3), "list": .array(["a", "b"])])
        #expect(line.hasSuffix("}\n"))
        #expect(line.filter { $0 == "\n" }.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["time"] as? String == "2023-11-14T22:13:20.250Z")
        #expect(object["level"] as? String == "warning")
        #expect(object["label"] as? String == "fieldwork")
        #expect(object["message"] as? String == "Said \"no\"\nthen left\u{1}")
        #expect(object["source"] as? String == "FormWeb")
        #expect(object["hb.request.id"] as? String == "abc-123")
        #expect(object["count"] as? String == "3")
        #expect(object["list"] as? [String] == ["a", "b"])
    }

    @Test("a logfmt line quotes what would split it and keeps plain words bare")
    func logfmtLine() {
        let line = StructuredLogHandler.line(
            format: .logfmt, time: Date(timeIntervalSince1970: 1_700_000_000), level: .info, label: "fieldwork",
            message: "Created the admin account", source: "FormWeb",
            metadata: ["hb.request.id": "abc-123", "path": "/a b", "odd key=": "x=y\n"])
        #expect(
            line
                == #"time=2023-11-14T22:13:20.000Z level=info label=fieldwork msg="Created the admin account" hb.request.id=abc-123 odd_key_="x=y\n" path="/a b" source=FormWeb"#
                + "\n")
    }

    @Test("FIELDWORK_LOG_FORMAT picks the format; an unknown one stops the server at start")
    func logFormatSetting() async throws {
        #expect(FieldworkConfiguration.fromEnvironment([:]).logFormat == .text)
        #expect(FieldworkConfiguration.fromEnvironment(["FIELDWORK_LOG_FORMAT": "JSON"]).logFormat == .json)
        #expect(FieldworkConfiguration.fromEnvironment(["FIELDWORK_LOG_FORMAT": "logfmt"]).logFormat == .logfmt)
        var configuration = Fixtures.configuration(data: Fixtures.temporaryDataFolder())
        configuration.unknownLogFormat = "xml"
        await #expect(throws: FieldworkConfigurationError.self) { _ = try await buildApplication(configuration) }
    }

    /// `/metrics` read with the admin token.
    static func metrics(_ client: any TestClientProtocol) async throws -> String {
        let response = try await client.execute(
            uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(token)"])
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
        return String(buffer: response.body)
    }

    /// The value of one series (name with its labels, as printed) in Prometheus text.
    static func value(_ series: String, in text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }
}
