import FormModel

/// A POSTed form as the routes need it: the ``Submission`` the model validates, and apart from
/// it the control inputs (`_csrf`, `_prefill`) that are not fields.
struct ReceivedSubmission: Sendable {
    var submission: Submission
    var controls: [String: String]

    /// Inputs that steer the request rather than carry a field's value.
    static let controlNames: Set<String> = [CSRF.fieldName, SignedPrefill.fieldName]

    /// Splits the control inputs off a body's fields.
    init(fields: [String: [String]], files: [String: [SubmittedFile]] = [:]) {
        var fields = fields
        var controls: [String: String] = [:]
        for name in Self.controlNames {
            if let value = fields.removeValue(forKey: name)?.first { controls[name] = value }
        }
        submission = Submission(fields: fields, files: files)
        self.controls = controls
    }

    func control(_ name: String) -> String? { controls[name] }

    /// Puts the object's stored files that the edit form sent back (`NAME._kept` ids) ahead of
    /// any new uploads. Only ids of this object's own files count: an id from anywhere else is
    /// ignored, so no one can attach a file they cannot see.
    mutating func keep(storedFiles: [String: [SubmittedFile]], schema: FormSchema) {
        for field in schema.allFields where field.kind == .attachments {
            let keptName = FileListMarkup.keptInputName(for: field.name)
            let ids = submission.fields.removeValue(forKey: keptName) ?? []
            let stored = storedFiles[field.name] ?? []
            let kept = ids.compactMap { id in stored.first { $0.id == id } }
            let uploaded = submission.files[field.name] ?? []
            if !kept.isEmpty || !uploaded.isEmpty { submission.files[field.name] = kept + uploaded }
        }
    }
}
