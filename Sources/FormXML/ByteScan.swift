/// Byte tests for the parser: eight bytes at a time, and XML white space.
enum ByteScan {
    /// Whether any of the eight bytes of `word` is `byte` (the classic zero-byte test on `word ^ byte…byte`).
    @inline(__always)
    static func hasByte(_ word: UInt64, _ byte: UInt8) -> Bool {
        let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0
    }

    /// Whether a byte is XML white space (space, tab, line feed, carriage return).
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
