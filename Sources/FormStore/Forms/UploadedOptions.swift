import FormModel

/// Uploaded options, in groups (one JSON column).
struct UploadedOptions: Codable, Sendable, Hashable {
    var groups: [OptionGroup]
}
