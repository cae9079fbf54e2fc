import FormModel
import FormPages
import Hummingbird

/// The answer to a page asking which of its questions apply to the answers typed so far
/// (`POST /forms/{id}/rules`, `POST /forms/{id}/{object}/rules`, sent by `Public/js/rules.js`
/// as the answers change): the server's evaluator is the only one, the page just shows or hides
/// what it says. Nothing is validated or stored.
struct RulesAnswer: Encodable {
    /// The fields whose questions do not apply: their cells hide, what was typed in them kept.
    var hidden: [String]
    /// The fields that apply and must be answered for these answers.
    var required: [String]
    /// The read-only fields' values as the server computes them, as the form's inputs hold them.
    var values: [String: [String]]
    /// The options offered for these answers by the fields whose choices depend on them (an
    /// XForm's filtered itemset); the page hides the others.
    var options: [String: [String]]
    /// What the fields' labels and hints show, computed from the answers, by field, in order.
    var outputs: [String: [String]]
    /// How many items the lists whose count the rules give (an XForm's `jr:count`) have for these
    /// answers, by list path: the page adds or takes away items to match.
    var counts: [String: Int]

    /// Reads the form's answers (its CSRF token checked, as for any POST of the form) and
    /// answers what the form's rules make of them; 404 for a form without rules. A refusal is
    /// JSON too (`{"error": "…"}` with its status: a missing or stale CSRF token, a body too
    /// large), never the HTML error page: the script that asks reads JSON.
    static func answer(
        _ request: Request, form: PreparedForm, viewer: Viewer, reader: SubmissionReader
    ) async throws -> Response {
        do {
            return try await judged(request, form: form, viewer: viewer, reader: reader)
        } catch {
            guard let refusal = try JSONResponse.refusal(error) else { throw error }
            return refusal
        }
    }

    private static func judged(
        _ request: Request, form: PreparedForm, viewer: Viewer, reader: SubmissionReader
    ) async throws -> Response {
        guard form.rules != nil else { throw HTTPError(.notFound) }
        let received = try await reader.readVerified(request, schema: form.schema, viewer: viewer)
        await reader.discard(received, viewer: viewer)
        // Items' answers as the page names them (`members[1].age`), with their lists' counts.
        let lists = form.schema.itemLists
        let (values, counts) = (received.submission.pageInputs, received.submission.itemCounts(of: lists))
        let session = RuleSession(form, viewer: viewer)
        guard
            let verdict = await BlockingWork.run({
                form.rulesVerdict(for: values, itemCounts: counts, session: session)
            })
        else { throw HTTPError(.notFound) }
        let fields =
            form.schema.allFields.map(\.name)
            + RenderState.itemNames(
                of: lists, counts: counts.merging(verdict.itemCounts) { _, fixed in fixed }, parent: nil)
        let answer = RulesAnswer(
            hidden: fields.filter { !verdict.relevant.contains($0) },
            required: fields.filter { verdict.required.contains($0) }, values: form.computedInputs(of: verdict),
            options: verdict.offered,
            outputs: verdict.outputs, counts: verdict.itemCounts)
        var response = try JSONResponse.make(answer, status: .ok)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
