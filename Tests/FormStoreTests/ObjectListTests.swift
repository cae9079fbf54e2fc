import FluentKit
import FormModel
import Foundation
import SQLKit
import TestSupport
import Testing

@testable import FormStore

/// The parent page's keyset pages and the admin's forms list, below HTTP, on SQLite (and on
/// PostgreSQL when `FIELDWORK_TEST_POSTGRES` is set).
@Suite("Lists paged by keyset")
struct ObjectListTests {
    /// Who sees which objects: an admin, a signed-in account with anonymous objects of its own
    /// browser too, an anonymous browser, another account.
    struct Viewers {
        let bea: UUID
        let other: UUID
        var admin: OwnerFilter { .everyone }
        var beaSignedIn: OwnerFilter { .createdBy(account: bea, browser: "browser-bea") }
        var anonymous: OwnerFilter { .createdBy(account: nil, browser: "browser-anon") }
        var otherSignedIn: OwnerFilter { .createdBy(account: other, browser: "browser-other") }
    }

    /// Stores 64 objects of `notes` (and 5 of `else`) by four creators, interleaved, their
    /// creation times set to one of a few instants with a fraction below a microsecond, so that
    /// ties cross every page boundary; returns the viewers and each one's objects.
    static func seed(_ database: FieldworkDatabase) async throws -> (Viewers, [OwnerFilter: Set<UUID>]) {
        for id in ["notes", "else"] {
            try await database.forms.store(Fixtures.importResult([Fixtures.schema([], id: id, title: "New \(id)")]))
        }
        let users = try await UserStore(database: database, hasher: PasswordHasher(cost: 4))
        let viewers = Viewers(
            bea: try await users.create(name: "bea", password: "password-bea", isAdmin: false).id,
            other: try await users.create(name: "other", password: "password-other", isAdmin: false).id)
        let creators: [(Creator, count: Int, seenBy: [OwnerFilter])] = [
            (.account(viewers.bea), 23, [viewers.beaSignedIn]),
            (.browser("browser-bea"), 17, [viewers.beaSignedIn]),
            (.browser("browser-anon"), 13, [viewers.anonymous]),
            (.account(viewers.other), 11, [viewers.otherSignedIn]),
        ]
        var seen: [OwnerFilter: Set<UUID>] = [:]
        var made: [UUID] = []
        for round in 0..<23 {
            for (creator, count, seenBy) in creators where round < count {
                let object = try await database.objects.create(
                    formID: "notes", version: 1, values: [:], keyText: "note \(made.count)", creator: creator)
                made.append(object.id)
                for viewer in seenBy + [viewers.admin] { seen[viewer, default: []].insert(object.id) }
            }
        }
        for n in 0..<5 {
            _ = try await database.objects.create(
                formID: "else", version: 1, values: [:], keyText: "else \(n)", creator: .browser("browser-anon"))
        }
        let sql = try #require(database.database() as? any SQLDatabase)
        for (index, id) in made.enumerated() {
            let instant = Date(timeIntervalSince1970: 1_700_000_000.123_456_789 + Double(index / 6))
            try await sql.raw("UPDATE objects SET created_at = \(bind: instant) WHERE id = \(bind: id)").run()
        }
        return (viewers, seen)
    }

    /// The viewer's objects of `notes` in the list's order, from one query without keyset or limit.
    static func everyObject(
        _ database: FieldworkDatabase, _ owners: OwnerFilter
    ) async throws -> [UUID] {
        let sql = try #require(database.database() as? any SQLDatabase)
        var query = ObjectStore.listQuery(
            formID: "notes", visibleTo: owners, direction: .after, from: nil, limit: 1_000, sqlite: database.usesSQLite)
        query = "SELECT id FROM (\(query)) AS listed"
        return try await sql.raw(query).all().map { try $0.decode(column: "id", as: UUID.self) }
    }

    @Test(
        "following the older links walks every object a viewer may see exactly once, newest first, ties included; the newer links walk back"
    )
    func walk() async throws {
        try await TestDatabases.run { _, databases in
            let database = databases[0]
            let (viewers, seen) = try await Self.seed(database)
            for owners in [viewers.admin, viewers.beaSignedIn, viewers.anonymous, viewers.otherSignedIn] {
                let expected = try #require(seen[owners])
                var forward: [UUID] = []
                var pages: [ObjectPage] = []
                var page = try await database.objects.page(formID: "notes", visibleTo: owners, size: 5)
                #expect(page.before == nil)
                while true {
                    pages.append(page)
                    forward += page.items.map(\.id)
                    guard let older = page.after else { break }
                    page = try await database.objects.page(formID: "notes", visibleTo: owners, from: older, size: 5)
                }
                #expect(forward.count == expected.count, "\(owners)")
                #expect(Set(forward) == expected, "\(owners)")
                #expect(forward == (try await Self.everyObject(database, owners)), "\(owners)")
                #expect(pages.count == (expected.count + 4) / 5)
                #expect(pages.dropLast().allSatisfy { $0.items.count == 5 })
                let times = forward.compactMap { id in pages.flatMap(\.items).first { $0.id == id }?.createdAt }
                #expect(zip(times, times.dropFirst()).allSatisfy { $0 >= $1 })

                // Back from the last page by the newer links: the same pages, to the first.
                var backward = page.items.map(\.id)
                while let newer = page.before {
                    page = try await database.objects.page(formID: "notes", visibleTo: owners, from: newer, size: 5)
                    backward = page.items.map(\.id) + backward
                }
                #expect(backward == forward, "\(owners)")
            }
        }
    }

    @Test("a page after an object deleted meanwhile goes on from where the object stood")
    func deletedCursor() async throws {
        try await TestDatabases.run { _, databases in
            let database = databases[0]
            let (viewers, _) = try await Self.seed(database)
            let sql = try #require(database.database() as? any SQLDatabase)
            // Whole seconds: the cursor's own time, all that is left of the object, is exact.
            for (index, id) in try await Self.everyObject(database, viewers.admin).enumerated() {
                let instant = Date(timeIntervalSince1970: 1_800_000_000 - Double(index / 3))
                try await sql.raw("UPDATE objects SET created_at = \(bind: instant) WHERE id = \(bind: id)").run()
            }
            let all = try await Self.everyObject(database, viewers.admin)
            let first = try await database.objects.page(formID: "notes", visibleTo: viewers.admin, size: 7)
            let cursor = try #require(first.after)
            try await database.objects.delete(formID: "notes", id: cursor.key.id)
            let second = try await database.objects.page(
                formID: "notes", visibleTo: viewers.admin, from: cursor, size: 7)
            #expect(second.items.map(\.id) == Array(all[7..<14]))
        }
    }

    @Test("every page's statement reads an index in the list's order: no scan of the table, no sort")
    func plans() async throws {
        try await TestDatabases.run { _, databases in
            let database = databases[0]
            let (viewers, _) = try await Self.seed(database)
            let key = ObjectListKey(createdAt: Date(), id: UUID())
            let cases: [(OwnerFilter, indexes: [String])] = [
                (viewers.admin, ["objects_list"]),
                (viewers.beaSignedIn, ["objects_list_user", "objects_list_browser"]),
                (viewers.anonymous, ["objects_list_browser"]),
            ]
            for (owners, indexes) in cases {
                for (direction, from) in [(PageDirection.after, nil), (.after, key), (.before, key)] {
                    let query = ObjectStore.listQuery(
                        formID: "notes", visibleTo: owners, direction: direction, from: from, limit: 51,
                        sqlite: database.usesSQLite)
                    let plan = try await QueryPlan.explain(query, on: database)
                    plan.expectIndexed(table: "objects", using: indexes)
                }
            }
            for (direction, from) in [
                (PageDirection.after, nil), (.after, FormListKey(id: "m")), (.before, FormListKey(id: "m")),
            ] {
                let query = FormStore.listQuery(direction: direction, from: from, limit: 51)
                let plan = try await QueryPlan.explain(query, on: database)
                plan.expectIndexed(table: "forms", using: [])
            }
            // The creator filter as one `OR`, as the list once had it: the check refuses its plan.
            let withOr: SQLQueryString = """
                SELECT id FROM objects WHERE form_id = 'notes' AND (creator_user_id = \(bind: viewers.bea) \
                OR (creator_user_id IS NULL AND creator_browser = 'browser-bea')) ORDER BY created_at DESC, id DESC LIMIT 51
                """
            let orPlan = try await QueryPlan.explain(withOr, on: database)
            #expect(!orPlan.problems(table: "objects", using: ["objects_list_user", "objects_list_browser"]).isEmpty)
        }
    }

    @Test("the forms list pages by id in both directions, every form once")
    func formPages() async throws {
        try await TestDatabases.run { _, databases in
            let database = databases[0]
            let ids = (0..<12).map { String(format: "form-%02d", $0) }
            for id in ids.shuffled() {
                try await database.forms.store(Fixtures.importResult([Fixtures.schema([], id: id, title: "New \(id)")]))
            }
            var page = try await database.forms.page(size: 5)
            var forward = page.items.map(\.id)
            while let next = page.after {
                page = try await database.forms.page(from: next, size: 5)
                forward += page.items.map(\.id)
            }
            #expect(forward == ids)
            #expect(page.items.map(\.id) == ["form-10", "form-11"])
            var backward = page.items.map(\.id)
            while let previous = page.before {
                page = try await database.forms.page(from: previous, size: 5)
                backward = page.items.map(\.id) + backward
            }
            #expect(backward == ids)
            #expect(try await database.forms.list().map(\.id) == ids)
        }
    }
}

/// A statement's query plan, as SQLite's `EXPLAIN QUERY PLAN` or PostgreSQL's `EXPLAIN` gives it.
struct QueryPlan {
    let lines: [String]
    let postgres: Bool

    /// The plan of `query` on the database. PostgreSQL plans a table of a few rows with a scan
    /// of the table, rightly, so there sequential scans, bitmap scans and sorts are priced out:
    /// a plan that still has one has no index to read the list from. Its statistics are taken
    /// first, as autovacuum would have taken them of a table in use.
    static func explain(_ query: SQLQueryString, on database: FieldworkDatabase) async throws -> QueryPlan {
        let postgres = !database.usesSQLite
        let lines = try await database.database().withConnection { connection in
            connection.eventLoop.makeFutureWithTask {
                let sql = connection as! any SQLDatabase
                guard postgres else {
                    return try await sql.raw("EXPLAIN QUERY PLAN \(query)").all().map {
                        try $0.decode(column: "detail", as: String.self)
                    }
                }
                try await sql.raw("ANALYZE").run()
                for setting in ["enable_seqscan", "enable_bitmapscan", "enable_sort"] {
                    try await sql.raw("SET \(unsafeRaw: setting) = off").run()
                }
                defer { Task { try? await sql.raw("RESET ALL").run() } }
                return try await sql.raw("EXPLAIN \(query)").all().map {
                    try $0.decode(column: "QUERY PLAN", as: String.self)
                }
            }
        }.get()
        return QueryPlan(lines: lines, postgres: postgres)
    }

    /// What keeps the plan from reading a page from an index: lines that scan the whole of
    /// `table` or sort rows apart from an index, and each of `indexes` that it does not use.
    func problems(table: String, using indexes: [String]) -> [String] {
        let refused =
            postgres
            ? lines.filter { $0.contains("Seq Scan") || $0.contains("Bitmap") || $0.contains(/(^|->)\s*Sort\s+\(/) }
            : lines.filter { $0.hasPrefix("SCAN \(table)") && !$0.contains("USING") || $0.contains("TEMP B-TREE") }
        let text = lines.joined(separator: "\n")
        let unused = indexes.filter { !text.contains($0) }.map { "\($0) unused" }
        let noIndex = text.contains("INDEX") || text.contains("Index") ? [] : ["no index read"]
        return refused + unused + noIndex
    }

    /// Expects every read of `table` to search one of its indexes (each of `indexes` at least
    /// once), nothing to scan the whole table, and nothing to be sorted apart from the index.
    func expectIndexed(
        table: String, using indexes: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(
            problems(table: table, using: indexes).isEmpty, "\(lines.joined(separator: "\n"))",
            sourceLocation: sourceLocation)
    }
}
