import NIOCore

/// Lines of CSV as RFC 4180 writes them, in UTF-8: cells separated by commas, each line ended
/// by CRLF, a cell holding a comma, a double quote, CR or LF put in double quotes with its own
/// quotes doubled.
///
/// Text is made safe for spreadsheets (OWASP, "CSV Injection"): a text cell starting with `=`,
/// `+`, `-`, `@`, a tab or CR would be read by Excel, LibreOffice or Google Sheets as a formula,
/// so it gets a leading `'`, which they show as text. Numbers are left as they are: `-1` is
/// data, and a number cell holds nothing but a number.
enum CSVWriter {
    /// One cell of a line.
    enum Cell: Sendable, Hashable {
        /// Anything people typed or imported: made safe for spreadsheets.
        case text(String)
        /// A number (or a date) written by the server, in a form no spreadsheet runs.
        case number(String)
    }

    /// Appends one line, CRLF included.
    static func appendLine(_ cells: [Cell], to buffer: inout ByteBuffer) {
        for (index, cell) in cells.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
            switch cell {
            case .text(let text): appendCell(text, guarded: true, to: &buffer)
            case .number(let text): appendCell(text, guarded: false, to: &buffer)
            }
        }
        buffer.writeString("\r\n")
    }

    /// The characters that make a spreadsheet read a cell as a formula.
    static let formulaStarts: Set<UInt8> = [
        UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D,
    ]

    private static func appendCell(_ text: String, guarded: Bool, to buffer: inout ByteBuffer) {
        var text = text
        if guarded, let first = text.utf8.first, formulaStarts.contains(first) { text = "'" + text }
        let quoted = text.utf8.contains {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A
        }
        guard quoted else {
            buffer.writeString(text)
            return
        }
        buffer.writeInteger(UInt8(ascii: "\""))
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\"") { buffer.writeInteger(byte) }
            buffer.writeInteger(byte)
        }
        buffer.writeInteger(UInt8(ascii: "\""))
    }
}
