import FormStore
import Hummingbird

/// The `cursor` query parameter of the lists paged by keyset (the parent page, the admin's
/// forms): read strictly from a request, written into the links to the next pages.
enum ListCursors {
    /// The cursor a request names, or nil for the first page (no `cursor`, or an empty one).
    /// Throws 400 for a cursor that no page made: an address cut short or changed by hand.
    static func read<Key>(_: ListCursor<Key>.Type, from request: Request) throws -> ListCursor<Key>? {
        guard let token = request.uri.queryParameters["cursor"].map(String.init), !token.isEmpty else { return nil }
        guard let cursor = ListCursor<Key>(token: token) else { throw HTTPError(.badRequest, message: refusal) }
        return cursor
    }

    /// The address of the page a cursor names, on the list at `path`.
    static func href<Key>(_ path: String, _ cursor: ListCursor<Key>) -> String {
        "\(path)?cursor=\(cursor.token)"
    }

    /// What a cursor that no page made answers.
    static let refusal =
        "This link to a page of the list is damaged or was changed. Open the list again from its first page."
}
