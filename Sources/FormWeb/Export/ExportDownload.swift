import FormStore
import Foundation
import Hummingbird
import Logging

/// The three downloads of a form's objects, as responses whose bodies are written while the
/// objects are read (``ObjectExports``): the headers go out at once, then each page of objects.
enum ExportDownload: String, Sendable, CaseIterable {
    case csv
    case jsonl
    case zip
    /// An XForm's objects as ODK tools keep them: `<instanceID>/submission.xml` with its files.
    case instances

    /// The download: its body, type and file name, under the headers of every admin download.
    func response(form: StoredForm, query: ExportQuery, exports: ObjectExports, logger: Logger) -> Response {
        let window = query.window
        let body: ResponseBody
        // A form with item lists: the CSV is a ZIP of the objects' file and one per list.
        if self == .csv, let schema = try? form.schema(), !schema.itemLists.isEmpty {
            body = ResponseBody { writer in
                try await exports.csvZip(form: form, schema: schema, query: query) { try await writer.write($0) }
                try await writer.finish(nil)
            }
            let headers = AdminFormController.downloadHeaders(
                type: "application/zip", filename: "\(form.id)-objects-csv.zip")
            return Response(status: .ok, headers: headers, body: body)
        }
        switch self {
        case .csv:
            body = ResponseBody { writer in
                try await exports.csv(form: form, query: query) { try await writer.write($0) }
                try await writer.finish(nil)
            }
        case .jsonl:
            body = ResponseBody { writer in
                try await exports.jsonLines(form: form, window: window) { try await writer.write($0) }
                try await writer.finish(nil)
            }
        case .zip:
            body = ResponseBody { writer in
                try await exports.attachmentsZip(form: form, window: window, logger: logger) {
                    try await writer.write($0)
                }
                try await writer.finish(nil)
            }
        case .instances:
            body = ResponseBody { writer in
                try await exports.instancesZip(form: form, window: window, logger: logger) {
                    try await writer.write($0)
                }
                try await writer.finish(nil)
            }
        }
        let headers = AdminFormController.downloadHeaders(type: contentType, filename: filename(form.id))
        return Response(status: .ok, headers: headers, body: body)
    }

    var contentType: String {
        switch self {
        case .csv: "text/csv; charset=utf-8; header=present"
        case .jsonl: "application/jsonl; charset=utf-8"
        case .zip, .instances: "application/zip"
        }
    }

    /// `new-issue-objects.csv`, `new-issue-objects.jsonl`, `new-issue-attachments.zip`,
    /// `survey-instances.zip`.
    func filename(_ formID: String) -> String {
        switch self {
        case .csv, .jsonl: "\(formID)-objects.\(rawValue)"
        case .zip: "\(formID)-attachments.zip"
        case .instances: "\(formID)-instances.zip"
        }
    }

    /// The query's parameters by name, the first of each.
    static func parameters(_ request: Request) -> [String: String] {
        var parameters: [String: String] = [:]
        for (name, value) in request.uri.queryParameters where parameters[String(name)] == nil {
            parameters[String(name)] = String(value)
        }
        return parameters
    }
}
