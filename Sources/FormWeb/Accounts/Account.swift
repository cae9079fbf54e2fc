import Foundation

/// A signed-in account as the pages need it.
public struct Account: Sendable, Hashable {
    public var id: UUID
    public var name: String
    public var isAdmin: Bool
}
