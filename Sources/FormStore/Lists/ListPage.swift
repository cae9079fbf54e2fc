/// One page of a list paged by keyset: its entries, in the list's order, and the cursors of
/// the pages before and after it (nil when there is none).
package struct ListPage<Item: Sendable, Key: ListKey>: Sendable {
    package var items: [Item]
    /// The page just before this one; nil on the first page.
    package var before: ListCursor<Key>?
    /// The page just after this one; nil on the last page.
    package var after: ListCursor<Key>?

    /// Reads the page a cursor names (the first page without one) through `fetch`, which
    /// returns up to `limit` entries next to a key in a direction, nearest first, from an index
    /// in that order: a page costs the same wherever it is in the list. One entry more than a
    /// page tells whether another page follows.
    ///
    /// A page before a cursor that finds no full page is the start of the list: the first page
    /// is read instead, so the list's pages always start from its first entry.
    static func read(
        _ cursor: ListCursor<Key>?, size: Int, key: (Item) -> Key,
        fetch: (_ direction: PageDirection, _ from: Key?, _ limit: Int) async throws -> [Item]
    ) async throws -> ListPage {
        switch cursor {
        case nil:
            let found = try await fetch(.after, nil, size + 1)
            let items = Array(found.prefix(size))
            return ListPage(
                items: items, before: nil,
                after: found.count > size ? items.last.map { ListCursor(.after, key($0)) } : nil)
        case .some(let cursor) where cursor.direction == .after:
            let found = try await fetch(.after, cursor.key, size + 1)
            let items = Array(found.prefix(size))
            // An empty page (what followed was deleted) still links back to the one before it.
            return ListPage(
                items: items, before: ListCursor(.before, items.first.map(key) ?? cursor.key),
                after: found.count > size ? items.last.map { ListCursor(.after, key($0)) } : nil)
        case .some(let cursor):
            let found = try await fetch(.before, cursor.key, size + 1)
            guard found.count > size else { return try await read(nil, size: size, key: key, fetch: fetch) }
            let items = Array(found.prefix(size).reversed())
            return ListPage(
                items: items, before: items.first.map { ListCursor(.before, key($0)) },
                after: items.last.map { ListCursor(.after, key($0)) })
        }
    }
}
