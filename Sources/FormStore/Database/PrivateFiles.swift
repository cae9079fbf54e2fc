import Foundation

/// Keeps the data folder to the account that runs Fieldwork: it holds every submission, the
/// attachments, the keys and the sessions, so the folder is 0700 and every file in it that
/// Fieldwork or SQLite makes is 0600, whatever the process's umask. Files of earlier versions
/// (made 0644 in a 0755 folder) are narrowed at start.
package enum PrivateFiles {
    /// Makes `folder` (and its parents) when missing, 0700; narrows it to 0700 when it exists.
    package static func folder(_ folder: URL) throws {
        let manager = FileManager.default
        if !manager.fileExists(atPath: folder.path) {
            try manager.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        try narrow(folder.path, to: 0o700)
    }

    /// SQLite's file made empty with mode 0600 before SQLite opens it (SQLite gives its `-wal`,
    /// `-shm` and journal files the database file's own mode), and those of an earlier start
    /// narrowed to 0600.
    package static func sqlite(_ file: URL) throws {
        let path = file.path
        if !FileManager.default.fileExists(atPath: path) {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor >= 0 { close(descriptor) } else if errno != EEXIST { throw POSIXError.current }
        }
        for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
            try narrow(path + suffix, to: 0o600)
        }
    }

    /// Takes every permission beyond `mode` away (never adds any).
    private static func narrow(_ path: String, to mode: mode_t) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { throw POSIXError.current }
        let current = info.st_mode & 0o7777
        guard current & ~mode != 0 else { return }
        guard chmod(path, current & mode) == 0 else { throw POSIXError.current }
    }
}

extension POSIXError {
    /// The error `errno` names now.
    fileprivate static var current: POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}
