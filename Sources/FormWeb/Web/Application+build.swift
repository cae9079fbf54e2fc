import FluentKit
import Foundation
import Hummingbird
import Logging

/// Builds the Fieldwork server: opens (and migrates) the database, seeds the demo form, loads
/// the templates and wires the routes. Run it with `try await app.runService()`; the database
/// is one of the app's services and closes after the HTTP server on SIGINT/SIGTERM.
/// - Parameter configuration: where to listen and where data and resources live.
public func buildApplication(_ configuration: FieldworkConfiguration) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "fieldwork")
    logger.logLevel = configuration.logLevel

    let renderer = try await PageRenderer(templates: configuration.resources.templates)
    let secret = try ServerSecret.loadOrCreate(at: configuration.secretFile)
    let database = try await FieldworkDatabase.open(configuration, logger: logger)
    let store = database.forms
    do {
        if configuration.seedsDemo {
            try await DemoSeed.seedIfNeeded(store: store, resources: configuration.resources, logger: logger)
        }
    } catch {
        await database.shutdown()
        throw error
    }

    let router = Router(context: BasicRequestContext.self)
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: LogRequestsMiddleware(.debug))
    router.add(middleware: ErrorPageMiddleware(notFound: try renderer.notFoundPage()))
    router.add(
        middleware: FileMiddleware(
            configuration.resources.publicFolder.path,
            cacheControl: .init([
                // Short max-age plus revalidation: file names carry no version hash yet.
                (MediaType(type: .text, subType: "css"), [.public, .maxAge(300), .mustRevalidate]),
                (MediaType(type: .text, subType: "javascript"), [.public, .maxAge(300), .mustRevalidate]),
                (MediaType(type: .image), [.public, .maxAge(86_400)]),
            ]),
            logger: logger
        ))
    FormController(store: store, plans: PlanCache(renderer: renderer), csrf: CSRF(secret: secret))
        .addRoutes(to: router)

    var app = Application(
        router: router,
        configuration: .init(address: .hostname(configuration.hostname, port: configuration.port), serverName: "Fieldwork"),
        logger: logger
    )
    app.addServices(DatabaseService(database: database))
    return app
}
