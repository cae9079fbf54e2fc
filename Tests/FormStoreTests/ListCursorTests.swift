import Foundation
import Testing

@testable import FormStore

@Suite("List cursors")
struct ListCursorTests {
    @Test("a cursor comes back from its token as it was: direction, time to the microsecond, id")
    func roundTrip() throws {
        let key = ObjectListKey(createdAt: Date(timeIntervalSince1970: 1_700_000_000.123_456), id: UUID())
        for direction in [PageDirection.after, .before] {
            let token = ListCursor(direction, key).token
            #expect(token.wholeMatch(of: /[A-Za-z0-9_-]{34}/) != nil)
            let read = try #require(ListCursor<ObjectListKey>(token: token))
            #expect(read.direction == direction)
            #expect(read.key.id == key.id)
            #expect(abs(read.key.createdAt.timeIntervalSince(key.createdAt)) < 0.000_001)
            #expect(read.token == token)
        }
        let form = ListCursor(.after, FormListKey(id: "new-issue"))
        #expect(ListCursor<FormListKey>(token: form.token) == form)
    }

    @Test("anything but a cursor a list made is refused: wrong length, direction, time, alphabet or form id")
    func refusals() {
        let valid = ListCursor(.after, ObjectListKey(createdAt: Date(), id: UUID())).token
        func token(_ bytes: [UInt8]) -> String {
            Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let objectTokens = [
            "", "x", "AAAA", String(valid.dropLast()), valid + "AA", valid + "=", "Z" + valid.dropFirst(),
            valid.replacingOccurrences(of: "_", with: "/").replacingOccurrences(of: "-", with: "+") + "+",
            token([0x61] + [0x7F] + [UInt8](repeating: 0xFF, count: 23)),  // a time past the year 9999
            token([0x61] + [0xFF] + [UInt8](repeating: 0, count: 23)),  // a time before 1970
            String(repeating: "A", count: 500),
        ]
        for bad in objectTokens {
            #expect(ListCursor<ObjectListKey>(token: bad) == nil, "\(bad)")
        }
        for bad in [token([0x61]), token([0x61] + Array("Not-An-Id".utf8)), token([0x63] + Array("a".utf8))] {
            #expect(ListCursor<FormListKey>(token: bad) == nil, "\(bad)")
        }
    }
}
