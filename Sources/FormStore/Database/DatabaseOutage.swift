import AsyncKit
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// Tells a database that cannot be reached (stopped, restarting, unreachable, no connection free
/// in time) from a query that failed: the first answers 503 (the web layer's error middleware) and
/// is never taken for anything else, such as a used one-time key.
package enum DatabaseOutage {
    /// A database call that did not answer within its deadline (``withDeadline(_:_:)``).
    struct NoAnswer: Error, CustomStringConvertible {
        var description: String { "the database did not answer in time" }
    }

    /// What `operation` gives, or ``NoAnswer`` once `limit` has passed: a database that stops
    /// answering in the middle of a call (a connection the server dropped without a word) must
    /// not hold the request. The operation goes on by itself and may still commit: the client
    /// hears 503 ("it may not have been saved"), as it would from a timeout of its own, and a
    /// create sent again with its one-time key is answered with that object.
    package static func withDeadline<T: Sendable>(
        _ limit: Duration, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let settled = Mutex(false)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let settle: @Sendable (Result<T, any Error>) -> Void = { result in
                guard
                    settled.withLock({ done in
                        defer { done = true }
                        return !done
                    })
                else { return }
                continuation.resume(with: result)
            }
            // Cancelled when the operation settles first, so no timer outlives its call.
            let timer = Task {
                try await Task.sleep(for: limit)
                settle(.failure(NoAnswer()))
            }
            Task {
                defer { timer.cancel() }
                do { settle(.success(try await operation())) } catch { settle(.failure(error)) }
            }
        }
    }

    /// Whether an error says the connection a query ran on was closed under it (the server
    /// restarted, or dropped it): a pool may hand out such a connection once after PostgreSQL
    /// came back, and the same read on a fresh one answers. Not a database that is still down
    /// or a pool with no connection free: those answer 503 at once.
    package static func isDroppedConnection(_ error: any Error) -> Bool {
        switch error {
        case let error as ChannelError:
            return error == .ioOnClosedChannel || error == .alreadyClosed || error == .eof
        case let error as PSQLError:
            if [.serverClosedConnection, .uncleanShutdown, .unexpectedBackendMessage].contains(error.code) {
                return true
            }
            // 57P01 admin_shutdown, 57P02 crash_shutdown: a connection of the server that stopped.
            guard error.code == .server, let state = error.serverInfo?[.sqlState] else { return false }
            return state == "57P01" || state == "57P02"
        case let error as IOError:
            return [ECONNRESET, EPIPE].contains(error.errnoCode)
        default:
            return false
        }
    }

    /// Runs a read (a request that changes nothing) once more when its connection was dropped
    /// under it (``isDroppedConnection(_:)``).
    package static func retryingDropped<T>(_ read: () async throws -> T) async throws -> T {
        do {
            return try await read()
        } catch  where isDroppedConnection(error) {
            return try await read()
        }
    }

    /// Whether an error says the database could not be reached, rather than that a query failed.
    package static func isOutage(_ error: any Error) -> Bool {
        switch error {
        case is NoAnswer, is ConnectionPoolTimeoutError, is ConnectionPoolError, is NIOConnectionError, is ChannelError:
            return true
        case let error as PSQLError:
            // `unexpectedBackendMessage`: the server's FATAL ("terminating connection due to
            // administrator command", 57P01, as PostgreSQL shuts down) reached a connection
            // at a moment the driver expects none (here, as a BEGIN went out); the connection
            // closes with it.
            // The driver keeps that message to itself, so the code is all there is to go on.
            if [
                .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection,
                .unexpectedBackendMessage,
            ].contains(error.code) {
                return true
            }
            // The server answered, but cannot serve: shutting down, starting up or restarting
            // (class 57P, "operator intervention"), or the connection failed (class 08).
            guard error.code == .server, let state = error.serverInfo?[.sqlState] else { return false }
            return state.hasPrefix("57P") || state.hasPrefix("08")
        case let error as IOError:
            return [ECONNREFUSED, ECONNRESET, EPIPE, ETIMEDOUT, EHOSTUNREACH].contains(error.errnoCode)
        default:
            return false
        }
    }
}
