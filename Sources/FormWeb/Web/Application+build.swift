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
    if let setting = configuration.unusableSettings.first {
        throw FieldworkConfigurationError(setting)
    }
    if let name = configuration.unknownLogFormat {
        throw FieldworkConfigurationError(
            "FIELDWORK_LOG_FORMAT=\(name) is not a log format; use "
                + LogFormat.allCases.map(\.rawValue).joined(separator: ", ") + ".")
    }
    let renderer = try await PageRenderer(templates: configuration.resources.templates)
    let assets = try StaticAssets(publicFolder: configuration.resources.publicFolder)
    logger.debug(
        "Minified \(assets.assets.count) stylesheets and scripts",
        metadata: [
            "from": "\(assets.assets.values.map(\.sourceSize).reduce(0, +))",
            "to": "\(assets.assets.values.map(\.body.readableBytes).reduce(0, +))",
        ])
    let database = try await FieldworkDatabase.open(configuration, logger: logger)
    let store = database.forms
    let users: UserStore
    let secret: ServerSecret
    do {
        // Where the change feed ends now: caches fill from here on, so only later changes matter.
        try await database.feed.catchUp(on: database.database())
        secret = try await ServerSecret.shared(in: database, legacyFile: configuration.secretFile)
        users = try await UserStore(database: database, hasher: PasswordHasher(cost: configuration.bcryptCost))
        // Once, however many instances start at the same moment.
        try await database.exclusively(.seeding, wait: true) { [users, logger] in
            if configuration.seedsDemo {
                try await DemoSeed.seedIfNeeded(store: store, resources: configuration.resources, logger: logger)
            }
            try await users.ensureAdmin(password: configuration.adminPassword, logger: logger)
        }
    } catch {
        await database.shutdown()
        throw error
    }

    FieldworkMetrics.bootstrap()
    let router = Router(context: AppRequestContext.self)
    // First, so every line logged for the request carries its id.
    router.add(middleware: RequestIDMiddleware())
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: LogRequestsMiddleware(.debug))
    router.add(middleware: DatabaseOutageMiddleware(page: try renderer.unavailablePage()))
    router.add(
        middleware: ErrorPageMiddleware(
            notFound: try renderer.notFoundPage(), gone: try renderer.gonePage(), renderer: renderer))
    // Requests by route and status, and their latency. Inside the error pages, so that it sees
    // what was thrown: an unknown address counts as route "NotFound" with its 404 (once a page,
    // it would be "Unknown"). The public files count as route "PublicFiles".
    router.add(middleware: MetricsMiddleware())
    // /health and /ready before the files and sessions: no file lookup, no session read.
    let operations = OperationsController(
        readiness: Readiness(probe: { try await database.ping() }, timeout: configuration.readinessTimeout))
    operations.addProbes(to: router)
    // Stylesheets and scripts minified from memory, answered here, before the sessions;
    // FileMiddleware serves the rest (images). Hummingbird's FileMiddleware asks the rest of the
    // chain first and serves a file only when that answers 404, so a file on disk goes through
    // the sessions, the viewer and the router (from memory in the steady state) first.
    let publicFiles = FieldworkMetrics.publicFilesRoute
    router.add(
        middleware: RouteLabelMiddleware(route: publicFiles, wrapped: StaticAssetsMiddleware(assets: assets)))
    router.add(
        middleware: RouteLabelMiddleware(
            route: publicFiles,
            wrapped: FileMiddleware(
                configuration.resources.publicFolder.path,
                cacheControl: .init([
                    // Short max-age plus revalidation: file names carry no version hash yet.
                    (MediaType(type: .text, subType: "css"), [.public, .maxAge(300), .mustRevalidate]),
                    (MediaType(type: .text, subType: "javascript"), [.public, .maxAge(300), .mustRevalidate]),
                    (MediaType(type: .image), [.public, .maxAge(86_400)]),
                ]),
                logger: logger
            )))
    // After the stylesheets and scripts, so they never touch the sessions. A request without
    // the session cookie costs no lookup at all.
    router.add(
        middleware: SessionMiddleware<AppRequestContext>(
            storage: DatabasePersistDriver(database: database),
            configuration: .init(
                sessionCookieParameters: .init(name: "fieldwork_session", path: "/", sameSite: .lax),
                keyPrefix: "s.",
                defaultSessionExpiration: configuration.sessionLifetime)))

    // Form heads, the form list, sessions and accounts are read from memory in the steady
    // state; every instance follows the database's change feed to drop what another one changed.
    let heads = CachedFormHeads(store, feed: database.feed)
    let plans = PlanCache(
        renderer: renderer, timeZone: configuration.timeZone, schemas: { try await store.schema(of: $0) })
    let csrf = CSRF(secret: secret)
    // Every route below knows its viewer (`context.viewer`); a response to a browser that
    // brought no id cookie sets one.
    router.add(middleware: ViewerMiddleware(viewers: ViewerResolver(users: users, csrf: csrf)))

    let prefill = SignedPrefill(secret: secret)
    let attachments = AttachmentStore(
        database: database, dataFolder: configuration.dataFolder, folder: configuration.attachmentsFolder)
    let reader = SubmissionReader(attachments: attachments)
    let submissions = ObjectSubmissions(objects: database.objects, attachments: attachments)
    // The JSON API answers every error as JSON; its admin routes take the admin token too.
    let api = router.group("api").add(middleware: APIErrorMiddleware())
    let adminAPI = api.group().add(middleware: AdminAPIGateMiddleware(adminToken: configuration.adminToken))
    // A catch-all, so an unknown address under /api answers JSON too.
    for method in [HTTPRequest.Method.get, .post, .put, .delete] {
        api.on("**", method: method) { _, _ -> Response in throw HTTPError(.notFound) }
    }
    let admin = router.group("admin").add(middleware: AdminGateMiddleware())

    FormController(heads: heads, objects: database.objects, plans: plans, adminToken: configuration.adminToken)
        .addRoutes(to: router, api: api)
    CreateController(forms: heads, plans: plans, prefill: prefill, reader: reader, submissions: submissions)
        .addRoutes(to: router)
    ObjectController(
        forms: store, heads: heads, objects: database.objects, plans: plans, reader: reader, submissions: submissions,
        attachments: attachments
    ).addRoutes(to: router)
    ObjectAPIController(
        forms: heads, objects: database.objects, plans: plans, submissions: submissions,
        adminToken: configuration.adminToken
    ).addRoutes(to: api)
    AccountController(users: users, csrf: csrf, loginPage: try renderer.loginPage()).addRoutes(to: router)
    let drafts = ImportDraftStore(database: database)
    AdminImportsController(forms: store, objects: database.objects, renderer: renderer, drafts: drafts)
        .addRoutes(to: admin)
    AdminFormsController(
        forms: store, objects: database.objects, plans: plans, renderer: renderer, timeZone: configuration.timeZone
    ).addRoutes(to: admin)
    AdminUsersController(users: users, renderer: renderer).addRoutes(to: admin)
    FormsAPIController(forms: store).addRoutes(to: adminAPI)
    // The admin API's gate (the token, or an admin's session), outside /api: Prometheus asks for /metrics.
    operations.addMetrics(
        to: router.group().add(middleware: AdminAPIGateMiddleware(adminToken: configuration.adminToken)))

    let deadlines = configuration.requestDeadlines
    let connectionLogger = logger
    var app = Application(
        router: router,
        server: .http1(
            configuration: .init(additionalChannelHandlers: [
                RequestDeadlineHandler(deadlines: deadlines, logger: connectionLogger)
            ])),
        configuration: .init(
            address: .hostname(configuration.hostname, port: configuration.port), serverName: "Fieldwork"),
        logger: logger
    )
    app.addServices(
        DatabaseService(database: database),
        AttachmentPurgeService(store: attachments, drafts: drafts, objects: database.objects, logger: logger),
        ChangeFeedService(feed: database.feed, database: database, logger: logger))
    return app
}
