/// The context of `admin/form`, the admin's page of one form: its summary, access and state, the
/// service an OData form's import is connected to, webhooks, export, versions with their
/// downloads and value lists with their upload forms.
package struct FormSettingsPage: PageContext {
    package let layout: PageLayout
    package let admin: AdminHeader
    package let id: PageText
    package let title: PageText
    package let kind: String
    package let version: Int
    package let objects: Int
    package let retired: Bool
    package let isPublic: Bool
    /// The service section, for forms imported from OData.
    package let service: ServiceSection?
    package let webhooks: WebhookSection
    package let versions: [VersionRow]
    package let lists: [ListRow]
    package let export: ExportSection

    package init(
        layout: PageLayout, admin: AdminHeader, id: PageText, title: PageText, kind: String, version: Int,
        objects: Int, retired: Bool, isPublic: Bool, service: ServiceSection?, webhooks: WebhookSection,
        versions: [VersionRow], lists: [ListRow], export: ExportSection
    ) {
        self.layout = layout
        self.admin = admin
        self.id = id
        self.title = title
        self.kind = kind
        self.version = version
        self.objects = objects
        self.retired = retired
        self.isPublic = isPublic
        self.service = service
        self.webhooks = webhooks
        self.versions = versions
        self.lists = lists
        self.export = export
    }

    /// The ids of the upload field of the list `listID`; the error summary links a refused
    /// upload to it.
    package static func csvField(of listID: String) -> ControlIDs { ControlIDs(id: "list-\(listID)-csv") }

    /// A stored version: when and how it came, its objects and its downloads.
    package struct VersionRow {
        package let formID: PageText
        package let version: Int
        package let when: String
        package let by: PageText
        package let kind: String
        package let objects: Int
        package let importHref: PageText
        package let documents: [DocumentLink]

        package init(
            formID: PageText, version: Int, when: String, by: PageText, kind: String, objects: Int,
            importHref: PageText, documents: [DocumentLink]
        ) {
            self.formID = formID
            self.version = version
            self.when = when
            self.by = by
            self.kind = kind
            self.objects = objects
            self.importHref = importHref
            self.documents = documents
        }
    }

    /// A source document of a version, to download.
    package struct DocumentLink {
        package let name: PageText
        package let href: PageText

        package init(name: PageText, href: PageText) {
            self.name = name
            self.href = href
        }
    }

    /// A value list: its title (else the fields using it), its options and the upload form.
    package struct ListRow {
        package let formID: PageText
        package let listID: PageText
        /// For an XForm's list read from an external instance, the instance's id: the upload
        /// takes the form's file (CSV with a header, or XML).
        package let odkFile: [PageText]
        package let heading: PageText
        /// The fields using a list headed by its title.
        package let usedBy: [PageText]
        package let status: PageText
        package let preview: PageText
        package let hasPreview: Bool
        package let errors: [ErrorLine]
        package let hasErrors: Bool
        /// The ids of its upload field.
        package let csvField: ControlIDs

        package init(
            formID: PageText, listID: String, odkFile: [PageText], heading: PageText, usedBy: [PageText],
            status: PageText, preview: PageText, errors: [PageText]
        ) {
            self.formID = formID
            self.listID = PageText(listID)
            csvField = FormSettingsPage.csvField(of: listID)
            self.odkFile = odkFile
            self.heading = heading
            self.usedBy = usedBy
            self.status = status
            self.preview = preview
            hasPreview = !preview.isEmpty
            self.errors = errors.map(ErrorLine.init)
            hasErrors = !errors.isEmpty
        }
    }

    /// A refused upload's error.
    package struct ErrorLine {
        package let text: PageText
    }
}
