import FormImport
import FormPages
import FormStore
import Foundation
import Hummingbird
import NIOCore

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
            hasErrors: !problems.isEmpty,
            summary: problems.map { AdminHeader.SummaryLine(text: PageText($0.text), href: PageText($0.href)) },
            navForms: navForms, navUsers: navUsers,
            withoutSecondFactor: viewer.account.map { $0.isAdmin && !$0.hasSecondFactor } ?? false)
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

/// The context of `admin/header`, which every admin page has under `admin` (`{{admin.csrf}}`
/// in its forms).
struct AdminHeader {
    let backHref: PageText
    let backText: PageText
    let heading: PageText
    let accountName: PageText
    let csrf: String
    let notice: PageText
    let hasErrors: Bool
    let summary: [SummaryLine]
    let navForms: Bool
    let navUsers: Bool
    /// The admin signs in with a password alone: every admin page asks them to turn on a second factor.
    let withoutSecondFactor: Bool

    /// A problem in the error summary, linking to where it is when it says where.
    struct SummaryLine {
        let text: PageText
        let href: PageText
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

/// A refused import as the admin page shows it: each document's errors with the offending
/// line and a marker under the column.
struct ImportErrorReport {
    /// One line per error, for the page's error summary.
    let summary: [AdminProblem]
    /// The errors by document, in the order the documents first fail.
    let documents: [Document]

    /// A document's errors.
    struct Document {
        let file: PageText
        let errors: [Item]
    }

    /// One error: where, what, and the line it points at when there is one.
    struct Item {
        let message: PageText
        let place: String
        let file: PageText
        let excerpt: [Excerpt]
    }

    /// The offending line with a marker under the column.
    struct Excerpt {
        let line: PageText
        let marker: String
        let lineNumber: Int
        let columnNumber: Int
        let file: PageText
    }

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
        self.documents = order.map { file in
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
        self.summary = summary
    }
}

/// The result page of an import (`admin/import`): the forms made and the report.
struct ImportReportView: PageContext {
    let layout: PageLayout
    let admin: AdminHeader
    let when: String
    let by: PageText
    let kind: String
    let documents: PageText
    let forms: [Form]
    let skipped: [Skip]
    let hasSkipped: Bool
    let terms: [Term]
    let hasTerms: Bool
    let warnings: [Warning]
    let hasWarnings: Bool
    /// What was assumed about sloppy documents (EDM elements in no namespace or the wrong one).
    let assumptions: [Warning]
    let hasAssumptions: Bool
    /// Forms with fields added because the service requires them for a create.
    let requiredForCreate: [Warning]
    let hasRequiredForCreate: Bool
    /// Nothing skipped, unused or warned about.
    let clean: Bool

    /// A form the import made or gave a new version.
    struct Form {
        let id: PageText
        let title: PageText
        let version: Int
        let isNew: Bool
        let fieldCount: Int
        /// How many of its fields were added because the service requires them for a create.
        let requiredAdded: Int
        let hasRequiredAdded: Bool
    }

    /// Something the import left out, and why.
    struct Skip {
        let name: PageText
        let reason: PageText
        let place: PageText
    }

    /// An annotation term the import did not use, and how often it appeared.
    struct Term {
        let term: PageText
        let count: Int
    }

    /// Any other warning, with where and how often.
    struct Warning {
        let message: PageText
        let place: PageText
        let count: Int
        let repeated: Bool
    }

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
        layout = page.layout(title: "Import")
        admin = page.header
        when = at.map(AdminPage.timestamp) ?? ""
        self.by = PageText(by)
        self.kind = kind == .native ? "Native spec" : "\(kind.displayName) metadata"
        documents = PageText(summary.documents.joined(separator: ", "))
        forms = summary.forms.map { form in
            Form(
                id: PageText(form.id), title: PageText(form.title), version: form.version, isNew: form.version == 1,
                fieldCount: form.fieldCount, requiredAdded: requiredAdded[form.id] ?? 0,
                hasRequiredAdded: (requiredAdded[form.id] ?? 0) > 0)
        }
        self.skipped = skipped
        hasSkipped = !skipped.isEmpty
        self.terms = sortedTerms.map { Term(term: PageText($0), count: terms[$0] ?? 0) }
        hasTerms = !sortedTerms.isEmpty
        warnings = others
        hasWarnings = !others.isEmpty
        self.assumptions = assumptions
        hasAssumptions = !assumptions.isEmpty
        self.requiredForCreate = requiredForCreate
        hasRequiredForCreate = !requiredForCreate.isEmpty
        clean =
            skipped.isEmpty && sortedTerms.isEmpty && others.isEmpty && assumptions.isEmpty && requiredForCreate.isEmpty
    }
}
