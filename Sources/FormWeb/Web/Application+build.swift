import FluentKit
import Foundation
import Hummingbird
import HummingbirdAuth
import Logging

/// Builds the Fieldwork server: opens (and migrates) the database, seeds the demo form and the
/// admin account, loads the templates and wires the routes. Run it with `try await app.runService()`;
/// the database is one of the app's services and closes after the HTTP server on SIGINT/SIGTERM.
/// - Parameter configuration: where to listen and where data and resources live.
public func buildApplication(_ configuration: FieldworkConfiguration) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "fieldwork")
    logger.logLevel = configuration.logLevel

    if let name = configuration.unknownTimeZone {
        throw FieldworkConfigurationError(
            "FIELDWORK_TIME_ZONE=\(name) is not a time zone; use an IANA name such as Europe/Berlin or UTC.")
    }
    let renderer = try await PageRenderer(templates: configuration.resources.templates)
    let secret = try ServerSecret.loadOrCreate(at: configuration.secretFile)
    let database = try await FieldworkDatabase.open(configuration, logger: logger)
    let store = database.forms
    let users: UserStore
    do {
        if configuration.seedsDemo {
            try await DemoSeed.seedIfNeeded(store: store, resources: configuration.resources, logger: logger)
        }
        users = try await UserStore(database: database, hasher: PasswordHasher(cost: configuration.bcryptCost))
        try await users.ensureAdmin(password: configuration.adminPassword, logger: logger)
    } catch {
        await database.shutdown()
        throw error
    }

    let router = Router(context: AppRequestContext.self)
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: LogRequestsMiddleware(.debug))
    router.add(middleware: ErrorPageMiddleware(notFound: try renderer.notFoundPage(), gone: try renderer.gonePage(), renderer: renderer))
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
    // After the static files, so they never touch the sessions table. A request without the
    // session cookie costs no query at all.
    router.add(
        middleware: SessionMiddleware<AppRequestContext>(
            storage: DatabasePersistDriver(database: database),
            configuration: .init(
                sessionCookieParameters: .init(name: "fieldwork_session", path: "/", sameSite: .lax),
                keyPrefix: "s.",
                defaultSessionExpiration: configuration.sessionLifetime)))

    let plans = PlanCache(renderer: renderer, timeZone: configuration.timeZone, schemas: { try await store.schema(of: $0) })
    let csrf = CSRF(secret: secret)
    let viewers = ViewerResolver(users: users, csrf: csrf)
    let prefill = SignedPrefill(secret: secret)
    FormController(store: store, objects: database.objects, plans: plans, viewers: viewers, prefill: prefill)
        .addRoutes(to: router)
    AccountController(users: users, viewers: viewers, loginPage: try renderer.loginPage())
        .addRoutes(to: router)
    let attachments = AttachmentStore(database: database, dataFolder: configuration.dataFolder)
    ObjectController(
        forms: store, objects: database.objects, plans: plans, viewers: viewers, prefill: prefill,
        submissions: SubmissionReader(attachments: attachments), attachments: attachments
    ).addRoutes(to: router)
    ObjectAPIController(forms: store, objects: database.objects, plans: plans, viewers: viewers)
        .addRoutes(to: router)
    let gate = AdminGate(viewers: viewers, adminToken: configuration.adminToken)
    let drafts = ImportDraftStore(database: database)
    AdminController(
        forms: store, objects: database.objects, users: users, plans: plans, renderer: renderer, gate: gate, drafts: drafts,
        timeZone: configuration.timeZone)
        .addRoutes(to: router)
    FormsAPIController(forms: store, gate: gate).addRoutes(to: router)

    var app = Application(
        router: router,
        configuration: .init(address: .hostname(configuration.hostname, port: configuration.port), serverName: "Fieldwork"),
        logger: logger
    )
    app.addServices(DatabaseService(database: database), AttachmentPurgeService(store: attachments, drafts: drafts, logger: logger))
    return app
}
