// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "fieldwork",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "fieldwork", targets: ["FormServer"])
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/vapor/fluent-kit.git", from: "1.57.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.9.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.14.0"),
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // Markdown in imported labels and hints (ODK's subset), read at import only.
        .package(url: "https://github.com/JohnSundell/Ink.git", from: "0.6.0"),
        // Already in the graph through the packages above; listed because targets import them
        // (scripts/import-check refuses an import a target does not declare).
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/vapor/async-kit.git", from: "1.22.0"),
    ],
    targets: [
        // Regular expressions tested within a bound on work (a field's pattern, an XForm's regex()):
        // below both the model and the XML layer, which share it.
        .target(name: "BoundedPatterns"),
        // The pure form model: schema, field kinds, constraints, canonical JSON. No web, no XML.
        .target(name: "FormModel", dependencies: ["BoundedPatterns"]),
        // libxml2 as a system library; only FormXML imports it.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // The XML layer, the only target that imports CLibXML2: safe parsing (DOM or the lean
        // SAX-built tree), XSD validation, diagnostics, limits. Knows nothing of forms. The
        // XPath evaluator the XForms importer needs goes here too.
        .target(name: "FormXML", dependencies: ["CLibXML2", "BoundedPatterns"]),
        // The runtime of an XForm's rules: the judge every submission and relevance round trip
        // meets (compiled once per form version), its host, meta and geo functions and the
        // instance writer. On the model and the XML layer; the importers and the web use it.
        .target(name: "FormRules", dependencies: ["FormModel", "FormXML"]),
        // The importers (native spec, OData) -> FormModel, reading XML through FormXML.
        .target(
            name: "FormImport",
            dependencies: [
                "BoundedPatterns", "FormModel", "FormXML", "FormRules", .product(name: "Ink", package: "Ink"),
            ],
            resources: [.copy("Resources/fieldwork-form-1.xsd")]
        ),
        // The store: Fluent records and migrations, the form, object, account, attachment and
        // import-draft stores, the caches and the change feed that keeps every instance's caches
        // right, the server secret, and the counters the caches and use cases keep. Never HTTP.
        .target(
            name: "FormStore",
            dependencies: [
                "FormModel",
                "FormImport",
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "AsyncKit", package: "async-kit"),
            ],
            // Django's list of the passwords most often used, with its licence (PasswordRule).
            resources: [
                .copy("Resources/common-passwords.txt"), .copy("Resources/common-passwords.LICENSE"),
            ]
        ),
        // The pages: templates rendered once per form version into plans whose slots are filled
        // per request, the page contexts, escaping, and the names of the inputs the pages send.
        // Knows neither HTTP nor the database.
        .target(
            name: "FormPages",
            dependencies: [
                "FormModel",
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The connectors to other systems: OData V2 and V4 services over AsyncHTTPClient (requests,
        // literals, JSON values, the SAP CSRF token, error bodies, ETags), on the connection's
        // origin only, with time and size limits; webhook deliveries, signed as Standard Webhooks
        // says (HMAC-SHA256, swift-crypto). Knows neither Hummingbird nor Fluent.
        .target(
            name: "FormService",
            dependencies: [
                "FormModel",
                "FormXML",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The web layer: routes, middleware, controllers, use cases, operations, assets, the plan cache.
        // Neither FluentKit nor the template engine nor the XML layer: it reaches them through
        // FormStore, FormPages and FormImport.
        .target(
            name: "FormWeb",
            dependencies: [
                "FormModel",
                "FormImport",
                "FormRules",
                "FormStore",
                "FormPages",
                "FormService",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdOTP", package: "hummingbird-auth"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The `fieldwork` command: serve, import, check.
        .executableTarget(
            name: "FormServer",
            dependencies: [
                "FormWeb",
                "FormStore",
                "FormImport",
                "FormModel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `swift run -c release FormBenchmarks`: the create view's plan against per-request rendering.
        .executableTarget(
            name: "FormBenchmarks",
            dependencies: [
                "FormWeb", "FormStore", "FormPages", "FormImport", "FormModel",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Benchmarks/FormBenchmarks"
        ),
        // `BareRoute`: the ceiling of scripts/bench-http, a bare Hummingbird route serving one page.
        .executableTarget(
            name: "BareRoute",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Benchmarks/BareRoute"
        ),
        // `ChainCost`: the global middleware's instructions a request, in process (scripts/callgrind-chain).
        .executableTarget(
            name: "ChainCost",
            dependencies: [
                "FormWeb", "FormPages", "FormStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/ChainCost"
        ),
        // `ImportBenchmarks`: the OData importer against xmllint and pyodata, and its memory (needs ../shared).
        .executableTarget(
            name: "ImportBenchmarks",
            dependencies: ["FormImport", "FormModel"],
            path: "Benchmarks/ImportBenchmarks"
        ),
        // `XFormBenchmarks`: the WHO XForm imported and its submissions judged, against libxml2 alone (needs ../shared).
        .executableTarget(
            name: "XFormBenchmarks",
            dependencies: ["FormImport", "FormModel", "FormRules", "FormXML"],
            path: "Benchmarks/XFormBenchmarks"
        ),
        // The importers under libFuzzer (README, "Fuzzing"); without -DFUZZING it replays the files it is given.
        .executableTarget(
            name: "ImportFuzzer",
            dependencies: ["BoundedPatterns", "FormImport", "FormModel", "FormRules"],
            path: "Fuzz/ImportFuzzer"
        ),
        .testTarget(name: "FormModelTests", dependencies: ["FormModel", "BoundedPatterns"]),
        .testTarget(name: "FormXMLTests", dependencies: ["FormXML", "BoundedPatterns"]),
        .testTarget(
            name: "FormServiceTests",
            dependencies: [
                "FormService",
                "FormModel",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "FormImportTests",
            dependencies: ["FormImport", "FormModel", "FormRules", "FormXML"],
            resources: [.copy("Fixtures")]
        ),
        // Fixtures the test targets share: small schemas, stores on a fresh data folder (PostgreSQL
        // with FIELDWORK_TEST_POSTGRES), the templates' renderer. Built only for the tests.
        .target(
            name: "TestSupport",
            dependencies: [
                "FormImport",
                "FormModel",
                "FormPages",
                "FormStore",
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "FormStoreTests",
            dependencies: [
                "FormStore",
                "FormImport",
                "FormModel",
                "TestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
            ]
        ),
        .testTarget(
            name: "FormPagesTests",
            dependencies: ["FormPages", "FormModel", "TestSupport", .product(name: "NIOCore", package: "swift-nio")]
        ),
        .testTarget(
            name: "FormWebTests",
            dependencies: [
                "FormWeb",
                "TestSupport",
                "FormStore",
                "FormPages",
                "FormImport",
                "FormModel",
                "FormService",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "AsyncKit", package: "async-kit"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)

// `swift package --disable-sandbox benchmark --target FieldworkBenchmarks`: create view,
// validation, imports, measured by ordo-one/benchmark (wall clock, mallocs, memory).
// MallocInterposer only: the default traits add a runtime interposer package that is not
// available here. Left out of the fuzzing build (scripts/fuzz sets FIELDWORK_FUZZ): its plugin's
// tool would be built with -sanitize=fuzzer too, and fails to link.
if Context.environment["FIELDWORK_FUZZ"] == nil {
    package.dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]))
    package.targets.append(
        .executableTarget(
            name: "FieldworkBenchmarks",
            dependencies: [
                "FormWeb", "FormStore", "FormPages", "FormImport", "FormModel",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Benchmarks/FieldworkBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ))
}
