import Testing

@testable import FormModel

@Suite("File names")
struct FileNameTests {
    @Test(
        "names are made safe",
        arguments: [
            ("report.pdf", "report.pdf"),
            ("../../etc/passwd", "passwd"),
            ("C:\\Users\\ana\\photo.jpg", "photo.jpg"),
            (".htaccess", "htaccess"),
            ("a<b>c:d*e?f\"g|h.txt", "abcdefgh.txt"),
            ("bad\u{0}\u{7}name.csv", "badname.csv"),
            ("invoice\u{202E}fdp.exe", "invoicefdp.exe"),
            ("...", "file"),
            ("", "file"),
            ("dir/", "dir"),
            ("  spaced name.png  ", "spaced name.png"),
        ])
    func sanitised(_ name: String, _ safe: String) {
        #expect(FileName.sanitise(name) == safe)
    }

    @Test("long names are cut to 200 characters keeping the extension")
    func long() {
        let safe = FileName.sanitise(String(repeating: "a", count: 300) + ".jpeg")
        #expect(safe.count == 200)
        #expect(safe.hasSuffix("a.jpeg"))
        #expect(FileName.sanitise(String(repeating: "b", count: 250)).count == 200)
    }
}
