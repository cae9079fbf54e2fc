import FormModel
import FormPages
import Foundation

extension RuleSession {
    /// Who submits and when, for a form's rules: the form's clock, the account (its name; an
    /// email too when the name is one), and when the create view was shown (sealed with its
    /// read-only values under ``RuleSession/startedKey``).
    init(_ form: PreparedForm, viewer: Viewer, sealed: [String: [String]] = [:]) {
        let name = viewer.account?.name
        self.init(
            now: Date(), timeZone: form.timeZone,
            started: sealed[Self.startedKey]?.first.flatMap(Double.init).map(Date.init(timeIntervalSince1970:)),
            username: name, email: name.flatMap { $0.contains("@") ? $0 : nil })
    }
}

extension RenderState {
    /// Shows what the form's rules make of the state's values (a form without rules: nothing).
    /// - Parameter keep: the values are a create view's starting answers: their verdict is kept
    ///   for the next create view (``PreparedForm/knownVerdict(for:)``).
    mutating func showRules(of form: PreparedForm, viewer: Viewer, keep: Bool = false) async {
        guard form.rules != nil else { return }
        if let known = form.knownVerdict(for: values) {
            // The same starting answers as the last view's, for rules that read nothing else.
            show(known, of: form)
            return
        }
        let (session, values, counts) = (RuleSession(form, viewer: viewer), values, itemCounts)
        guard
            let verdict = await BlockingWork.run({
                form.rulesVerdict(for: values, itemCounts: counts, session: session, keep: keep, lookedUp: true)
            })
        else { return }
        show(verdict, of: form)
    }
}
