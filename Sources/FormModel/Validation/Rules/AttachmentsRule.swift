/// Attachments: count, size and type of the staged files, the type being the one sniffed from content.
enum AttachmentsRule {
    static func check(_ field: Field, _ raw: RawInput) -> RuleOutcome {
        let files = raw.files
        if files.isEmpty { return .empty }
        let c = field.constraints
        var issues: [FieldIssue] = []
        func add(_ code: FieldIssue.Code, _ message: String) {
            issues.append(FieldIssue(field: field.name, code: code, message: message))
        }

        if let min = c.minCount, files.count < min {
            add(.minCount, "Select at least \(Words.count(min, "file"))")
        }
        if let max = c.maxCount, files.count > max {
            add(.maxCount, "Select up to \(Words.count(max, "file"))")
        }
        if let accept = c.accept, !accept.isEmpty {
            let bad = files.filter { !MediaTypes.matches($0.contentType, accept: accept) }
            if !bad.isEmpty {
                add(.fileType, "\(subject(bad, of: files)) must be \(MediaTypes.describe(accept))")
            }
        }
        if let maxSize = c.maxSize {
            let bad = files.filter { $0.size > maxSize }
            if !bad.isEmpty {
                let each = bad.count > 1 ? " each" : ""
                add(.fileSize, "\(subject(bad, of: files)) must\(each) be smaller than \(ByteSize.describe(maxSize))")
            }
        }
        return issues.isEmpty ? .value(.files(files)) : .issues(issues)
    }

    /// "The selected file(s)" when every file sent is bad; else the bad files by name, up to
    /// three ("x.exe and y.zip"), so the user knows which to choose again, or how many.
    static func subject(_ bad: [SubmittedFile], of all: [SubmittedFile]) -> String {
        if bad.count == all.count { return all.count == 1 ? "The selected file" : "The selected files" }
        if bad.count <= 3 { return Words.list(bad.map(\.name)) }
        return "\(bad.count) of the selected files"
    }
}
