/// A create view's one-time token: a random value in a hidden `_once` input, new for every
/// create view and kept when a refused view comes back. The create it sends is stored once
/// (``OnceKey/page(_:)``): a double click or a resubmission after a timeout, to any instance,
/// is answered with the first create's object.
enum SubmissionToken {
    /// 32 random bytes, base64url without padding.
    static func make() -> String { CSRF.randomID() }

    /// The token as sent, when it has the shape of one this server makes; nil otherwise.
    static func parse(_ value: String?) -> String? {
        guard let value, CSRF.isWellFormedID(value) else { return nil }
        return value
    }
}
