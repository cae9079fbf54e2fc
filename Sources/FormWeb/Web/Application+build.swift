import FormPages
import FormService
import FormStore
import Foundation
import Hummingbird
import Logging

/// Builds the Fieldwork server: opens (and migrates) the database, seeds the demo form and the
/// admin account, loads the templates and wires the routes. Run it with `try await app.runService()`;
/// the database is one of the app's services and closes after the HTTP server on SIGINT/SIGTERM.
/// - Parameter configuration: where to listen and where data and resources live.
package func buildApplication(_ configuration: FieldworkConfiguration) async throws -> some ApplicationProtocol {
    var logger = configuration.logger ?? Logger(label: "fieldwork")
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
    if let password = configuration.adminPassword, let problem = PasswordRule.problem(password) {
        throw FieldworkConfigurationError(
            "FIELDWORK_ADMIN_PASSWORD is refused: \(problem.prefix(1).lowercased() + problem.dropFirst()). Set one of "
                + "\(PasswordRule.minimumLength) to \(PasswordRule.maximumLength) characters that is not among the passwords most "
                + "often used (a few unrelated words will do), or leave it unset to have one made and logged once.")
    }
    let assets = try StaticAssets(publicFolder: configuration.resources.publicFolder)
    let renderer = try await PageRenderer(templates: configuration.resources.templates, assets: assets.base)
    logger.debug(
        "Read \(assets.assets.count) public files, stylesheets and scripts minified and gzipped",
        metadata: [
            "from": "\(assets.assets.values.map(\.sourceSize).reduce(0, +))",
            "to": "\(assets.assets.values.map(\.body.readableBytes).reduce(0, +))",
            "gzipped": "\(assets.assets.values.map { ($0.gzipped ?? $0.body).readableBytes }.reduce(0, +))",
            "version": "\(assets.version)",
        ])
    let database = try await FieldworkDatabase.open(configuration.store, logger: logger)
    let store = database.forms
    let users: UserStore
    let secret: ServerSecret
    do {
        // Where the change feed ends now: caches fill from here on, so only later changes matter.
        try await database.feed.catchUp(on: database.database())
        secret = try await ServerSecret.load(
            environment: configuration.signingKey, dataFolder: configuration.dataFolder,
            legacyFile: configuration.secretFile, database: database)
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
    // The global middleware: only what every request needs, the 404 of an unknown address
    // included (``GlobalMiddleware``: the request id, the security headers, the error pages,
    // the metrics). What only some routes need (the session, the viewer, access) is middleware
    // on their groups below, so a request pays for no more than its route asks.
    router.add(
        middleware: GlobalMiddleware(
            securityHeaders: SecurityHeadersMiddleware(strictTransport: configuration.cookies.secure),
            errorPages: ErrorPageMiddleware(
                notFound: try renderer.notFoundPage(), gone: try renderer.gonePage(),
                unavailable: try renderer.unavailablePage(), renderer: renderer)))
    // /health and /ready: no session read, no cookie set.
    let operations = OperationsController(
        readiness: Readiness(probe: { try await database.ping() }, timeout: configuration.readinessTimeout))
    operations.addProbes(to: router)
    // Stylesheets, scripts and other public files, from memory.
    AssetRoutes(assets: assets).addRoutes(to: router)

    // Form heads, the form list, sessions and accounts are read from memory in the steady
    // state; every instance follows the database's change feed to drop what another one changed.
    let heads = CachedFormHeads(store, feed: database.feed)
    configuration.onChangeFeed?(database.feed)
    // Secrets (of service connections, of webhook endpoints) are sealed with a key that is not in
    // the database. Connected OData forms: one HTTP client for every connection (and every
    // webhook delivery).
    let sealing = try SealingKey.load(environment: configuration.sealingKey, dataFolder: configuration.dataFolder)
    let connections = ConnectionStore(database: database, sealing: sealing)
    let http = ServiceHTTPClient()
    let services = ServiceClients(
        http: http, connections: connections, feed: database.feed, timeZone: configuration.timeZone)
    let valueHelps = ServiceValueHelps()
    let versions = FormVersions(
        store: store, services: services, valueHelps: valueHelps, timeZone: configuration.timeZone)
    let plans = PlanCache(renderer: renderer, versions: versions, built: configuration.builtViews)
    let cookies = configuration.cookies
    let csrf = CSRF(secret: secret, cookies: cookies)
    let viewers = ViewerResolver(users: users, csrf: csrf)
    // The session named by the session cookie; a request without one costs no lookup at all.
    let sessionStorage = DatabasePersistDriver(database: database)
    let sessionKeyPrefix = "s."
    let sessions = SessionCookieMiddleware(
        storage: sessionStorage, keyPrefix: sessionKeyPrefix,
        cookies: cookies, lifetime: configuration.sessionLifetime)
    // A state-changing request its browser says comes from another site is refused first.
    let origins = OriginCheckMiddleware<AppRequestContext>(publicURL: configuration.publicURL)

    // Browser pages: every route knows its viewer (`context.viewer`); a response to a browser
    // that brought no id cookie sets one.
    let browserChain = BrowserMiddleware(
        origins: origins, sessions: sessions, viewer: ViewerMiddleware(viewers: viewers, setsBrowserCookie: true))
    let browser = router.group().add(middleware: browserChain)
    // A form's pages know their form (`context.form`); a form for users sends visitors to sign in.
    let form = router.group("forms/:id")
        .add(
            middleware: FormPageMiddleware(
                browser: browserChain,
                access: FormAccessMiddleware(heads: heads, activeOnly: false, audience: .browser)))
    let activeForm = router.group("forms/:id")
        .add(
            middleware: FormPageMiddleware(
                browser: browserChain,
                access: FormAccessMiddleware(heads: heads, activeOnly: true, audience: .browser)))
    let admin = browser.group("admin").add(middleware: AdminOnlyMiddleware(audience: .browser))

    // The JSON API answers every error as JSON; the admin token makes its caller an admin.
    let api = APIRoutes(
        router.group("api")
            .add(middleware: APIErrorMiddleware())
            .add(middleware: origins)
            .add(middleware: sessions)
            .add(middleware: ViewerMiddleware(viewers: viewers, setsBrowserCookie: false))
            .add(middleware: AdminTokenMiddleware(adminToken: configuration.adminToken)))
    let apiForm = api.group("forms/:id")
        .add(middleware: FormAccessMiddleware(heads: heads, activeOnly: false, audience: .api))
    let apiActiveForm = api.group("forms/:id")
        .add(middleware: FormAccessMiddleware(heads: heads, activeOnly: true, audience: .api))
    let adminAPI = api.group().add(middleware: AdminOnlyMiddleware(audience: .api))
    // A form's routes for admins only: the admin is checked first, so nobody else learns which forms exist.
    let adminAPIForm = adminAPI.group("forms/:id")
        .add(middleware: FormAccessMiddleware(heads: heads, activeOnly: false, audience: .api))

    let prefill = SignedPrefill(secret: secret)
    let attachments = AttachmentStore(
        database: database, dataFolder: configuration.dataFolder, folder: configuration.attachmentsFolder)
    try attachments.makePrivate()
    let reader = SubmissionReader(attachments: attachments)
    // Each create, update and delete writes its webhook events in its own transaction.
    let webhookStore = WebhookStore(database: database, sealing: sealing)
    let webhooks = Webhooks(store: webhookStore, wakeup: WebhookWakeup())
    var submissions = ObjectSubmissions(objects: database.objects, attachments: attachments, valueHelps: valueHelps)
    submissions.webhooks = webhooks
    let imports = FormImports(forms: store)
    let exports = ObjectExports(objects: database.objects, attachments: attachments, users: users)
    let serviceConnections = ServiceConnections(
        forms: store, connections: connections, http: http, timeZone: configuration.timeZone)

    FormController(
        heads: heads, objects: database.objects, plans: plans, services: services, valueHelps: submissions.valueHelps
    )
    .addRoutes(browser: browser, form: form, apiForm: apiForm, apiActiveForm: apiActiveForm)
    CreateController(
        plans: plans, prefill: prefill, drafts: KeptDraft(secret: secret), reader: reader, submissions: submissions,
        services: services, cookies: cookies
    )
    .addRoutes(to: activeForm)
    ObjectController(
        forms: store, objects: database.objects, plans: plans, reader: reader, submissions: submissions,
        attachments: attachments, services: services, cookies: cookies
    ).addRoutes(browser: browser, form: form)
    ObjectAPIController(
        objects: database.objects, forms: store, plans: plans, submissions: submissions, services: services
    )
    .addRoutes(apiForm: apiForm, apiActiveForm: apiActiveForm)
    // Wrong passwords and wrong codes count together, per name and per address.
    let throttle = SignInThrottle()
    let renewal = SessionRenewal(sessions: sessionStorage, keyPrefix: sessionKeyPrefix, cookieName: cookies.sessionName)
    AccountController(
        users: users, csrf: csrf, loginPage: try renderer.loginPage(), passwordPage: try renderer.changePasswordPage(),
        renewal: renewal, throttle: throttle
    ).addRoutes(to: browser)
    SecondFactorController(
        users: users,
        factors: SecondFactors(
            store: SecondFactorStore(database: database, sealing: sealing), now: configuration.codeClock),
        csrf: csrf,
        codePage: try renderer.signInCodePage(), renderer: renderer, renewal: renewal, throttle: throttle
    ).addRoutes(to: browser)
    let drafts = ImportDraftStore(database: database)
    AdminImportsController(
        forms: store, imports: imports, objects: database.objects, renderer: renderer, drafts: drafts
    ).addRoutes(to: admin)
    // One form's admin resources: the form resolved once, whatever its state (404 for none).
    let adminForm = admin.group("forms/:id").add(middleware: AdminFormMiddleware(forms: store))
    let formPage = AdminFormPage(
        forms: store, objects: database.objects, renderer: renderer, connections: connections, webhooks: webhooks)
    AdminFormController(
        forms: store, plans: plans, renderer: renderer, timeZone: configuration.timeZone, page: formPage
    )
    .addRoutes(to: adminForm)
    AdminListsController(forms: store, page: formPage).addRoutes(to: adminForm)
    AdminConnectionController(
        forms: store, connections: connections, service: serviceConnections, page: formPage
    ).addRoutes(to: adminForm)
    AdminWebhooksController(webhooks: webhooks, page: formPage).addRoutes(to: adminForm)
    AdminExportController(exports: exports, timeZone: configuration.timeZone, page: formPage).addRoutes(to: adminForm)
    AdminUsersController(
        users: users, secondFactors: SecondFactorStore(database: database, sealing: sealing), renderer: renderer
    ).addRoutes(to: admin)
    FormsAPIController(forms: store, imports: imports).addRoutes(to: adminAPI)
    ConnectionAPIController(forms: store, connections: connections, service: serviceConnections)
        .addRoutes(to: adminAPI)
    WebhooksAPIController(forms: store, webhooks: webhooks).addRoutes(to: adminAPI)
    ExportAPIController(
        objects: database.objects, exports: exports, cursors: ObjectCursor(secret: secret),
        timeZone: configuration.timeZone
    ).addRoutes(to: adminAPIForm)
    try OpenAPIController(plans: plans).addRoutes(api: api, apiForm: apiForm)
    // The description says every route of the API, and no other: a route added without its
    // value in APIPaths stops the server here, and so every web test.
    let mismatches = OpenAPIDocument.mismatches(routes: api.routes)
    guard mismatches.isEmpty else {
        try? await http.shutdown()
        await database.shutdown()
        throw FieldworkConfigurationError(
            "The OpenAPI description and the routes under /api disagree: " + mismatches.joined(separator: "; "))
    }
    // Every other address and method under /api answers JSON too.
    api.refuseTheRest()
    // Prometheus asks for /metrics with the admin token; an admin's session will do too.
    operations.addMetrics(
        to: router.group()
            .add(middleware: sessions)
            .add(middleware: ViewerMiddleware(viewers: viewers, setsBrowserCookie: false))
            .add(middleware: AdminTokenMiddleware(adminToken: configuration.adminToken))
            .add(middleware: AdminOnlyMiddleware(audience: .api)))

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
        ChangeFeedService(feed: database.feed, database: database, logger: logger),
        ServiceHTTPClientService(http: http),
        LostSendsService(objects: database.objects, logger: logger),
        // Last: on shutdown, services stop in reverse order, so it stops before the HTTP client
        // and the database it uses.
        WebhookDeliveryService(
            store: webhookStore, sender: WebhookSender(http: http), wakeup: webhooks.wakeup, logger: logger))
    return app
}
