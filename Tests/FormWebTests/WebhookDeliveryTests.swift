import FluentKit
import FormModel
import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

@testable import FormService
@testable import FormStore
@testable import FormWeb

/// The outbox and its worker, on real SQLite (and PostgreSQL with `FIELDWORK_TEST_POSTGRES`),
/// against a real receiver on loopback; time is a ``TestClock`` the tests move on.
@Suite("Webhook outbox and delivery")
struct WebhookDeliveryTests {
    struct Refused: Error {}

    @Test("an event is written only when the object commits: a rolled-back create announces nothing")
    func onlyCommitted() async throws {
        try await TestDatabases.run { data, databases in
            let database = databases[0]
            // The form whose creates CreateBatchTests writes together.
            let form = CreateBatch.form
            try await database.forms.store(Fixtures.importResult([form]))
            let webhooks = try WebhookFixtures.webhooks(database, data: data)
            _ = try await WebhookFixtures.register(webhooks, url: "http://127.0.0.1:1/hooks", formID: form.id)
            _ = try await WebhookFixtures.register(
                webhooks, url: "http://127.0.0.1:1/deletes", events: ["deleted"], formID: form.id)
            let announce = try #require(try await webhooks.announcing(.created, formID: form.id))
            // The announcement ran, then the create's own work failed: both roll back.
            await #expect(throws: Refused.self) {
                try await database.objects.create(
                    formID: form.id, version: 1, values: ["title": .text("No")], keyText: "No",
                    creator: .browser("b")
                ) { transaction, id in
                    try await announce(transaction, id)
                    throw Refused()
                }
            }
            #expect(try await WebhookFixtures.events(database).isEmpty)
            // Creates written together, one of them failing: the batch rolls back and is written
            // again create by create; each stored object has exactly one event.
            let outcomes = try await CreateBatch.createTogether(
                6, on: database,
                alongside: { index, transaction, id in
                    try await announce(transaction, id)
                    if index == 3 { throw Refused() }
                })
            let stored = outcomes.compactMap { try? $0.get() }
            #expect(stored.count == 5)
            let events = try await WebhookFixtures.events(database)
            let announced: Set<UUID> = Set(events.map(\.objectID))
            #expect(announced == Set(stored.map(\.id)) && events.count == 5)
            #expect(Set(events.compactMap(\.id)).count == 5)
            // The endpoint that hears only of deletes got none of them.
            let endpoints = try await webhooks.store.endpoints(formID: form.id)
            #expect(events.allSatisfy { $0.endpointID == endpoints[0].id })
        }
    }

    @Test(
        "a form no endpoint hears of writes no event and no transaction; a registration is heard at once here, by the feed elsewhere"
    )
    func audience() async throws {
        try await TestDatabases.run(instances: 2) { data, databases in
            let (a, b) = (databases[0], databases[1])
            for database in databases { try await database.feed.catchUp(on: database.database()) }
            let form = WebhookFixtures.form
            try await a.forms.store(Fixtures.importResult([form]))
            let hooksA = try WebhookFixtures.webhooks(a, data: data)
            let hooksB = try WebhookFixtures.webhooks(b, data: data)
            #expect(try await hooksA.announcing(.created, formID: form.id) == nil)
            #expect(try await hooksB.announcing(.created, formID: form.id) == nil)
            _ = try await WebhookFixtures.register(
                hooksA, url: "http://127.0.0.1:1/hooks", events: ["created"], formID: form.id)
            #expect(try await hooksA.announcing(.created, formID: form.id) != nil, "heard at once where registered")
            #expect(try await hooksA.announcing(.deleted, formID: form.id) == nil, "only the events it asked for")
            #expect(try await hooksB.announcing(.created, formID: form.id) == nil, "known to B as read before")
            try await b.feed.catchUp(on: b.database())
            #expect(try await hooksB.announcing(.created, formID: form.id) != nil, "and after the feed")
            let created = try await WebhookFixtures.create(b, hooksB)
            #expect(try await WebhookFixtures.events(a).map(\.objectID) == [created.id])
            let endpoint = try #require(try await hooksB.store.endpoints(formID: form.id).first)
            #expect(try await hooksB.store.remove(formID: form.id, id: endpoint.id))
            #expect(try await hooksB.announcing(.created, formID: form.id) == nil)
            try await a.feed.catchUp(on: a.database())
            #expect(try await hooksA.announcing(.created, formID: form.id) == nil)
        }
    }

    @Test("a receiver that fails, then times out, then recovers gets the event once, each attempt signed anew")
    func retries() async throws {
        // The time limit leaves a busy machine (the whole suite on PostgreSQL at once) room to
        // answer the 500 and the 204 in time; the hang lasts until the test releases it.
        let receiver = WebhookReceiver(script: [.status(500), .hang, .status(204)])
        try await receiver.run { url in
            try await TestDatabases.run { data, databases in
                let database = databases[0]
                try await database.forms.store(Fixtures.importResult([WebhookFixtures.form]))
                let webhooks = try WebhookFixtures.webhooks(database, data: data)
                let secret = try await WebhookFixtures.register(webhooks, url: url)
                let object = try await WebhookFixtures.create(database, webhooks)
                let clock = WebhookFixtures.clock()
                let http = ServiceHTTPClient()
                let worker = WebhookFixtures.worker(webhooks, http: http, clock: clock, timeLimit: .seconds(8))
                let start = clock.now
                // Refused with a 500: tried again within 10 s.
                #expect(try await worker.deliverDue() == 1)
                var event = try #require(try await WebhookFixtures.events(database).first)
                #expect(event.status == "pending" && event.attempts == 1 && event.lastStatus == 500)
                let first = try #require(event.nextAttemptAt).timeIntervalSince(start)
                #expect(first > 0 && first <= 10)
                // Not due yet: nothing is sent.
                #expect(try await worker.deliverDue() == 0)
                // No answer within the time limit: tried again within 20 s.
                clock.advance(by: first + 0.001)
                #expect(try await worker.deliverDue() == 1)
                event = try #require(try await WebhookFixtures.events(database).first)
                #expect(event.attempts == 2 && event.lastStatus == nil)
                #expect(event.lastAnswer == "No answer within the time limit.")
                receiver.release()
                let second = try #require(event.nextAttemptAt).timeIntervalSince(clock.now)
                #expect(second > 0 && second <= 20)
                // Answered 204: delivered, and never sent again.
                clock.advance(by: second + 0.001)
                #expect(try await worker.deliverDue() == 1)
                event = try #require(try await WebhookFixtures.events(database).first)
                #expect(event.status == "delivered" && event.attempts == 3 && event.lastStatus == 204)
                #expect(event.nextAttemptAt == nil && event.deliveredAt != nil && event.lastLatencyMS != nil)
                clock.advance(by: 3600)
                #expect(try await worker.deliverDue() == 0)
                try await http.shutdown()
                try await receiver.waitFor(3)
                let got = receiver.received
                #expect(got.count == 3)
                #expect(got.filter { (200..<300).contains($0.answered) }.count == 1)
                #expect(Set(got.map(\.id)) == [event.id!])
                #expect(got.allSatisfy { WebhookReceiver.verifies($0, secret: secret) })
                // Each attempt carries its own time (the worker's clock), signed with it.
                #expect(Set(got.map(\.timestamp)).count == 3)
                let payload = try JSONSerialization.jsonObject(with: Data(got[0].body)) as? [String: Any]
                #expect(payload?["type"] as? String == "object.created")
                let object2 = payload?["data"] as? [String: Any]
                #expect(object2?["id"] as? String == object.id.uuidString.lowercased())
                #expect((object2?["values"] as? [String: Any])?["title"] as? String == "Hooked")
            }
        }
    }

    @Test("retries back off to at most an hour apart and stop after 24 hours with the event failed")
    func givesUp() async throws {
        let receiver = WebhookReceiver(otherwise: .status(500))
        try await receiver.run { url in
            try await TestDatabases.run { data, databases in
                let database = databases[0]
                try await database.forms.store(Fixtures.importResult([WebhookFixtures.form]))
                let webhooks = try WebhookFixtures.webhooks(database, data: data)
                _ = try await WebhookFixtures.register(webhooks, url: url)
                try await WebhookFixtures.create(database, webhooks)
                let clock = WebhookFixtures.clock()
                let http = ServiceHTTPClient()
                let worker = WebhookFixtures.worker(webhooks, http: http, clock: clock)
                var gaps: [TimeInterval] = []
                var event = try #require(try await WebhookFixtures.events(database).first)
                while event.status == "pending", gaps.count < 500 {
                    #expect(try await worker.deliverDue() == 1)
                    event = try #require(try await WebhookFixtures.events(database).first)
                    guard let next = event.nextAttemptAt else { break }
                    gaps.append(next.timeIntervalSince(clock.now))
                    clock.advance(by: next.timeIntervalSince(clock.now) + 0.001)
                }
                try await http.shutdown()
                #expect(event.status == "failed" && event.nextAttemptAt == nil)
                #expect(try #require(gaps.first) <= 10)
                #expect(gaps.allSatisfy { $0 > 0 && $0 <= 3600 })
                #expect(event.attempts == gaps.count + 1 && receiver.received.count == event.attempts)
                // The last attempt was at the end of the 24 hours, not after.
                #expect(abs(clock.now.timeIntervalSince(event.pendingSince) - 24 * 3600) < 0.5)
            }
        }
    }

    @Test("an event left by a stopped instance, claimed or not, is delivered by a new one: the outbox is the truth")
    func restart() async throws {
        let receiver = WebhookReceiver()
        try await receiver.run { url in
            try await TestDatabases.run(instances: 2) { data, databases in
                let (old, new) = (databases[0], databases[1])
                try await old.forms.store(Fixtures.importResult([WebhookFixtures.form]))
                let before = try WebhookFixtures.webhooks(old, data: data)
                let secret = try await WebhookFixtures.register(before, url: url)
                try await WebhookFixtures.create(old, before, title: "Claimed")
                try await WebhookFixtures.create(old, before, title: "Pending")
                // The clock starts once both are written: both are due (however long the writes took).
                let clock = WebhookFixtures.clock()
                // The old instance claims the first event and stops before sending it.
                let claimed = try await before.store.claimDue(now: clock.now, lease: 60, limit: 1)
                #expect(claimed.count == 1 && claimed[0].secret == secret)
                // A new instance on the same database (and data folder, for the sealing key).
                let after = try WebhookFixtures.webhooks(new, data: data)
                let http = ServiceHTTPClient()
                let worker = WebhookFixtures.worker(after, http: http, clock: clock)
                #expect(try await worker.deliverDue() == 1, "the unclaimed one at once")
                #expect(
                    try await worker.deliverDue() == 0, "the claimed one is the old instance's until its lease ends")
                clock.advance(by: 61)
                #expect(try await worker.deliverDue() == 1)
                try await http.shutdown()
                #expect(try await WebhookFixtures.events(new).allSatisfy { $0.status == "delivered" })
                #expect(receiver.received.count == 2)
                #expect(receiver.received.allSatisfy { WebhookReceiver.verifies($0, secret: secret) })
            }
        }
    }

    @Test("two workers delivering from one outbox at once send each event once (two instances on PostgreSQL)")
    func twoWorkers() async throws {
        let receiver = WebhookReceiver()
        try await receiver.run { url in
            try await TestDatabases.run(instances: 2) { data, opened in
                // SQLite serves one instance a file: there the two workers share it, as two
                // workers in one process would; on PostgreSQL each is an instance of its own.
                let databases = opened[0].usesSQLite ? [opened[0], opened[0]] : opened
                try await databases[0].forms.store(Fixtures.importResult([WebhookFixtures.form]))
                let first = try WebhookFixtures.webhooks(databases[0], data: data)
                let second = try WebhookFixtures.webhooks(databases[1], data: data)
                _ = try await WebhookFixtures.register(first, url: url)
                for index in 0..<40 {
                    try await WebhookFixtures.create(databases[index % 2], index % 2 == 0 ? first : second)
                }
                let clock = WebhookFixtures.clock()
                let http = ServiceHTTPClient()
                var workers = [
                    WebhookFixtures.worker(first, http: http, clock: clock),
                    WebhookFixtures.worker(second, http: http, clock: clock),
                ]
                for index in workers.indices { workers[index].batch = 3 }
                let sent = try await withThrowingTaskGroup(of: Int.self) { group in
                    for worker in workers {
                        group.addTask {
                            var sent = 0
                            while true {
                                let round = try await worker.deliverDue()
                                if round == 0 { return sent }
                                sent += round
                            }
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                try await http.shutdown()
                #expect(sent.reduce(0, +) == 40)
                let ids = receiver.received.map(\.id)
                #expect(ids.count == 40 && Set(ids).count == 40)
                #expect(try await WebhookFixtures.events(databases[1]).allSatisfy { $0.status == "delivered" })
            }
        }
    }

    @Test("the worker is woken at once by a commit in its process")
    func wakeup() async throws {
        let wakeup = WebhookWakeup()
        // Waits of an hour: woken, not timed out, is the only way the test ends in time.
        let waiter = Task { await wakeup.wait(upTo: .seconds(3600)) }
        try await Task.sleep(for: .milliseconds(50))
        wakeup.signal()
        await waiter.value
        // A signal while nobody waits is kept for the next wait; a timeout ends a wait too.
        wakeup.signal()
        await wakeup.wait(upTo: .seconds(3600))
        await wakeup.wait(upTo: .milliseconds(50))
    }
}
