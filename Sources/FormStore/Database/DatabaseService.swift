import Logging
import ServiceLifecycle

/// Keeps the database open for the life of a `ServiceGroup` and closes it on graceful shutdown.
///
/// Listed before the HTTP server in the group, it is shut down after the server, so no request
/// finds the connections gone.
package struct DatabaseService: Service {
    package let database: FieldworkDatabase

    package init(database: FieldworkDatabase) {
        self.database = database
    }

    package func run() async throws {
        // Cancellation also ends the wait; either way the connections must be closed.
        try? await gracefulShutdown()
        database.logger.debug("Closing the database")
        await database.shutdown()
    }
}
