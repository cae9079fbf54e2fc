/// Line and column of a byte offset in a document's text, for the re-readers of a text that
/// libxml2 gives no column for (`SourceLocator`, the XForms importer's `XFormSource`).
public enum TextPosition {
    /// 1-based line and column (in characters, a tab counting one) of `offset` in `bytes`, given
    /// the offset of each line's first byte (`lineStarts`, ascending, the first the text's start):
    /// a binary search for the line, then the characters before the offset on it.
    public static func of<Bytes: RandomAccessCollection<UInt8>>(
        _ offset: Int, in bytes: Bytes, lineStarts: [Int]
    ) -> (line: Int, column: Int) where Bytes.Index == Int {
        var low = 0
        var high = lineStarts.count
        while low < high {
            let middle = (low + high) / 2
            if lineStarts[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        let lineStart = lineStarts[max(low - 1, 0)]
        // UTF-8 continuation bytes (10xxxxxx) are no characters of their own.
        let characters = bytes[lineStart..<offset].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return (max(low, 1), characters + 1)
    }
}
