import FormModel
import FormPages
import Hummingbird

/// Why a submitted create or edit form is shown again instead of stored.
enum ShownAgain: Sendable {
    /// Refused by validation: the issues in form order, in the summary and under their fields.
    case refused([FieldIssue])
    /// Sent by a long list's Search button, or by Enter in its search box
    /// (``ReceivedSubmission/listSearch(longLists:)``): the list's matches to choose from.
    /// Nothing was validated or stored.
    case searching(ListSearch)
    /// Sent by "Use this choice" under a long list's matches (``ReceivedSubmission/listPick(longLists:)``):
    /// the form again with the fields the choice gives filled in. Nothing was validated or stored.
    case picked
    /// Sent by the Update button of a form with rules (``InputName/update``): the form again
    /// with the questions that apply to its answers; or by its language switch
    /// (``InputName/language``): the form again in that language. Nothing was validated or stored.
    case updated
    /// Sent by an item list's Add or an item's Remove (``InputName/addItem``,
    /// ``InputName/removeItem``), without JavaScript: the form again with the submission's items
    /// changed so, everything typed kept. Nothing was validated or stored.
    case itemsChanged(Submission)
    /// The service a form in mode `service` writes to did not answer: nothing was created or
    /// changed; the message says so and asks to send again.
    case serviceAway(String)

    /// The page's status: 422 for a refusal, 200 for a search.
    var status: HTTPResponse.Status {
        switch self {
        case .refused: .unprocessableContent
        case .searching, .picked, .updated, .itemsChanged: .ok
        case .serviceAway: .serviceUnavailable
        }
    }
}

extension ShownAgain {
    /// Why a form sent without JavaScript to browse a long list comes back, and the values Use
    /// this choice filled in: a long list's Search button (its matches, the service's for a list
    /// it feeds) or Use this choice (the fields the chosen match gives, filled in); nil when the
    /// form was sent to be stored.
    static func browsing(
        _ received: ReceivedSubmission, view: FormView, valueHelps: ServiceValueHelps, target: ServiceTarget?
    ) async -> (ShownAgain, filled: [String: [String]])? {
        let fields = received.submission.fields
        if view.form.rules != nil, received.control(InputName.update) != nil { return (.updated, [:]) }
        if received.control(InputName.language) != nil { return (.updated, [:]) }
        if let changed = itemsChanged(received, lists: view.schema.itemLists, clock: view.form.clock()) {
            return (.itemsChanged(changed), [:])
        }
        if let field = received.listPick(longLists: view.optionSearches.keys) {
            let filled = await valueHelps.pick(
                field, strings: received.submission.pageInputs, schema: view.schema, readOnly: view.readOnlyFields,
                target: target)
            return (.picked, filled)
        }
        guard let search = received.listSearch(longLists: view.optionSearches.keys) else { return nil }
        let found = await valueHelps.search(
            search, strings: received.submission.pageInputs, schema: view.schema, readOnly: view.readOnlyFields,
            target: target)
        return (.searching(found), [:])
    }
}

extension ShownAgain {
    /// The submission with the item Add or Remove asked for, when one was (a path the form
    /// does not have, or a full list, changes nothing and still shows the form again).
    /// A new item's fields start with their defaults, `today` and `now` read from `clock`.
    static func itemsChanged(_ received: ReceivedSubmission, lists: [ItemList], clock: ClockReading) -> Submission? {
        guard !lists.isEmpty else { return nil }
        var submission = received.submission
        if let path = received.control(InputName.addItem) {
            _ = submission.addItem(at: path, lists: lists, clock: clock)
            return submission
        }
        if let path = received.control(InputName.removeItem) {
            _ = submission.removeItem(at: path, lists: lists)
            return submission
        }
        return nil
    }
}

extension SubmissionReader {
    /// The view's state for a submission shown again: every entered string kept (unchecked
    /// boxes stay unchecked because they are absent), read-only fields showing the server's
    /// values, the files fit to keep listed again (``listable(_:_:schema:viewer:stored:)``), and
    /// the refusal's issues or the searched list's matches.
    /// - Parameters:
    ///   - serverValues: the read-only fields' values (``PreparedForm/serverValues(known:)``).
    ///   - stored: the object's own files, on edit.
    func state(
        shownAgain reason: ShownAgain, _ received: ReceivedSubmission, view: FormView, viewer: Viewer,
        serverValues: [String: [String]], stored: [String: [SubmittedFile]]
    ) async throws -> RenderState {
        var submission = received.submission
        if case .itemsChanged(let changed) = reason { submission = changed }
        // Items' values under their page names, numbered again in order.
        var values = submission.pageInputs
        for (name, strings) in serverValues { values[name] = strings }
        var state = RenderState(values: values, csrfToken: viewer.csrfToken)
        state.itemCounts = submission.itemCounts(of: view.schema.itemLists)
        // What the form's rules make of these answers, once: the questions that apply, and the
        // options a list they filter offers.
        let (form, session, asked, counts) = (
            view.form, RuleSession(view.form, viewer: viewer), values, state.itemCounts
        )
        let verdict =
            form.rules == nil
            ? nil : await BlockingWork.run { form.rulesVerdict(for: asked, itemCounts: counts, session: session) }
        switch reason {
        case .refused(let issues):
            state.errors = issues.map {
                FieldError(field: $0.field, message: $0.message, item: view.schema.itemNames(of: $0.field))
            }
        case .serviceAway(let message):
            state.errors = [FieldError(field: "", message: message)]
        case .picked, .updated, .itemsChanged:
            break
        case .searching(let search):
            if let found = search.found {
                state.listSearches[search.field] = found
                state.values[InputName.searchedQuery(of: search.field)] = [search.query]
            } else if let finder = view.optionSearches[ItemList.ruleKey(search.field)] {
                // A list the rules filter (an XForm's itemset) shows only what they offer for these answers.
                let found = finder.search(search.query, among: verdict?.offered[search.field].map(Set.init))
                state.listSearches[search.field] = ListSearchResult(
                    query: search.query, matches: found.matches, total: found.total)
                state.values[InputName.searchedQuery(of: search.field)] = [search.query]
            }
        }
        state.stagedFileIDs = received.stagedIDs
        state.files = try await listable(submission, received, schema: view.schema, viewer: viewer, stored: stored)
        // The questions that apply to these answers, whatever brought the form back.
        if let verdict { state.show(verdict, of: view.form) }
        return state
    }
}
