import FormModel

/// A POSTed form as the routes need it: the ``Submission`` the model validates, and apart from
/// it the control inputs (`_csrf`, `_prefill`) that are not fields.
struct ReceivedSubmission: Sendable {
    var submission: Submission
    var controls: [String: String]
    /// Files this request itself staged (multipart uploads).
    var uploadedIDs: [String] = []
    /// Every staged file the submission holds: uploaded now, or kept from a refused attempt.
    var stagedIDs: Set<String> = []

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
}
