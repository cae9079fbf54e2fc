import Foundation
import Logging
import ServiceLifecycle

/// Wakes every hour and purges staged uploads nobody claimed within a day.
///
/// List it after ``DatabaseService`` in the `ServiceGroup`: services stop in reverse order,
/// so the database is still open while this one stops.
public struct AttachmentPurgeService: Service {
    let store: AttachmentStore
    let interval: Duration
    let maxAge: TimeInterval
    let logger: Logger

    /// - Parameters:
    ///   - store: the attachments store to purge.
    ///   - interval: time between purges; the first runs at start.
    ///   - maxAge: how old, in seconds, an unclaimed staged upload may get.
    public init(store: AttachmentStore, interval: Duration = .seconds(3600), maxAge: TimeInterval = 24 * 3600, logger: Logger) {
        self.store = store
        self.interval = interval
        self.maxAge = maxAge
        self.logger = logger
    }

    public func run() async throws {
        // Graceful shutdown cancels the sleep; a purge cut short leaves rows for the next one.
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await purgeOnce()
                try await Task.sleep(for: interval)
            }
        }
    }

    /// One purge; failures are logged, not thrown, so one bad hour does not stop the server.
    func purgeOnce() async {
        do {
            let removed = try await store.purgeStaged(olderThan: store.now().addingTimeInterval(-maxAge))
            if removed > 0 { logger.info("Purged unclaimed uploads", metadata: ["count": "\(removed)"]) }
        } catch {
            logger.error("Purging unclaimed uploads failed", metadata: ["error": "\(error)"])
        }
    }
}
