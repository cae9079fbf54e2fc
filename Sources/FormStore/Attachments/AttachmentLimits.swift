import FormModel
import Foundation

/// How much one request may send, enforced while the body streams in.
package struct AttachmentLimits: Sendable, Hashable {
    /// The most any request may send, whatever the form says (`FIELDWORK_MAX_UPLOAD`, bytes).
    package var maxRequestBytes: Int
    /// The most one plain (non-file) part may hold; a note is text, not a file.
    package var maxFieldBytes: Int
    /// Room for the text fields and the multipart framing in a form's request limit.
    package var textAllowance: Int
    /// Files kept for an attachments field beyond its `max-count`, so validation still sees
    /// that there were too many and says so; later ones are dropped unread.
    package var countMargin: Int
    /// The `max-count` assumed for a field without one.
    package var defaultMaxCount: Int
    /// How many bytes one owner (account or anonymous browser) may have staged at once, in
    /// forms refused and not sent again: without it, refused submissions could fill the disk
    /// for a day. Four full requests by default.
    package var maxStagedBytesPerOwner: Int

    package init(
        maxRequestBytes: Int = 64 * 1024 * 1024, maxFieldBytes: Int = 1024 * 1024, textAllowance: Int = 1024 * 1024,
        countMargin: Int = 1, defaultMaxCount: Int = 5
    ) {
        self.maxRequestBytes = maxRequestBytes
        self.maxFieldBytes = maxFieldBytes
        self.textAllowance = textAllowance
        self.countMargin = countMargin
        self.defaultMaxCount = defaultMaxCount
        self.maxStagedBytesPerOwner = maxRequestBytes * 4
    }

    /// The limits the environment sets: `FIELDWORK_MAX_UPLOAD` in bytes, or with a `KB`/`MB`/`GB`
    /// suffix (powers of 1024, as `max-size` in specs); anything unreadable keeps the default.
    package static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Self {
        var limits = AttachmentLimits()
        if let text = environment["FIELDWORK_MAX_UPLOAD"], let bytes = parseSize(text), bytes > 0 {
            limits.maxRequestBytes = bytes
            limits.maxStagedBytesPerOwner = bytes * 4
        }
        return limits
    }

    /// The most a request to a form may send: what its attachments fields allow
    /// (`max-count` × `max-size` each, times the items an item's may be in) plus the text
    /// allowance, capped by ``maxRequestBytes``.
    package func requestLimit(for schema: FormSchema) -> Int {
        var total = textAllowance
        for (field, times) in schema.attachmentsFields {
            let (count, countOverflows) = (field.constraints.maxCount ?? defaultMaxCount).multipliedReportingOverflow(
                by: times)
            let size = field.constraints.maxSize ?? maxRequestBytes
            let (product, productOverflows) =
                countOverflows ? (Int.max, true) : count.multipliedReportingOverflow(by: size)
            let (sum, sumOverflows) = total.addingReportingOverflow(product)
            total = productOverflows || sumOverflows ? Int.max : sum
        }
        return min(total, maxRequestBytes)
    }

    /// The largest file a field takes: its `max-size`, else the request cap.
    package func maxFileBytes(for field: Field) -> Int {
        field.constraints.maxSize ?? maxRequestBytes
    }

    /// How many files of a field are kept: `max-count` plus ``countMargin``.
    package func keptFileCount(for field: Field) -> Int {
        (field.constraints.maxCount ?? defaultMaxCount) + countMargin
    }

    /// `1048576`, `512KB`, `10 MB`, `1GB` → bytes; nil when unreadable.
    static func parseSize(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [(String, Int)] = [("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("B", 1)]
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            let number = trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)
            guard let value = Int(number) else { return nil }
            let (bytes, overflow) = value.multipliedReportingOverflow(by: factor)
            return overflow ? nil : bytes
        }
        return Int(trimmed)
    }

    /// "10 MB", "512 KB", "300 bytes": sizes as the messages show them (powers of 1024).
    package static func describe(_ bytes: Int) -> String {
        func number(_ value: Double) -> String {
            value.rounded() == value ? String(Int(value)) : String(format: "%.1f", value)
        }
        if bytes >= 1 << 30 { return "\(number(Double(bytes) / Double(1 << 30))) GB" }
        if bytes >= 1 << 20 { return "\(number(Double(bytes) / Double(1 << 20))) MB" }
        if bytes >= 1 << 10 { return "\(number(Double(bytes) / Double(1 << 10))) KB" }
        return Words.count(bytes, "byte")
    }
}
