import FormModel
import Foundation

/// A place in a list that a link pages from: the key of an entry and which way to go. Links
/// carry it as ``token``, base64url without padding of a direction byte and the key's bytes:
/// opaque to the people and scripts that follow them, and read back strictly (``init(token:)``),
/// so a tampered cursor is refused rather than believed.
package struct ListCursor<Key: ListKey>: Sendable, Hashable {
    /// Which way the page goes from ``key``.
    package var direction: PageDirection
    /// The entry the page starts next to; it is not on the page itself.
    package var key: Key

    package init(_ direction: PageDirection, _ key: Key) {
        self.direction = direction
        self.key = key
    }

    /// The cursor a link carries, or nil for anything that is not one (a wrong length, a byte
    /// that is no direction, a key the list could not have made).
    package init?(token: String) {
        guard token.utf8.count <= Self.longestToken, let bytes = Base64URL.decode(token),
            let first = bytes.first, let direction = PageDirection(rawValue: first),
            let key = Key(listKeyBytes: bytes.dropFirst())
        else { return nil }
        self.init(direction, key)
    }

    /// The text a link carries: base64url without padding.
    package var token: String {
        Base64URL.encode([direction.rawValue] + key.listKeyBytes)
    }

    /// No key is longer than a form id (100 bytes), so no cursor is longer than this.
    static var longestToken: Int { 200 }
}

/// Which way a page goes from its cursor, in the list's own order.
package enum PageDirection: UInt8, Sendable, Hashable {
    /// The entries after the cursor's: older objects, forms later in the alphabet.
    case after = 0x61
    /// The entries before the cursor's, nearest first: the page just before it.
    case before = 0x62
}

/// The key a list is ordered by, as a cursor carries it.
package protocol ListKey: Sendable, Hashable {
    var listKeyBytes: [UInt8] { get }
    /// The key from a cursor's bytes, or nil when they cannot be one.
    init?(listKeyBytes: ArraySlice<UInt8>)
}
