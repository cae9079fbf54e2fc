/// The context of a version's preview (`admin/preview`): its create view at compact and regular
/// width, side by side.
package struct FormPreviewPage: PageContext {
    package let layout: PageLayout
    package let admin: AdminHeader
    package let id: PageText
    package let version: Int
    package let title: PageText

    package init(layout: PageLayout, admin: AdminHeader, id: PageText, version: Int, title: PageText) {
        self.layout = layout
        self.admin = admin
        self.id = id
        self.version = version
        self.title = title
    }
}
