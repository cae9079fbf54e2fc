import FormPages
import FormStore
import Foundation
import Hummingbird

/// The form page's Export section: the download of a form's objects (a GET: it changes nothing).
struct AdminExportController {
    let exports: ObjectExports
    /// Where dates without a time are read.
    let timeZone: TimeZone
    let page: AdminFormPage

    func addRoutes(to form: RouterGroup<AppRequestContext>) {
        form.get("export", use: export)
    }

    /// `GET /admin/forms/{id}/export?format=csv|jsonl|zip&since=&until=&header=`: the Export
    /// section's form (a GET: it changes nothing). The download itself, as the JSON API sends it;
    /// a date it cannot read answers 422 with the form page, the error linked and the dates kept.
    @Sendable func export(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.viewer
        let form = try context.form
        let parameters = ExportDownload.parameters(request)
        do throws(ExportQuery.Refusal) {
            let query = try ExportQuery.read(parameters, timeZone: timeZone)
            guard let format = ExportDownload(rawValue: parameters["format"] ?? ExportDownload.csv.rawValue) else {
                throw ExportQuery.Refusal(parameter: "format", message: "Choose CSV, JSON Lines or attachments.")
            }
            return format.response(form: form, query: query, exports: exports, logger: context.logger)
        } catch {
            let section = ExportSection(formID: form.id, entered: parameters, refusal: error)
            return try await page(form, viewer: viewer, export: section, status: .unprocessableContent)
        }
    }
}

extension ExportSection {
    /// The section as the page first shows it, or as sent when a request was refused.
    /// - Parameters:
    ///   - entered: the query as sent, kept after a refusal.
    ///   - refusal: what could not be read.
    init(formID: String, entered: [String: String] = [:], refusal: ExportQuery.Refusal? = nil) {
        func input(_ name: String, _ label: String, _ hint: String) -> ServiceSection.TextInput {
            ServiceSection.TextInput(
                ids: ExportSection.ids(name), name: name, label: label, hint: hint, value: entered[name],
                error: refusal?.parameter == name ? refusal?.message : nil, type: "date")
        }
        let chosen = ExportQuery.CSVHeader(rawValue: entered["header"] ?? "") ?? .labels
        self.init(
            formID: PageText(formID),
            since: input("since", "From (optional)", "Objects created or changed on this day or later."),
            until: input("until", "To (optional)", "Objects created or changed on this day or earlier."),
            headers: [
                ServiceSection.Choice(
                    id: ExportSection.ids("header-labels").id, name: "header", value: "labels", label: "Field labels",
                    hint: nil,
                    checked: chosen == .labels),
                ServiceSection.Choice(
                    id: ExportSection.ids("header-names").id, name: "header", value: "names", label: "Field names",
                    hint: "As the JSON API and the spec name them, for scripts.", checked: chosen == .names),
            ],
            problems: refusal.map { refusal in
                // Linked to the date it names, the header's first choice, else the section.
                let target =
                    switch refusal.parameter {
                    case "since", "until": ExportSection.ids(refusal.parameter).link
                    case "header": ExportSection.ids("header-labels").link
                    default: "#export"
                    }
                return [AdminProblem(text: refusal.message, href: target)]
            } ?? [])
    }
}
