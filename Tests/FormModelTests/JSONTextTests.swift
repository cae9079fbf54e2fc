import Foundation
import Testing

@testable import FormModel

@Suite("JSON strings written by hand")
struct JSONTextTests {
    @Test("a string reads back as itself, with what RFC 8259 requires escaped and slashes as asked")
    func quote() throws {
        let samples = [
            "", "plain", "quote \" backslash \\ slash / </script>", "line\nreturn\rtab\t",
            "bell \u{7} nul \u{0} us \u{1F}",
            "é 🙂 日本", "/leading", "trailing\\", "\"",
        ]
        for sample in samples {
            for slashes in [true, false] {
                var out = "["
                JSONText.quote(sample, into: &out, slashes: slashes)
                out += "]"
                let read = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String]
                #expect(read == [sample], "\(out)")
                #expect(out.contains("</") == (!slashes && sample.contains("</")))
            }
        }
        #expect(JSONText.quoted("a/b\u{1}") == #""a\/b\u0001""#)
        var out = ""
        JSONText.quote("a/b", into: &out, slashes: false)
        #expect(out == #""a/b""#)
    }
}
