/// The admin page's "Export" section (`admin/form`): the dates an export may be limited to and
/// the CSV header's choice, as sent after a refusal, with the error summary's line.
package struct ExportSection {
    package let formID: PageText
    package let since: ServiceSection.TextInput
    package let until: ServiceSection.TextInput
    package let headers: [ServiceSection.Choice]
    /// The error summary's line for a refused request.
    package let problems: [AdminProblem]

    package init(
        formID: PageText, since: ServiceSection.TextInput, until: ServiceSection.TextInput,
        headers: [ServiceSection.Choice], problems: [AdminProblem]
    ) {
        self.formID = formID
        self.since = since
        self.until = until
        self.headers = headers
        self.problems = problems
    }

    /// The ids of the input `name` (`export-since`), or of the choice `header-labels`.
    package static func ids(_ name: String) -> ControlIDs { ControlIDs(id: "export-" + name) }
}
