import FormImport
import FormPages
import FormStore
import Foundation
import Hummingbird
import NIOCore

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

    /// The layout's values; the title says "Error: " first when the page lists problems.
    /// - Parameter title: the page's, before "– Admin"; nil for the admin page itself.
    func layout(title: String?) -> PageLayout {
        let prefix = problems.isEmpty ? "" : "Error: "
        let place = title.map { "\($0) – Admin" } ?? "Admin"
        return PageLayout(title: "\(prefix)\(place) – \(PageViewModel.siteName)", body: "admin")
    }

    /// The context of `admin/header`.
    var header: AdminHeader {
        AdminHeader(
            backHref: PageText(back.href), backText: PageText(back.text), heading: PageText(heading),
            accountName: PageText(viewer.account?.name ?? ""), csrf: token, notice: PageText(notice),
            summary: problems.map { AdminHeader.SummaryLine(text: PageText($0.text), href: PageText($0.href)) },
            navForms: navForms, navUsers: navUsers,
            withoutSecondFactor: viewer.account.map { $0.isAdmin && !$0.hasSecondFactor } ?? false)
    }

    /// "22 November 2026, 14:30 UTC".
    static func timestamp(_ date: Date) -> String {
        DisplayDate.timestamp(date)
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
        case "connected": "Connected: the service answered and the connection is stored."
        case "modes": "Modes saved."
        case "disconnected": "Disconnected: the import's forms keep their objects in Fieldwork again."
        case "webhook-removed": "Endpoint removed, with its deliveries."
        case "webhook-sent": "The delivery is being sent again; reload the page to see its answer."
        case "added": "User added."
        case "password": "Password reset; the user's sessions have ended."
        case "removed": "User removed."
        case "two-factor-off": "Two-step sign-in turned off; the user signs in with their password alone."
        default: nil
        }
    }
}

extension PageRenderer {
    /// An admin page as a response: rendered per request, never cached.
    func adminPage(_ context: some PageContext, template: String, status: HTTPResponse.Status = .ok) throws -> Response
    {
        let html = try render(context, template: template)
        return HTMLResponse.page(ByteBuffer(string: html), status: status, cacheControl: "no-store")
    }
}

extension ImportErrorReport {
    /// The errors of a refused import by document, each with the line it points at.
    init(errors: [ImportError], documents: [ImportDocument]) {
        let data = Dictionary(documents.map { ($0.name, $0.data) }, uniquingKeysWith: { first, _ in first })
        var order: [String] = []
        var byFile: [String: [ImportError]] = [:]
        for error in errors {
            let file = error.file ?? "Import"
            if byFile[file] == nil { order.append(file) }
            byFile[file, default: []].append(error)
        }
        var summary: [AdminProblem] = []
        let reported = order.map { file in
            let items = (byFile[file] ?? []).map { error in
                var place = ""
                if error.line > 0 {
                    place = "Line \(error.line)" + (error.column > 0 ? ", column \(error.column):" : ":")
                }
                var excerpts: [Excerpt] = []
                if let bytes = data[file],
                    let excerpt = SourceExcerpt(bytes, line: error.line, column: max(error.column, 1))
                {
                    excerpts.append(
                        Excerpt(
                            line: PageText(excerpt.line), marker: error.column > 0 ? excerpt.marker : "",
                            lineNumber: error.line, columnNumber: error.column, file: PageText(file)))
                }
                summary.append(
                    AdminProblem(
                        text: "\(file)\(error.line > 0 ? ", line \(error.line)" : ""): \(error.message)",
                        href: "#import-errors"))
                return Item(message: PageText(error.message), place: place, file: PageText(file), excerpt: excerpts)
            }
            return Document(file: PageText(file), errors: items)
        }
        self.init(summary: summary, documents: reported)
    }
}

extension ImportReportView {
    /// The report of a stored import as its page shows it.
    init(page: AdminPage, summary: ImportSummary, kind: SourceKind, at: Date?, by: String?) {
        var terms: [String: Int] = [:]
        var termOrder: [String] = []
        var others: [Warning] = []
        var assumptions: [Warning] = []
        var requiredForCreate: [Warning] = []
        var requiredAdded: [String: Int] = [:]
        for warning in summary.warnings {
            if warning.code == .unusedAnnotation, let term = warning.term {
                if terms[term] == nil { termOrder.append(term) }
                terms[term, default: 0] += warning.count
                continue
            }
            var place = warning.file ?? ""
            if warning.line > 0 { place += (place.isEmpty ? "line " : ":") + String(warning.line) }
            switch warning.code {
            case .assumedNamespace:
                assumptions.append(
                    Warning(message: PageText(warning.message), place: PageText(place), count: 1, repeated: false))
            case .requiredForCreate:
                // The count is the number of fields added. Reports stored before warnings had a
                // `form` name the form's id as the term.
                let form = warning.form ?? warning.term
                if let form { requiredAdded[form, default: 0] += warning.count }
                requiredForCreate.append(
                    Warning(
                        message: PageText(form.map { "\($0): " + warning.message } ?? warning.message),
                        place: PageText(place), count: 1, repeated: false))
            default:
                others.append(
                    Warning(
                        message: PageText(warning.message), place: PageText(place), count: warning.count,
                        repeated: warning.count > 1))
            }
        }
        let sortedTerms = termOrder.sorted { (terms[$0] ?? 0, $1) > (terms[$1] ?? 0, $0) }
        let skipped = summary.skipped.map { skip in
            var place = skip.file ?? ""
            if skip.line > 0 { place += ":\(skip.line)" }
            return Skip(name: PageText(skip.name), reason: PageText(skip.reason), place: PageText(place))
        }
        let forms = summary.forms.map { form in
            Form(
                id: PageText(form.id), title: PageText(form.title), version: form.version, isNew: form.version == 1,
                fieldCount: form.fieldCount, requiredAdded: requiredAdded[form.id] ?? 0)
        }
        self.init(
            layout: page.layout(title: "Import"), admin: page.header, when: at.map(AdminPage.timestamp) ?? "",
            by: PageText(by), kind: kind == .native ? "Native spec" : "\(kind.displayName) metadata",
            documents: PageText(summary.documents.joined(separator: ", ")), forms: forms, skipped: skipped,
            terms: sortedTerms.map { Term(term: PageText($0), count: terms[$0] ?? 0) }, warnings: others,
            assumptions: assumptions, requiredForCreate: requiredForCreate)
    }
}
