import Foundation
import Logging
import ServiceLifecycle

/// Wakes every hour and purges staged uploads nobody claimed within a day, the files of
/// refused admin imports kept as long, and the one-time keys of creates as old.
///
/// List it after ``DatabaseService`` in the `ServiceGroup`: services stop in reverse order,
/// so the database is still open while this one stops.
package struct AttachmentPurgeService: Service {
    let store: AttachmentStore
    let drafts: ImportDraftStore?
    let objects: ObjectStore?
    let interval: Duration
    let maxAge: TimeInterval
    let logger: Logger

    /// - Parameters:
    ///   - store: the attachments store to purge.
    ///   - drafts: the kept files of refused admin imports, purged by the same age.
    ///   - objects: the store whose one-time create keys are forgotten at the same age.
    ///   - interval: time between purges; the first runs at start.
    ///   - maxAge: how old, in seconds, an unclaimed staged upload may get.
    package init(
        store: AttachmentStore, drafts: ImportDraftStore? = nil, objects: ObjectStore? = nil,
        interval: Duration = .seconds(3600),
        maxAge: TimeInterval = 24 * 3600,
        logger: Logger
    ) {
        self.store = store
        self.drafts = drafts
        self.objects = objects
        self.interval = interval
        self.maxAge = maxAge
        self.logger = logger
    }

    package func run() async throws {
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
            // One instance purges; the others skip this round.
            try await store.database.exclusively(.purge, wait: false) { try await purge() }
        } catch {
            logger.error("Purging unclaimed uploads failed", metadata: ["error": "\(error)"])
        }
    }

    private func purge() async throws {
        let cutoff = store.now().addingTimeInterval(-maxAge)
        let removed = try await store.purgeStaged(olderThan: cutoff)
        if removed > 0 { logger.info("Purged unclaimed uploads", metadata: ["count": "\(removed)"]) }
        if let drafts, case let kept = try await drafts.purge(olderThan: cutoff), kept > 0 {
            logger.info("Purged files kept from refused imports", metadata: ["count": "\(kept)"])
        }
        try await objects?.purgeTokens(olderThan: cutoff)
    }
}
