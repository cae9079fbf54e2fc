/// Comparing secrets (CSRF tokens, MACs, recovery-code digests) in a time that depends on their
/// lengths only, never on where the first difference is.
public enum ConstantTime {
    /// Whether the two byte sequences are equal; a difference in length is a difference too, and
    /// the loop still runs over the longer one.
    public static func equal<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        var x = a.makeIterator()
        var y = b.makeIterator()
        for _ in 0..<max(a.count, b.count) {
            difference |= (x.next() ?? 0) ^ (y.next() ?? 0)
        }
        return difference == 0
    }

    /// Whether two strings are equal, byte for byte in UTF-8.
    public static func equal(_ a: String, _ b: String) -> Bool {
        equal(a.utf8, b.utf8)
    }
}
