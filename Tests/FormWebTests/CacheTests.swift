import FluentKit
import FormModel
import Foundation
import SQLKit
import Synchronization
import TestSupport
import Testing

@testable import FormPages
@testable import FormStore
@testable import FormWeb

@Suite("Caches")
struct CacheTests {
    @Test("an LRU cache keeps at most its capacity, dropping the least recently used")
    func lru() {
        var cache = LRUCache<Int, String>(capacity: 4)
        for key in 1...4 { cache.set("\(key)", for: key) }
        #expect(cache.value(for: 1) == "1")  // 1 is now the most recent
        cache.set("5", for: 5)
        #expect(cache.count <= 4)
        #expect(cache.value(for: 2) == nil, "the least recently used went first")
        #expect(cache.value(for: 1) == "1" && cache.value(for: 5) == "5")
        cache.removeAll { key, _ in key == 5 }
        #expect(cache.value(for: 5) == nil)
    }

    /// Two "instances" on one database (SQLite, or PostgreSQL with `FIELDWORK_TEST_POSTGRES`),
    /// each with its own caches and change feed, as two server processes have.
    static func twoInstances(
        _ test: (FieldworkDatabase, FieldworkDatabase) async throws -> Void
    ) async throws {
        try await TestDatabases.run(instances: 2) { _, databases in
            for database in databases { try await database.feed.catchUp(on: database.database()) }
            try await test(databases[0], databases[1])
        }
    }

    @Test("a form's access, state or new version changed on one instance reaches the other's cache by the feed")
    func formHeads() async throws {
        try await Self.twoInstances { a, b in
            try await a.forms.store(Fixtures.importResult([Fixtures.schema([Field(name: "note", kind: .text)])]))
            let id = Fixtures.schema([]).id
            let headsA = CachedFormHeads(a.forms, feed: a.feed)
            let headsB = CachedFormHeads(b.forms, feed: b.feed)
            #expect(try await headsB.latest(formID: id)?.state == .active)
            try await a.forms.setState(.retired, formID: id)
            #expect(try await headsA.latest(formID: id)?.state == .retired, "at once where it changed")
            #expect(try await headsB.latest(formID: id)?.state == .active, "cached until the feed is read")
            #expect(try await b.feed.catchUp(on: b.database()) >= 1)
            #expect(try await headsB.latest(formID: id)?.state == .retired)
            #expect(
                try await a.feed.catchUp(on: a.database()) == 0,
                "applied once where it changed: reading its own rows back drops nothing again")
            try await a.forms.setAccess(.public, formID: id)
            try await a.forms.store(Fixtures.importResult([Fixtures.schema([Field(name: "other", kind: .text)])]))
            try await b.feed.catchUp(on: b.database())
            let head = try #require(try await headsB.latest(formID: id))
            #expect(head.version == 2 && head.access == .public)
        }
    }

    @Test("the form list follows an import, an access change and a retirement made on another instance")
    func formList() async throws {
        try await Self.twoInstances { a, b in
            let first = Fixtures.schema([], id: "first")
            try await a.forms.store(Fixtures.importResult([first]))
            let listB = CachedFormHeads(b.forms, feed: b.feed)
            #expect(try await listB.list().map(\.id) == ["first"])
            try await a.forms.store(Fixtures.importResult([Fixtures.schema([], id: "second", title: "Second")]))
            try await a.forms.setAccess(.public, formID: "first")
            #expect(try await listB.list().map(\.id) == ["first"], "cached until the feed is read")
            try await b.feed.catchUp(on: b.database())
            let listed = try await listB.list()
            #expect(listed.map(\.id) == ["first", "second"])
            #expect(listed.first?.access == .public && listed.last?.title == "Second")
            try await a.forms.setState(.retired, formID: "second")
            try await b.feed.catchUp(on: b.database())
            #expect(try await listB.list().last?.state == .retired)
        }
    }

    @Test("a sign-out, a password reset or a deleted account on one instance ends the session on the other")
    func sessions() async throws {
        try await Self.twoInstances { a, b in
            let usersA = try await UserStore(database: a, hasher: PasswordHasher(cost: 4))
            let usersB = try await UserStore(database: b, hasher: PasswordHasher(cost: 4))
            let driverA = DatabasePersistDriver(database: a)
            let driverB = DatabasePersistDriver(database: b)
            let account = try await usersA.create(name: "kim", password: "a long enough password", isAdmin: false)
            let value = ["userID": account.id.uuidString]
            try await driverA.create(key: "s.one", value: value, expires: .seconds(600))
            try await driverA.create(key: "s.two", value: value, expires: .seconds(600))
            #expect(try await driverB.get(key: "s.one", as: [String: String].self) == value)
            #expect(try await driverB.get(key: "s.two", as: [String: String].self) == value)
            #expect(try await usersB.account(id: account.id)?.name == "kim")

            try await driverA.remove(key: "s.one")
            #expect(try await driverA.get(key: "s.one", as: [String: String].self) == nil)
            #expect(try await driverB.get(key: "s.one", as: [String: String].self) == value, "cached until the feed")
            try await b.feed.catchUp(on: b.database())
            #expect(try await driverB.get(key: "s.one", as: [String: String].self) == nil)

            try await usersA.setPassword("another long password", for: account.id)
            try await b.feed.catchUp(on: b.database())
            #expect(try await driverB.get(key: "s.two", as: [String: String].self) == nil)
            #expect(try await usersB.account(id: account.id)?.name == "kim", "read again, and cached")

            try await usersA.delete(id: account.id)
            #expect(try await usersB.account(id: account.id)?.name == "kim", "cached until the feed")
            try await b.feed.catchUp(on: b.database())
            #expect(try await usersB.account(id: account.id) == nil)
        }
    }

    @Test(
        "in the steady state the form list, the create view, a refused create and a signed-in page read nothing from the database"
    )
    func steadyState() async throws {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let form = Fixtures.schema([Field(name: "note", kind: .text, label: "Note", required: true)])
        let open = Fixtures.schema([], id: "open-form", title: "New Open Thing")
        let feed = Mutex<ChangeFeed?>(nil)
        try await TestApp.run(
            forms: [(form, .users), (open, .public)], data: data, keepData: true,
            users: [("kim", "a long enough password", false)],
            configure: { $0.onChangeFeed = { made in feed.withLock { $0 = made } } }
        ) { client in
            let browser = TestBrowser(client)
            let visitor = TestBrowser(client)
            try await browser.signIn("kim", password: "a long enough password")
            let other = try await FieldworkDatabase.open(
                Fixtures.configuration(data: data).store, logger: Fixtures.logger)
            // The steady state comes once the instance's change feed has read every change made
            // so far (its start's and the sign-in's among them), each dropping what it made
            // stale. The feed reads in order: once a change made now by another instance shows,
            // every earlier one has been read. Waited for, however long a busy machine takes.
            try await other.forms.setAccess(.users, formID: open.id)
            try await Fixtures.eventually("the feed reads the access change") {
                !(try await visitor.get("/").body.contains("New Open Thing"))
            }
            try await other.forms.setAccess(.public, formID: open.id)
            try await Fixtures.eventually("the feed reads the access change back") {
                try await visitor.get("/").body.contains("New Open Thing")
            }
            // A page that shows a change may have read it from the database on a miss before the
            // feed did; the feed reading it later drops what was read meanwhile. So: wait until
            // this instance's feed has read every change made so far.
            let newest = try await other.feed.newest(on: other.database())
            try await Fixtures.eventually("the instance's feed reads every change so far") {
                (feed.withLock { $0 }?.lastRead ?? 0) >= newest
            }
            _ = try await browser.get("/forms/\(form.id)/new")
            // The form is for signed-in users: a 200 (not a 303 to /login) means the session counted.
            let warm = try await browser.get("/forms/\(form.id)/new")
            #expect(warm.status == .ok)
            #expect(try await browser.get("/").status == .ok)
            // Hide the tables the hot path would read: if it read them, these requests would fail.
            let sql = try #require(other.database() as? any SQLDatabase)
            for table in ["forms", "form_versions", "sessions", "users"] {
                try await sql.raw("ALTER TABLE \(ident: table) RENAME TO \(ident: table + "_hidden")").run()
            }
            do {
                let view = try await browser.get("/forms/\(form.id)/new")
                #expect(view.status == .ok, "\(view.body.prefix(3000))")
                let refused = try await browser.post("/forms/\(form.id)", [("_csrf", view.csrf ?? "")])
                #expect(refused.status == .unprocessableContent)
                // One cached list, filtered for each viewer: users' forms for the signed-in only.
                let list = try await browser.get("/")
                #expect(list.status == .ok, "\(list.body.prefix(3000))")
                #expect(list.body.contains(#"href="/forms/\#(form.id)""#) && list.body.contains("New Open Thing"))
                let visitorList = try await visitor.get("/")
                #expect(visitorList.status == .ok)
                #expect(!visitorList.body.contains(#"href="/forms/\#(form.id)""#))
                #expect(visitorList.body.contains("New Open Thing"))
            } catch {
                Issue.record(error)
            }
            for table in ["forms", "form_versions", "sessions", "users"] {
                try await sql.raw("ALTER TABLE \(ident: table + "_hidden") RENAME TO \(ident: table)").run()
            }
            await other.shutdown()
        }
    }

    @Test(
        "an import, an access change and a retirement made by another instance show on the form list without a restart")
    func formListFreshness() async throws {
        let data = Fixtures.temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let open = Fixtures.schema([], id: "open-form", title: "New Open Thing")
        try await TestApp.run(forms: [(open, .public)], data: data, keepData: true) { client in
            let visitor = TestBrowser(client)
            #expect(try await visitor.get("/").body.contains("New Open Thing"))
            let other = try await FieldworkDatabase.open(
                Fixtures.configuration(data: data).store, logger: Fixtures.logger)
            do {
                /// Reads `/` until `shows` holds: the change feed is read every 250 ms, but how soon
                /// is the machine's business; only a change that never shows fails.
                func eventually(_ what: String, _ shows: @escaping (String) -> Bool) async throws {
                    try await Fixtures.eventually("the form list shows \(what)") {
                        shows(try await visitor.get("/").body)
                    }
                }
                let added = Fixtures.schema([], id: "added-form", title: "New Added Thing")
                try await other.forms.store(Fixtures.importResult([added]), access: .public)
                try await eventually("the import") { $0.contains("New Added Thing") }
                try await other.forms.setAccess(.users, formID: added.id)
                try await eventually("the access change") { !$0.contains("New Added Thing") }
                try await other.forms.setState(.retired, formID: open.id)
                try await eventually("the retirement") { !$0.contains("New Open Thing") }
            } catch {
                await other.shutdown()
                throw error
            }
            await other.shutdown()
        }
    }
}

@Suite("Async lock")
struct AsyncLockTests {
    actor Gauge {
        var inside = 0
        var most = 0
        func enter() {
            inside += 1
            most = max(most, inside)
        }
        func leave() { inside -= 1 }
    }

    @Test("one holder at a time, and every waiter gets its turn")
    func exclusive() async {
        let lock = AsyncLock()
        let gauge = Gauge()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    await lock.lock()
                    await gauge.enter()
                    await Task.yield()
                    await gauge.leave()
                    await lock.unlock()
                }
            }
        }
        #expect(await gauge.most == 1)
        #expect(await gauge.inside == 0)
    }
}
