import FormStore
import Foundation
import Logging
import ServiceLifecycle

/// Marks creates still `sending` long after any answer could come (an instance stopped or was
/// killed between sending and recording the answer) as `unknown`: the admin page lists them with
/// their request id, and nothing sends them again.
struct LostSendsService: Service {
    let objects: ObjectStore
    let logger: Logger
    /// Longer than any create may take: the longest time limit (120 s), a draft's three
    /// requests, and a margin.
    static let after: Duration = .seconds(10 * 60)

    func run() async throws {
        // Graceful shutdown cancels the sleep.
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                // First a minute after start: a restart finds what the stopped instance left.
                try await Task.sleep(for: .seconds(60))
                do {
                    let cutoff = Date().addingTimeInterval(-Double(Self.after.components.seconds))
                    let lost = try await objects.markLostSends(before: cutoff)
                    if lost > 0 {
                        logger.warning(
                            "Creates whose answer from the service was lost", metadata: ["count": "\(lost)"])
                    }
                } catch {
                    logger.debug("Could not look for lost creates", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
