/// The context of the admin page (`admin/index`): the import form, a refused import's report and the forms.
package struct AdminDashboard: PageContext {
    package let layout: PageLayout
    package let admin: AdminHeader
    /// The refused import's report, if the page answers one.
    package let importErrors: [ImportErrorReport]
    package let hasKept: Bool
    package let kept: [KeptFile]
    package let pasted: PageText
    package let hasForms: Bool
    package let forms: [FormRow]
    /// The links to the pages of forms before and after this one, when there are more.
    package let previousPage: String?
    package let nextPage: String?
    package let hasPager: Bool
    /// The ids of the import form's controls.
    package let documentsField = Self.documentsField
    package let xmlField = ControlIDs("xml")
    package static let documentsField = ControlIDs("documents")

    /// A file of the refused import, kept to be imported again unless unticked.
    package struct KeptFile {
        package let id: String
        package let index: Int
        package let name: PageText
        package let size: String

        package init(id: String, index: Int, name: PageText, size: String) {
            self.id = id
            self.index = index
            self.name = name
            self.size = size
        }
    }

    /// A form in the list: its latest version, objects, access and state.
    package struct FormRow {
        package let id: PageText
        package let title: PageText
        package let kind: String
        package let version: Int
        package let objects: String
        package let access: String
        package let retired: Bool
        /// The import report of a version imported with warnings about the form.
        package let partly: [Partly]

        package init(
            id: PageText, title: PageText, kind: String, version: Int, objects: String, access: String, retired: Bool,
            partly: [Partly]
        ) {
            self.id = id
            self.title = title
            self.kind = kind
            self.version = version
            self.objects = objects
            self.access = access
            self.retired = retired
            self.partly = partly
        }
    }

    /// "Partly imported: 3 warnings", linking to the import's report.
    package struct Partly {
        package let href: String
        package let text: String

        package init(href: String, text: String) {
            self.href = href
            self.text = text
        }
    }

    package init(
        layout: PageLayout, admin: AdminHeader, importErrors: [ImportErrorReport], kept: [KeptFile],
        pasted: PageText, forms: [FormRow], previousPage: String?, nextPage: String?
    ) {
        self.layout = layout
        self.admin = admin
        self.importErrors = importErrors
        hasKept = !kept.isEmpty
        self.kept = kept
        self.pasted = pasted
        hasForms = !forms.isEmpty
        self.forms = forms
        self.previousPage = previousPage
        self.nextPage = nextPage
        hasPager = previousPage != nil || nextPage != nil
    }
}
