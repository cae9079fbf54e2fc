import Foundation

/// A signed-in account as the pages need it.
package struct Account: Sendable, Hashable {
    package var id: UUID
    package var name: String
    package var isAdmin: Bool
    /// Whether signing in asks a code from an authenticator app after the password.
    package var hasSecondFactor = false
}
