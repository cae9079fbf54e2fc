import Foundation

/// Bytes as hexadecimal text, two digits a byte, written in one pass: a session's storage key
/// (the SHA-256 of its cookie, on every signed-in request), the public files' version and
/// ETags, an API create's fingerprint, webhook message ids and OData's binary literals.
/// `String(byte, radix: 16)` a byte and `joined()` after it
/// cost some 25 K instructions a signed-in page.
public enum Hex {
    private static let lower: StaticString = "0123456789abcdef"
    private static let upper: StaticString = "0123456789ABCDEF"

    /// `bytes` in hexadecimal, lowercase unless `uppercase`.
    public static func encode(_ bytes: UnsafeRawBufferPointer, uppercase: Bool = false) -> String {
        guard !bytes.isEmpty else { return "" }
        let digits = (uppercase ? upper : lower).utf8Start
        return String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            let out = buffer.baseAddress!
            for (index, byte) in bytes.enumerated() {
                out[2 * index] = digits[Int(byte >> 4)]
                out[2 * index + 1] = digits[Int(byte & 0x0F)]
            }
            return bytes.count * 2
        }
    }

    public static func encode(_ bytes: some ContiguousBytes, uppercase: Bool = false) -> String {
        bytes.withUnsafeBytes { encode($0, uppercase: uppercase) }
    }
}
