import Foundation
import Testing

@testable import FormModel

@Suite("Comparing secrets in constant time")
struct ConstantTimeTests {
    @Test("equal only when every byte and the length are")
    func equality() {
        #expect(ConstantTime.equal("a1B2-c3", "a1B2-c3"))
        #expect(ConstantTime.equal("", ""))
        #expect(!ConstantTime.equal("a1B2-c3", "a1B2-c4"))
        #expect(!ConstantTime.equal("abc", "abcd") && !ConstantTime.equal("abcd", "abc"))
        #expect(!ConstantTime.equal("", "a"))
        // A prefix padded with zero bytes is still shorter: the length counts.
        #expect(!ConstantTime.equal(Data([1, 2]), Data([1, 2, 0])))
        #expect(ConstantTime.equal(Data([0, 255, 7]), [UInt8]([0, 255, 7])))
        #expect(!ConstantTime.equal("é", "e\u{301}"))  // bytes, not characters
    }
}
