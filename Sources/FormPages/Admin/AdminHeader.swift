/// One line of the error summary at the top of an admin page.
package struct AdminProblem: Sendable, Hashable {
    package var text: String
    package var href: String?

    package init(text: String, href: String? = nil) {
        self.text = text
        self.href = href
    }
}

/// The context of `admin/header`, which every admin page has under `admin` (`{{admin.csrf}}`
/// in its forms).
package struct AdminHeader {
    package let backHref: PageText
    package let backText: PageText
    package let heading: PageText
    package let accountName: PageText
    package let csrf: String
    package let notice: PageText
    package let hasErrors: Bool
    package let summary: [SummaryLine]
    package let navForms: Bool
    package let navUsers: Bool
    /// The admin signs in with a password alone: every admin page asks them to turn on a second factor.
    package let withoutSecondFactor: Bool

    /// A problem in the error summary, linking to where it is when it says where.
    package struct SummaryLine {
        package let text: PageText
        package let href: PageText

        package init(text: PageText, href: PageText) {
            self.text = text
            self.href = href
        }
    }

    package init(
        backHref: PageText, backText: PageText, heading: PageText, accountName: PageText, csrf: String,
        notice: PageText, summary: [SummaryLine], navForms: Bool, navUsers: Bool,
        withoutSecondFactor: Bool
    ) {
        self.backHref = backHref
        self.backText = backText
        self.heading = heading
        self.accountName = accountName
        self.csrf = csrf
        self.notice = notice
        hasErrors = !summary.isEmpty
        self.summary = summary
        self.navForms = navForms
        self.navUsers = navUsers
        self.withoutSecondFactor = withoutSecondFactor
    }
}
