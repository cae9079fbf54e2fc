/// The parts of a create or edit view's context that are types of their own.
extension PageViewModel.Form {
    /// Where a form with rules asks which questions apply, and its Update button.
    struct Rules: KeyPathContext {
        let url: PageText
        let updateName: String
        /// Where the Update button sends the form: back to the Update block, so the page
        /// comes back where the person was.
        let updateAction: PageText

        static let templateKeys: [String: PartialKeyPath<Rules> & Sendable] = [
            "url": \.url, "updateName": \.updateName, "updateAction": \.updateAction,
        ]
    }

    /// One language of a form's language switch: its tag, its name in itself, and whether the
    /// form is shown in it.
    struct Language: KeyPathContext {
        let tag: String
        let name: PageText
        let current: Bool

        static let templateKeys: [String: PartialKeyPath<Language> & Sendable] = [
            "tag": \.tag, "name": \.name, "current": \.current,
        ]
    }
}
