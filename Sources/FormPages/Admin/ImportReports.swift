/// A refused import as the admin page shows it: each document's errors with the offending
/// line and a marker under the column.
package struct ImportErrorReport {
    /// One line per error, for the page's error summary.
    package let summary: [AdminProblem]
    /// The errors by document, in the order the documents first fail.
    package let documents: [Document]

    /// A document's errors.
    package struct Document {
        package let file: PageText
        package let errors: [Item]

        package init(file: PageText, errors: [Item]) {
            self.file = file
            self.errors = errors
        }
    }

    /// One error: where, what, and the line it points at when there is one.
    package struct Item {
        package let message: PageText
        package let place: String
        package let file: PageText
        package let excerpt: [Excerpt]

        package init(message: PageText, place: String, file: PageText, excerpt: [Excerpt]) {
            self.message = message
            self.place = place
            self.file = file
            self.excerpt = excerpt
        }
    }

    /// The offending line with a marker under the column.
    package struct Excerpt {
        package let line: PageText
        package let marker: String
        package let lineNumber: Int
        package let columnNumber: Int
        package let file: PageText

        package init(line: PageText, marker: String, lineNumber: Int, columnNumber: Int, file: PageText) {
            self.line = line
            self.marker = marker
            self.lineNumber = lineNumber
            self.columnNumber = columnNumber
            self.file = file
        }
    }

    package init(summary: [AdminProblem], documents: [Document]) {
        self.summary = summary
        self.documents = documents
    }
}

/// The result page of an import (`admin/import`): the forms made and the report.
package struct ImportReportView: PageContext {
    package let layout: PageLayout
    package let admin: AdminHeader
    package let when: String
    package let by: PageText
    package let kind: String
    package let documents: PageText
    package let forms: [Form]
    package let skipped: [Skip]
    package let hasSkipped: Bool
    package let terms: [Term]
    package let hasTerms: Bool
    package let warnings: [Warning]
    package let hasWarnings: Bool
    /// What was assumed about sloppy documents (EDM elements in no namespace or the wrong one).
    package let assumptions: [Warning]
    package let hasAssumptions: Bool
    /// Forms with fields added because the service requires them for a create.
    package let requiredForCreate: [Warning]
    package let hasRequiredForCreate: Bool
    /// Nothing skipped, unused or warned about.
    package let clean: Bool

    /// A form the import made or gave a new version.
    package struct Form {
        package let id: PageText
        package let title: PageText
        package let version: Int
        package let isNew: Bool
        package let fieldCount: Int
        /// How many of its fields were added because the service requires them for a create.
        package let requiredAdded: Int
        package let hasRequiredAdded: Bool

        package init(id: PageText, title: PageText, version: Int, isNew: Bool, fieldCount: Int, requiredAdded: Int) {
            self.id = id
            self.title = title
            self.version = version
            self.isNew = isNew
            self.fieldCount = fieldCount
            self.requiredAdded = requiredAdded
            hasRequiredAdded = requiredAdded > 0
        }
    }

    /// Something the import left out, and why.
    package struct Skip {
        package let name: PageText
        package let reason: PageText
        package let place: PageText

        package init(name: PageText, reason: PageText, place: PageText) {
            self.name = name
            self.reason = reason
            self.place = place
        }
    }

    /// An annotation term the import did not use, and how often it appeared.
    package struct Term {
        package let term: PageText
        package let count: Int

        package init(term: PageText, count: Int) {
            self.term = term
            self.count = count
        }
    }

    /// Any other warning, with where and how often.
    package struct Warning {
        package let message: PageText
        package let place: PageText
        package let count: Int
        package let repeated: Bool

        package init(message: PageText, place: PageText, count: Int, repeated: Bool) {
            self.message = message
            self.place = place
            self.count = count
            self.repeated = repeated
        }
    }

    package init(
        layout: PageLayout, admin: AdminHeader, when: String, by: PageText, kind: String, documents: PageText,
        forms: [Form], skipped: [Skip], terms: [Term], warnings: [Warning], assumptions: [Warning],
        requiredForCreate: [Warning]
    ) {
        self.layout = layout
        self.admin = admin
        self.when = when
        self.by = by
        self.kind = kind
        self.documents = documents
        self.forms = forms
        self.skipped = skipped
        hasSkipped = !skipped.isEmpty
        self.terms = terms
        hasTerms = !terms.isEmpty
        self.warnings = warnings
        hasWarnings = !warnings.isEmpty
        self.assumptions = assumptions
        hasAssumptions = !assumptions.isEmpty
        self.requiredForCreate = requiredForCreate
        hasRequiredForCreate = !requiredForCreate.isEmpty
        clean = !(hasSkipped || hasTerms || hasWarnings || hasAssumptions || hasRequiredForCreate)
    }
}
