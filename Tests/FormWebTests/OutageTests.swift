import AsyncKit
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

@Suite("Database outage")
struct OutageTests {
    struct Failure: Error {}

    /// A router answering errors with the error pages, as the app's does.
    static func router() async throws -> Router<BasicRequestContext> {
        let renderer = try await Fixtures.renderer()
        let router = Router()
        router.add(
            middleware: ErrorPageMiddleware(
                notFound: try renderer.notFoundPage(), gone: try renderer.gonePage(),
                unavailable: try renderer.unavailablePage(), renderer: renderer))
        return router
    }

    @Test("a request the database cannot serve answers 503 with Retry-After: a page, or JSON under /api")
    func unavailable() async throws {
        let router = try await Self.router()
        router.get("/page") { _, _ -> String in throw ConnectionPoolTimeoutError.connectionRequestTimeout }
        router.group("api").add(middleware: APIErrorMiddleware()).get("thing") { _, _ -> String in
            throw IOError(errnoCode: ECONNREFUSED, reason: "connect")
        }
        router.get("/broken") { _, _ -> String in throw Failure() }
        let app = Application(router: router)
        try await app.test(.router) { client in
            try await client.execute(uri: "/page", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "5")
                #expect(String(buffer: response.body).contains("may not have been saved"))
            }
            try await client.execute(uri: "/api/thing", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body).contains(#""error":"the database is unavailable"#))
            }
            try await client.execute(uri: "/broken", method: .get) { response in
                #expect(response.status == .internalServerError, "other failures are not called an outage")
            }
        }
    }

    @Test("a read whose connection was dropped under it (PostgreSQL restarted) is read once more; a write is not")
    func droppedConnection() async throws {
        let router = try await Self.router()
        let calls = Calls()
        router.get("/page") { _, _ -> String in
            guard await calls.next() > 1 else { throw ChannelError.ioOnClosedChannel }
            return "read"
        }
        router.post("/page") { _, _ -> String in
            _ = await calls.next()
            throw ChannelError.ioOnClosedChannel
        }
        router.group("api").add(middleware: APIErrorMiddleware()).get("thing") { _, _ -> String in
            _ = await calls.next()
            throw IOError(errnoCode: ECONNREFUSED, reason: "connect")
        }
        let app = Application(router: router)
        try await app.test(.router) { client in
            try await client.execute(uri: "/page", method: .get) { response in
                #expect(response.status == .ok)
            }
            #expect(await calls.count == 2)
            try await client.execute(uri: "/page", method: .post) { response in
                #expect(response.status == .serviceUnavailable, "a write may have been done: never sent twice")
            }
            #expect(await calls.count == 3)
            try await client.execute(uri: "/api/thing", method: .get) { response in
                #expect(response.status == .serviceUnavailable, "a database still down answers at once")
            }
            #expect(await calls.count == 4)
        }
        #expect(DatabaseOutage.isDroppedConnection(ChannelError.ioOnClosedChannel))
        #expect(!DatabaseOutage.isDroppedConnection(ConnectionPoolTimeoutError.connectionRequestTimeout))
        #expect(!DatabaseOutage.isDroppedConnection(Failure()))
    }

    actor Calls {
        var count = 0
        func next() -> Int {
            count += 1
            return count
        }
    }

    @Test(
        "a create refused by a used key, whose lookup of the first create finds the database gone, answers the outage")
    func lookupAfterFailedCreate() async throws {
        let keyTaken = Failure()
        let outage = IOError(errnoCode: ECONNREFUSED, reason: "connect")
        // The database went away between the refused insert and the lookup: 503, not 500.
        await #expect(throws: IOError.self) {
            _ = try await ObjectSubmissions.afterFailedCreate(keyTaken) { throw outage }
        }
        // The create itself met the outage: nothing is looked up.
        var looked = false
        await #expect(throws: IOError.self) {
            _ = try await ObjectSubmissions.afterFailedCreate(outage) {
                looked = true
                return .keyReused
            }
        }
        #expect(!looked)
        // Any other failed lookup, or no first create, leaves the create's own error.
        await #expect(throws: Failure.self) {
            _ = try await ObjectSubmissions.afterFailedCreate(keyTaken) { throw CancellationError() }
        }
        await #expect(throws: Failure.self) {
            _ = try await ObjectSubmissions.afterFailedCreate(keyTaken) { nil }
        }
        let found = try await ObjectSubmissions.afterFailedCreate(keyTaken) { .keyReused }
        guard case .keyReused = found else {
            Issue.record("the first create's answer is returned")
            return
        }
    }
}
