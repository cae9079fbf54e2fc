import FormStore
import Foundation
import HummingbirdOTP

/// The second factor of sign-in: a code from an authenticator app (TOTP, RFC 6238: HMAC-SHA1,
/// six digits, a new code every 30 seconds, as every authenticator app makes by default), or
/// one of ten recovery codes, each good once.
///
/// A code is accepted for the time step before and after the server's too (a phone's clock a
/// little off, a code typed as it changed), and once only: a code of a step at or before the
/// last one accepted is spent, so a code seen over a shoulder or in a proxy's log opens nothing.
/// Enrolment shows the `otpauth://` link an authenticator app opens and the key written out
/// for typing; the factor is on once a code made with that key comes back.
struct SecondFactors: Sendable {
    let store: SecondFactorStore
    /// The time codes are made for: the system's, or a test's own.
    let now: @Sendable () -> Date

    static let timeStep = 30
    /// How many steps either side of the server's a code may be of.
    static let window: Int64 = 1
    static let recoveryCodeCount = 10
    /// The name authenticator apps show beside the account's.
    static let issuer = "Fieldwork"

    init(store: SecondFactorStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.now = now
    }

    /// What the enrolment page shows: the link an authenticator app opens, and the same key
    /// written out in groups of four for typing.
    struct Enrolment: Sendable {
        var link: String
        var key: String
    }

    /// The enrolment of the account's new secret, made on first asking and kept until it is
    /// confirmed, so a reload shows the key the app may hold already.
    func enrolment(for account: Account) async throws -> Enrolment {
        let secret: String
        if let pending = try await store.pendingSecret(of: account.id) {
            secret = pending
        } else {
            secret = Self.makeSecret()
            try await store.setPending(secret, of: account.id)
        }
        let link = TOTP(secret: secret).createAuthenticatorURL(
            label: "\(Self.issuer):\(account.name)", issuer: Self.issuer)
        let key = URLComponents(string: link)?.queryItems?.first { $0.name == "secret" }?.value ?? ""
        return Enrolment(link: link, key: Self.grouped(key))
    }

    /// Turns the factor on when `code` (a code's value, as ``sixDigits(_:)`` reads it) is right
    /// for the secret being enrolled: its recovery codes, to be shown once; nil when the code is
    /// wrong (or no enrolment is under way). Every session of the account ends: the caller gives
    /// its browser a new one.
    func confirm(_ code: Int, for account: Account) async throws -> [String]? {
        guard let secret = try await store.pendingSecret(of: account.id),
            let step = Self.steps(matching: code, secret: secret, at: now()).last
        else { return nil }
        let codes = (0..<Self.recoveryCodeCount).map { _ in Self.makeRecoveryCode() }
        guard
            try await store.activate(secret, step: step, recoveryCodes: codes, of: account.id)
        else { return nil }
        return codes
    }

    /// What a code typed at sign-in is.
    enum Verdict: Sendable, Equatable {
        /// The app's code for now: accepted, and spent.
        case code
        /// One of the recovery codes: accepted and spent; `left` remain.
        case recoveryCode(left: Int)
        /// The app's code, but one accepted already (or of an earlier step than one accepted).
        case spent
        case wrong
    }

    /// Checks and spends a code of the account's: six digits from the app, or a recovery code.
    func check(_ typed: String, for account: Account) async throws -> Verdict {
        if let value = Self.sixDigits(typed) {
            guard let factor = try await store.secret(of: account.id) else { return .wrong }
            let steps = Self.steps(matching: value, secret: factor.secret, at: now())
            guard let step = steps.last else { return .wrong }
            if let last = factor.lastStep, step <= last { return .spent }
            return try await store.accept(step: step, of: account.id) ? .code : .spent
        }
        let normal = SecondFactorStore.normalRecoveryCode(typed)
        guard normal.count == 10, normal.allSatisfy(Self.recoveryAlphabet.contains) else { return .wrong }
        guard let left = try await store.takeRecoveryCode(normal, of: account.id) else { return .wrong }
        return .recoveryCode(left: left)
    }

    /// Ten new recovery codes in place of the old ones; nil when the account has no second factor.
    func newRecoveryCodes(for account: Account) async throws -> [String]? {
        let codes = (0..<Self.recoveryCodeCount).map { _ in Self.makeRecoveryCode() }
        return try await store.replaceRecoveryCodes(with: codes, of: account.id) ? codes : nil
    }

    /// The time steps within the window around `date` whose code for `secret` is `wanted` (a code's
    /// value, as ``sixDigits(_:)`` reads it), oldest first.
    static func steps(matching wanted: Int, secret: String, at date: Date) -> [Int64] {
        let totp = TOTP(secret: secret, length: 6, timeStep: timeStep)
        let current = Int64(date.timeIntervalSince1970) / Int64(timeStep)
        return (current - window...current + window).filter { step in
            totp.compute(date: Date(timeIntervalSince1970: TimeInterval(step * Int64(timeStep)))) == wanted
        }
    }

    /// The value of a code as typed, without its spaces (apps show `123 456`), when it is six
    /// digits, else nil.
    static func sixDigits(_ typed: String) -> Int? {
        let digits = typed.utf8.filter { $0 != UInt8(ascii: " ") }
        guard digits.count == 6 else { return nil }
        return digits.reduce(into: Optional(0)) { value, byte in
            value =
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? value.map { $0 * 10 + Int(byte - 48) } : nil
        }
    }

    /// The app's code for `date`, six digits with leading zeros.
    static func code(secret: String, at date: Date) -> String {
        let value = TOTP(secret: secret, length: 6, timeStep: timeStep).compute(date: date)
        let text = String(value)
        return String(repeating: "0", count: 6 - text.count) + text
    }

    /// A new secret: 20 characters of 62 (119 bits), whose bytes are the HMAC key; the app gets
    /// them in base32.
    static func makeSecret() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<20).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    /// Letters and digits that cannot be mistaken for one another (no 0/o, 1/l/i).
    static let recoveryAlphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")

    /// A recovery code: ten characters of 31 (49 bits) as `xxxxx-xxxxx`.
    static func makeRecoveryCode() -> String {
        var generator = SystemRandomNumberGenerator()
        let characters = (0..<10).map { _ in
            recoveryAlphabet[Int(generator.next(upperBound: UInt64(recoveryAlphabet.count)))]
        }
        return String(characters[0..<5]) + "-" + String(characters[5...])
    }

    /// `ABCDEFGH…` as `ABCD EFGH …`.
    static func grouped(_ key: String) -> String {
        var groups: [Substring] = []
        var rest = Substring(key)
        while !rest.isEmpty {
            groups.append(rest.prefix(4))
            rest = rest.dropFirst(4)
        }
        return groups.joined(separator: " ")
    }
}
