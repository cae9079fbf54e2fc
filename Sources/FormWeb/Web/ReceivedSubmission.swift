import FormModel
import FormPages

/// A POSTed form as the routes need it: the ``Submission`` the model validates, and apart from
/// it the control inputs (`_csrf`, `_prefill`) that are not fields.
struct ReceivedSubmission: Sendable {
    var submission: Submission
    var controls: [String: String]
    /// Files this request itself staged (multipart uploads).
    var uploadedIDs: [String] = []
    /// Every staged file the submission holds: uploaded now, or kept from a refused attempt.
    var stagedIDs: Set<String> = []

    /// Inputs that steer the request rather than carry a field's value.
    static let controlNames: Set<String> = [
        InputName.csrf, InputName.prefill, InputName.once, InputName.search, InputName.enter, InputName.pick,
        InputName.draft, InputName.discard, InputName.etag, InputName.update, InputName.addItem, InputName.removeItem,
        InputName.language,
    ]

    /// Splits the control inputs off a body's fields.
    init(fields: [String: [String]], files: [String: [SubmittedFile]] = [:]) {
        var fields = fields
        var controls: [String: String] = [:]
        for name in Self.controlNames {
            if let value = fields.removeValue(forKey: name)?.first { controls[name] = value }
        }
        submission = Submission(fields: fields, files: files)
        self.controls = controls
    }

    func control(_ name: String) -> String? { controls[name] }

    /// The long value list the user asked to search, without JavaScript, and what they typed
    /// into its search box; nil when the form was sent to be stored. Asked by its Search button,
    /// or by Enter (``InputName/enter``) while one of the `longLists`' boxes holds a query other
    /// than the one whose matches are shown: Enter in a search box searches, as people expect.
    /// `longLists` name an item's list by its rule key (`members[].country`); the search names
    /// the item's input (`members[1].country`).
    func listSearch(longLists: some Collection<String>) -> ListSearch? {
        if let field = controls[InputName.search], !field.isEmpty {
            return longLists.contains(ItemList.ruleKey(field)) ? search(field) : nil
        }
        guard controls[InputName.enter] != nil else { return nil }
        let wanted = Set(longLists)
        // The boxes the page sent: the form's own lists' and every item's.
        let boxes = submission.pageInputs.keys.compactMap { name -> String? in
            guard name.hasSuffix(InputName.searchQuery(of: "")) else { return nil }
            let field = String(name.dropLast(InputName.searchQuery(of: "").count))
            return wanted.contains(ItemList.ruleKey(field)) ? field : nil
        }
        return boxes.sorted().lazy.map(search).first { search in
            !search.query.isEmpty
                && search.query != submission.strings(atInput: InputName.searchedQuery(of: search.field))?.first
        }
    }

    /// The long value list whose chosen match "Use this choice" takes (without JavaScript), to
    /// fill in the fields it gives; nil when the form was sent for anything else.
    func listPick(longLists: some Collection<String>) -> String? {
        guard let field = controls[InputName.pick], longLists.contains(ItemList.ruleKey(field)) else { return nil }
        return field
    }

    private func search(_ field: String) -> ListSearch {
        ListSearch(field: field, query: submission.strings(atInput: InputName.searchQuery(of: field))?.first ?? "")
    }
}

/// A request to search a long value list rather than to store the form: the field, and what
/// was typed into its search box.
struct ListSearch: Sendable, Hashable {
    var field: String
    var query: String
    /// The matches when the list is searched elsewhere (a form's OData service); nil searches
    /// the view's own options.
    var found: ListSearchResult? = nil
}
