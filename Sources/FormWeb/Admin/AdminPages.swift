import FormImport
import Foundation
import Hummingbird
import NIOCore

/// A value for a Mustache context: the cleaned text, or `false` so that `{{#key}}` sections
/// skip it (an `Optional` in `Any` would count as present and print "nil").
func mustacheOptional(_ text: String?) -> Any {
    text.map(HTML.clean) ?? false
}

/// One line of the error summary at the top of an admin page.
struct AdminProblem: Sendable, Hashable {
    var text: String
    var href: String?
}

/// What every admin page shares: the header, navigation, notice and error summary.
struct AdminPage {
    var viewer: Viewer
    var token: String
    var heading: String
    var back: (href: String, text: String) = ("/", "Forms")
    var notice: String?
    var problems: [AdminProblem] = []
    var navForms = false
    var navUsers = false

    func context(title: String) -> [String: Any] {
        let prefix = problems.isEmpty ? "" : "Error: "
        return [
            "pageTitle": prefix + HTML.clean(title) + " – Admin – " + PageViewModel.siteName,
            "htmlClass": "fw-page fw-layout-auto",
            "bodyClass": "fw-body fw-body--admin",
            "heading": HTML.clean(heading),
            "backHref": back.href,
            "backText": HTML.clean(back.text),
            "accountName": HTML.clean(viewer.account?.name ?? ""),
            "csrf": token,
            "notice": mustacheOptional(notice),
            "hasErrors": !problems.isEmpty,
            "summary": problems.map { ["text": HTML.clean($0.text), "href": mustacheOptional($0.href)] },
            "navForms": navForms,
            "navUsers": navUsers,
        ]
    }

    /// "22 November 2026, 14:30 UTC".
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "d MMMM yyyy, HH:mm 'UTC'"
        return formatter.string(from: date)
    }
}

/// What a finished action says at the top of the page it returns to (`?done=<key>`).
enum AdminNotice {
    /// The notice for a `done` key, or nil for an unknown one.
    static func text(_ key: String) -> String? {
        switch key {
        case "access": "Access saved."
        case "retired": "The form is retired: it is no longer offered, and its create view answers “gone”."
        case "restored": "The form is restored and offered again."
        case "options": "Options uploaded; the form offers them now."
        case "added": "User added."
        case "password": "Password reset; the user's sessions have ended."
        case "removed": "User removed."
        default: nil
        }
    }
}

extension PageRenderer {
    /// An admin page as a response: rendered per request, never cached.
    func adminPage(_ context: [String: Any], template: String, status: HTTPResponse.Status = .ok) throws -> Response {
        let html = try render(context, template: template)
        return HTMLResponse.page(ByteBuffer(string: html), status: status, cacheControl: "no-store")
    }
}

/// A refused import as the admin page shows it: each document's errors with the offending
/// line and a marker under the column.
struct ImportErrorReport {
    var summary: [AdminProblem]
    var context: [String: Any]

    init(errors: [ImportError], documents: [ImportDocument]) {
        let data = Dictionary(documents.map { ($0.name, $0.data) }, uniquingKeysWith: { first, _ in first })
        var order: [String] = []
        var byFile: [String: [ImportError]] = [:]
        for error in errors {
            let file = error.file ?? "Import"
            if byFile[file] == nil { order.append(file) }
            byFile[file, default: []].append(error)
        }
        var groups: [[String: Any]] = []
        var index = 0
        var summary: [AdminProblem] = []
        for file in order {
            var items: [[String: Any]] = []
            for error in byFile[file] ?? [] {
                index += 1
                var place = ""
                if error.line > 0 { place = "Line \(error.line)" + (error.column > 0 ? ", column \(error.column):" : ":") }
                var item: [String: Any] = ["message": HTML.clean(error.message), "place": place, "file": HTML.clean(file)]
                if let bytes = data[file], let excerpt = SourceExcerpt(bytes, line: error.line, column: max(error.column, 1)) {
                    item["excerpt"] = [
                        "line": HTML.clean(excerpt.line), "marker": error.column > 0 ? excerpt.marker : "",
                        "lineNumber": error.line, "columnNumber": error.column, "file": HTML.clean(file),
                    ]
                }
                items.append(item)
                summary.append(AdminProblem(text: "\(file)\(error.line > 0 ? ", line \(error.line)" : ""): \(error.message)", href: "#import-errors"))
            }
            groups.append(["file": HTML.clean(file), "errors": items])
        }
        self.summary = summary
        self.context = ["documents": groups]
    }
}

/// The result page of an import: the forms made and the report.
struct ImportReportView {
    var context: [String: Any]

    init(summary: ImportSummary, kind: SourceKind, at: Date?, by: String?) {
        var terms: [String: Int] = [:]
        var termOrder: [String] = []
        var others: [[String: Any]] = []
        for warning in summary.warnings {
            if warning.code == "unused-annotation", let term = warning.term {
                if terms[term] == nil { termOrder.append(term) }
                terms[term, default: 0] += warning.count
                continue
            }
            var place = warning.file ?? ""
            if warning.line > 0 { place += (place.isEmpty ? "line " : ":") + String(warning.line) }
            others.append([
                "message": HTML.clean(warning.message), "place": HTML.clean(place),
                "count": warning.count, "repeated": warning.count > 1,
            ])
        }
        let sortedTerms = termOrder.sorted { (terms[$0] ?? 0, $1) > (terms[$1] ?? 0, $0) }
        let skipped: [[String: Any]] = summary.skipped.map { skip in
            var place = skip.file ?? ""
            if skip.line > 0 { place += ":\(skip.line)" }
            return ["name": HTML.clean(skip.name), "reason": HTML.clean(skip.reason), "place": HTML.clean(place)]
        }
        context = [
            "when": at.map(AdminPage.timestamp) ?? "",
            "by": mustacheOptional(by),
            "kind": kind == .native ? "Native spec" : "\(kind.displayName) metadata",
            "documents": HTML.clean(summary.documents.joined(separator: ", ")),
            "forms": summary.forms.map { form -> [String: Any] in
                ["id": form.id, "title": HTML.clean(form.title), "version": form.version, "isNew": form.version == 1,
                 "fieldCount": form.fieldCount]
            },
            "skipped": skipped, "hasSkipped": !skipped.isEmpty,
            "terms": sortedTerms.map { ["term": HTML.clean($0), "count": terms[$0] ?? 0] }, "hasTerms": !sortedTerms.isEmpty,
            "warnings": others, "hasWarnings": !others.isEmpty,
            "clean": skipped.isEmpty && sortedTerms.isEmpty && others.isEmpty,
        ]
    }
}
