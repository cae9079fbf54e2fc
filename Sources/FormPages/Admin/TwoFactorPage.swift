/// The context of `two-factor.mustache`: one of its three parts.
package struct TwoFactorPage: PageContext {
    package let layout: PageLayout
    package let csrf: String
    package let notice: PageText
    package let hasErrors: Bool
    package let summary: [AdminHeader.SummaryLine]
    /// Turning on: the link and key, the code field.
    package var enrol: [Enrol] = []
    /// Recovery codes just made, shown once.
    package var codes: [Codes] = []
    /// On: codes left, new codes, turning off.
    package var on: [On] = []
    /// The ids of each form's code field.
    package let codeField = Form.enrol.field
    package let newCodesField = Form.newCodes.field
    package let offField = Form.off.field

    /// The forms of the page, each with its own code field.
    package enum Form: Hashable, Sendable {
        case enrol
        case newCodes
        case off

        /// The ids of its code field (each form's differs: they share the page).
        package var field: ControlIDs {
            switch self {
            case .enrol: ControlIDs("code")
            case .newCodes: ControlIDs("codes-code")
            case .off: ControlIDs("off-code")
            }
        }
    }

    package struct Enrol {
        package let link: PageText
        package let key: PageText
        package let error: PageText

        package init(link: PageText, key: PageText, error: PageText) {
            self.link = link
            self.key = key
            self.error = error
        }
    }

    package struct Codes {
        package let heading: PageText
        package let list: [PageText]

        package init(heading: PageText, list: [PageText]) {
            self.heading = heading
            self.list = list
        }
    }

    package struct On {
        package let codesLeft: PageText
        package let lowOnCodes: Bool
        package let newCodesError: PageText
        package let offError: PageText

        package init(codesLeft: PageText, lowOnCodes: Bool, newCodesError: PageText, offError: PageText) {
            self.codesLeft = codesLeft
            self.lowOnCodes = lowOnCodes
            self.newCodesError = newCodesError
            self.offError = offError
        }
    }

    /// The page with its errors by form, in the page's order in the summary.
    package init(csrf: String, notice: String?, errors: [Form: String]) {
        let order: [Form] = [.enrol, .newCodes, .off]
        let prefix = errors.isEmpty ? "" : "Error: "
        layout = PageLayout(title: "\(prefix)Two-step sign-in – \(PageViewModel.siteName)", body: "admin")
        self.csrf = csrf
        self.notice = PageText(notice)
        hasErrors = !errors.isEmpty
        summary = order.compactMap { form in
            errors[form].map { AdminHeader.SummaryLine(text: PageText($0), href: PageText(form.field.link)) }
        }
    }
}
