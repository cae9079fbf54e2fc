import Crypto
import FormStore
import Foundation
import Testing

@testable import FormWeb

@Suite("A draft kept for the corrected create")
struct KeptDraftTests {
    let drafts = KeptDraft(secret: ServerSecret(key: SymmetricKey(data: Data(repeating: 5, count: 32))))
    let draft = ServiceDraft(
        key: #"{"DraftUUID":"0f6f4a1e-3c55-4c6a-9a59-1d2f3e4a5b6c","IsActiveEntity":"false","Product":""}"#,
        etag: #"W/"datetime'2026-11-26T10%3A00%3A00'""#)
    let start = Date(timeIntervalSince1970: 1_795_000_000)

    @Test("a sealed draft opens for the same form and viewer")
    func roundTrip() {
        let token = drafts.seal(draft, formID: "products", owner: "user:a", now: start)
        #expect(drafts.open(token, formID: "products", owner: "user:a", now: start + 60) == draft)
    }

    @Test("another form, another viewer, an altered token or an old one open nothing")
    func refused() {
        let token = drafts.seal(draft, formID: "products", owner: "user:a", now: start)
        #expect(drafts.open(token, formID: "suppliers", owner: "user:a", now: start) == nil)
        #expect(drafts.open(token, formID: "products", owner: "browser:b", now: start) == nil)
        #expect(drafts.open(token, formID: "products", owner: "user:a", now: start + KeptDraft.lifetime + 1) == nil)
        let other = KeptDraft(secret: ServerSecret(key: SymmetricKey(data: Data(repeating: 6, count: 32))))
        #expect(other.open(token, formID: "products", owner: "user:a", now: start) == nil)
        // The same payload with another draft's key, under the first token's MAC.
        let forged = drafts.seal(
            ServiceDraft(key: #"{"Product":"HT-1000"}"#, etag: nil), formID: "products", owner: "user:a", now: start)
        let mixed = forged.split(separator: ".")[0] + "." + token.split(separator: ".")[1]
        #expect(drafts.open(String(mixed), formID: "products", owner: "user:a", now: start) == nil)
        #expect(drafts.open("", formID: "products", owner: "user:a", now: start) == nil)
        #expect(drafts.open("a.b.c", formID: "products", owner: "user:a", now: start) == nil)
        #expect(drafts.open(nil, formID: "products", owner: "user:a", now: start) == nil)
    }
}
