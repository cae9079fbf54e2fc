import Crypto
import FormModel
import Foundation

/// The key a session is stored under: `h.` and the SHA-256 of the storage key (the session
/// middleware's prefix and the random id the cookie carries), in hex. The database so holds no
/// value a browser could present: a copy of it opens no session. The id is 32 random bytes, so
/// a plain hash is enough (no salt or stretching: nothing is there to guess).
package enum SessionKey {
    package static let prefix = "h."

    package static func stored(_ key: String) -> String {
        prefix + Hex.encode(SHA256.hash(data: Data(key.utf8)))
    }
}
