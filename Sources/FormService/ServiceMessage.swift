/// One message of a service's refusal, placed as Fieldwork places its own: under the field its
/// target names, or in the error summary when it names none.
package struct ServiceMessage: Sendable, Hashable, CustomStringConvertible {
    /// How serious the service says the message is (SAP's `severity`, V4's
    /// `@Common.numericSeverity`); a refusal's messages are errors unless it says otherwise.
    package enum Severity: String, Sendable, Hashable {
        case error, warning, info, success
    }

    /// The service's words, shown as they are.
    package var message: String
    /// The service's code (`/IWBEP/CM_MGW_RT/022`, `ValueError`), for whoever reads the log.
    package var code: String?
    /// The property the message is about, its target made a plain property name; nil when the
    /// target names none or something deeper (another entity, a path).
    package var target: String?
    /// The form's field bound to `target`; nil for the summary.
    package var field: String?
    package var severity: Severity
    /// The target as the service wrote it (`in/_Booking(…)/FlightDate`), for a message about an
    /// item (``ODataErrorBody/itemSteps(fromTarget:)``).
    package var path: String?
    /// The item input the message is about (`_Booking[1].FlightDate`), once placed.
    package var item: String?

    package init(
        message: String, code: String? = nil, target: String? = nil, field: String? = nil,
        severity: Severity = .error, path: String? = nil
    ) {
        self.message = message
        self.code = code
        self.target = target
        self.field = field
        self.severity = severity
        self.path = path
    }

    package var description: String {
        (field.map { "\($0): " } ?? "") + message + (code.map { " [\($0)]" } ?? "")
    }
}
