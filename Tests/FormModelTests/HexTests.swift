import Foundation
import Testing

@testable import FormModel

@Suite("Hex")
struct HexTests {
    @Test("two digits a byte, as String(format: \"%02x\") writes them, in either case")
    func matchesFormat() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let lower = bytes.map { String(format: "%02x", $0) }.joined()
            #expect(Hex.encode(bytes) == lower)
            #expect(Hex.encode(bytes, uppercase: true) == lower.uppercased())
        }
        #expect(Hex.encode([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
    }
}
