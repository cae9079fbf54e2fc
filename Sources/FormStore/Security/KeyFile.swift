import Foundation

/// A key of 32 bytes as Fieldwork keeps it outside the database: base64 in an environment
/// variable, or in a file of the data folder readable by its owner only (`sealing.key`,
/// `signing.key`).
enum KeyFile {
    /// The 32 bytes of a base64 text (surrounding white space ignored); nil for anything else.
    static func decode(_ text: String) -> Data? {
        Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { $0.count == 32 ? $0 : nil }
    }

    /// The key in `file`, nil when there is none; `malformed` when it holds anything else.
    static func read(_ file: URL, malformed: @autoclosure () -> any Error) throws -> Data? {
        guard let text = FileManager.default.contents(atPath: file.path) else { return nil }
        guard let key = decode(String(decoding: text, as: UTF8.self)) else { throw malformed() }
        return key
    }

    /// The key in `file`, or `fresh()` written there when there is none, with whether it was
    /// written. The file is made with mode 600 (never readable by others, not even for a moment)
    /// and only if none exists: when another process on the same folder made it first, its key
    /// is the key.
    static func readOrCreate(
        _ file: URL, fresh: () throws -> Data, malformed: @autoclosure () -> any Error
    ) throws -> (key: Data, created: Bool) {
        if let key = try read(file, malformed: malformed()) { return (key, false) }
        try PrivateFiles.folder(file.deletingLastPathComponent())
        let key = try fresh()
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            guard errno == EEXIST, let key = try read(file, malformed: malformed()) else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            return (key, false)
        }
        let text = Array(key.base64EncodedString().utf8)
        let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == text.count, synced else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return (key, true)
    }
}
