// swift-tools-version: 6.1
// Screenplay: server-driven UI for Swift. One package, one module per job; see README.md for the map.

import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Screenplay",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ScreenplayContract", targets: ["ScreenplayContract"]),
        .library(name: "ScreenplayContractTools", targets: ["ScreenplayContractTools"]),
        .library(name: "ScreenplayServer", targets: ["ScreenplayServer"]),
        .library(name: "ScreenplayComposer", targets: ["ScreenplayComposer"]),
        .library(name: "ScreenplayHummingbird", targets: ["ScreenplayHummingbird"]),
        .library(name: "ScreenplayOpenAPI", targets: ["ScreenplayOpenAPI"]),
        .library(name: "ScreenplayStore", targets: ["ScreenplayStore"]),
        .library(name: "ScreenplayLayoutStore", targets: ["ScreenplayLayoutStore"]),
        .library(name: "ScreenplayAdmin", targets: ["ScreenplayAdmin"]),
        .library(name: "ScreenplayComposerAsyncHTTPClient", targets: ["ScreenplayComposerAsyncHTTPClient"]),
        .library(name: "ScreenplayComposerNIO", targets: ["ScreenplayComposerNIO"]),
        .library(name: "ScreenplayStoreSQLite", targets: ["ScreenplayStoreSQLite"]),
        .library(name: "ScreenplayStorePostgres", targets: ["ScreenplayStorePostgres"]),
        .library(name: "ScreenplayClient", targets: ["ScreenplayClient"]),
        .library(name: "ScreenplayClientAsyncHTTPClient", targets: ["ScreenplayClientAsyncHTTPClient"]),
        .library(name: "ScreenplayClientNIO", targets: ["ScreenplayClientNIO"]),
        .library(name: "ScreenplaySwiftUI", targets: ["ScreenplaySwiftUI"]),
        .library(name: "ScreenplayWeb", targets: ["ScreenplayWeb"]),
        .library(name: "ScreenplayTerminal", targets: ["ScreenplayTerminal"]),
        .library(name: "ScreenplayDemo", targets: ["ScreenplayDemo"]),
        .executable(name: "screenplay", targets: ["screenplay"]),
    ],
    // What `swift run screenplay` leaves out unless asked (`swift run --traits postgres,https
    // screenplay …`): the default CLI builds only what the embedded demo and the contract tools
    // use. Traits change which modules the `screenplay` executable links, and `https` also
    // builds the two AsyncHTTPClient transports (an app that uses them enables it).
    traits: [
        .trait(
            name: "postgres",
            description: "`screenplay serve` and `admin` take --database: several replicas on one PostgreSQL (links PostgresNIO)."),
        .trait(
            name: "https",
            description:
                "AsyncHTTPClient and its TLS stack: `screenplay render` reaches https:// servers, and the ScreenplayClientAsyncHTTPClient and ScreenplayComposerAsyncHTTPClient transports are built."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // Hummingbird's `ConfigurationSupport` trait (on by default) builds swift-configuration,
        // which nothing here reads: only `FullFoundation` stays on.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        // MARK: Contract: the wire types, Foundation only.
        .target(name: "ScreenplayContract", swiftSettings: swiftSettings),
        // Build tooling apps never ship: schema generation, contract diff and check, docs.
        .target(name: "ScreenplayContractTools", dependencies: ["ScreenplayContract"], swiftSettings: swiftSettings),

        // MARK: Server core: DSL, routing, encoding, caching, commands; speaks HTTPTypes only.
        // The system zlib gzips cached responses (Debian: zlib1g-dev; scripts install it).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "ScreenplayServer",
            dependencies: [
                "ScreenplayContract", "CZlib",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The OpenAPI 3.1 description of a host's route tables, with the contract's schemas.
        .target(
            name: "ScreenplayOpenAPI",
            dependencies: [
                "ScreenplayServer", "ScreenplayContract", "ScreenplayContractTools", .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "ScreenplayHummingbird",
            dependencies: [
                "ScreenplayServer", "ScreenplayWeb",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),

        // The composer: page templates, conditions, widget contracts and providers, splicing,
        // composed pages served as screens, experiments. Its own module, so an app serving coded
        // screens only builds none of it.
        .target(
            name: "ScreenplayComposer",
            dependencies: [
                "ScreenplayServer", "ScreenplayContract",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Remote widget providers over AsyncHTTPClient (TLS): its own module, so `serve` links no
        // TLS stack unless an app's providers need one. Built with the `https` trait only (an app
        // asks for it: `.package(url: …, traits: ["https"])`), so that building this package, its
        // tests included, compiles no HTTP/2, TLS or HTTPS client unless asked; without it the
        // module holds only a type that says so.
        .target(
            name: "ScreenplayComposerAsyncHTTPClient",
            dependencies: [
                "ScreenplayServer", "ScreenplayComposer",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["https"])),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // Remote widget providers over plain HTTP/1.1 on SwiftNIO (loopback, sidecars): no TLS.
        .target(
            name: "ScreenplayComposerNIO",
            dependencies: [
                "ScreenplayComposer",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Crypto: SHA-256, HMAC, PBKDF2 and scrypt in Swift, with no dependency: the store
        // hashes tokens and the admin passwords with it, and no C++ crypto library is compiled
        // for the demo.
        .target(name: "ScreenplayCrypto", swiftSettings: swiftSettings),

        // MARK: Store: migrations and users through SQLKit; SQLite is its own product.
        .target(
            name: "ScreenplayStore",
            dependencies: [
                "ScreenplayServer",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                "ScreenplayCrypto",
            ],
            swiftSettings: swiftSettings
        ),
        // The composer's data in the store: layouts with drafts, revisions and audit, experiments,
        // and the live templates composed pages read from memory.
        .target(
            name: "ScreenplayLayoutStore",
            dependencies: [
                "ScreenplayStore", "ScreenplayComposer", "ScreenplayServer",
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            swiftSettings: swiftSettings
        ),
        // The layout admin: accounts (scrypt), API tokens, sessions, the JSON API; HTTPTypes only.
        .target(
            name: "ScreenplayAdmin",
            dependencies: [
                "ScreenplayServer", "ScreenplayComposer", "ScreenplayStore", "ScreenplayLayoutStore", "ScreenplayContract", "ScreenplayWeb",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "SQLKit", package: "sql-kit"),
                "ScreenplayCrypto",
                .product(name: "Logging", package: "swift-log"),
            ],
            // The editor's script module, served on top of the web site's shared one.
            resources: [.copy("Web/Script/editor.js")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ScreenplayStoreSQLite",
            dependencies: [
                "ScreenplayStore",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Several replicas on one PostgreSQL: the same store through SQLKit, the invalidation bus
        // over LISTEN/NOTIFY and the idempotency ledger in the database. Its own product, so an
        // app on the embedded SQLite default never builds PostgresNIO.
        .target(
            name: "ScreenplayStorePostgres",
            dependencies: [
                "ScreenplayStore", "ScreenplayServer",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Client: platform-neutral runtime, transports, renderers.
        .target(
            name: "ScreenplayClient",
            dependencies: [
                "ScreenplayContract",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        // The client core over AsyncHTTPClient (TLS): with the `https` trait only, as above.
        .target(
            name: "ScreenplayClientAsyncHTTPClient",
            dependencies: [
                "ScreenplayClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["https"])),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The client core over plain HTTP/1.1 on SwiftNIO (screens, commands, event streams): no
        // TLS, for `screenplay render` and anything talking to a server on loopback or a private
        // network. NIO is already in every server's build.
        .target(
            name: "ScreenplayClientNIO",
            dependencies: [
                "ScreenplayClient",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(name: "ScreenplaySwiftUI", dependencies: ["ScreenplayClient"], exclude: ["README.md"], swiftSettings: swiftSettings),
        .target(
            name: "ScreenplayWeb",
            dependencies: [
                "ScreenplayContract", "ScreenplayClient", "ScreenplayServer", .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            // The site's one script, served by the site (no build step, no registry).
            resources: [.copy("Script/core.js"), .copy("Script/site.js"), .copy("Script/expressions.js"), .copy("Script/state.js"), .copy("Script/fields.js"), .copy("Script/suggest.js"), .copy("Script/dialogs.js"), .copy("Script/reports.js"), .copy("Script/share.js"), .copy("Script/reorder.js"), .copy("Script/player.js")],
            swiftSettings: swiftSettings),
        .target(name: "ScreenplayTerminal", dependencies: ["ScreenplayContract", "ScreenplayClient"], swiftSettings: swiftSettings),

        // MARK: Demo and CLI.
        .target(
            name: "ScreenplayDemo",
            dependencies: [
                "ScreenplayServer", "ScreenplayComposer", "ScreenplayComposerNIO", "ScreenplayHummingbird", "ScreenplayStore",
                "ScreenplayLayoutStore",
                "ScreenplayStoreSQLite", "ScreenplayWeb", "ScreenplayAdmin", "ScreenplayOpenAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The catalog it seeds, as data (Bundle.module).
            resources: [.copy("Resources/catalog.json")],
            swiftSettings: swiftSettings
        ),
        // The CLI links only what the embedded demo and the contract tools use: no PostgreSQL
        // driver, no TLS stack, no HTTPS client (`render` speaks plain HTTP over NIO, `validate
        // URL` uses Foundation's client). The `postgres` and `https` traits add them;
        // scripts/module-boundaries.py fails the tests if the default build reaches them.
        .executableTarget(
            name: "screenplay",
            dependencies: [
                "ScreenplayDemo", "ScreenplayContract", "ScreenplayContractTools", "ScreenplayClient", "ScreenplayClientNIO", "ScreenplayTerminal",
                "ScreenplayHummingbird", "ScreenplayAdmin", "ScreenplayStore",
                .target(name: "ScreenplayStorePostgres", condition: .when(traits: ["postgres"])),
                .target(name: "ScreenplayClientAsyncHTTPClient", condition: .when(traits: ["https"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Tests: one target per module, plus end to end over loopback.
        // Fixtures several test targets share (identities, requests, stores); in no product.
        .target(
            name: "ScreenplayTestSupport",
            dependencies: [
                "ScreenplayServer", "ScreenplayContract", "ScreenplayStore", "ScreenplayStoreSQLite", "ScreenplayStorePostgres",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/ScreenplayTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "ScreenplayContractTests", dependencies: ["ScreenplayContract"], swiftSettings: swiftSettings),
        .testTarget(name: "ScreenplayCryptoTests", dependencies: ["ScreenplayCrypto"], swiftSettings: swiftSettings),
        .testTarget(
            name: "ScreenplayContractToolsTests", dependencies: ["ScreenplayContractTools", "ScreenplayContract", "ScreenplayTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ScreenplayOpenAPITests",
            dependencies: [
                "ScreenplayOpenAPI", "ScreenplayServer", "ScreenplayContract", "ScreenplayTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ScreenplayServerTests",
            dependencies: ["ScreenplayServer", "ScreenplayTestSupport", .product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ScreenplayComposerTests",
            dependencies: [
                "ScreenplayComposer", "ScreenplayServer", "ScreenplayTestSupport", .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ScreenplayHummingbirdTests",
            dependencies: [
                "ScreenplayHummingbird", "ScreenplayClientNIO", "ScreenplayTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ScreenplayAdminTests",
            dependencies: [
                "ScreenplayAdmin", "ScreenplayComposer", "ScreenplayContract", "ScreenplayLayoutStore", "ScreenplayServer", "ScreenplayStore",
                "ScreenplayStoreSQLite", "ScreenplayTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ScreenplayStoreTests",
            dependencies: [
                "ScreenplayStore", "ScreenplayStoreSQLite", "ScreenplayStorePostgres", "ScreenplayServer", "ScreenplayTestSupport",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ScreenplayLayoutStoreTests",
            dependencies: [
                "ScreenplayLayoutStore", "ScreenplayComposer", "ScreenplayStore", "ScreenplayStoreSQLite", "ScreenplayTestSupport",
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ScreenplayClientTests",
            dependencies: ["ScreenplayClient", .product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ScreenplayClientNIOTests",
            dependencies: [
                "ScreenplayClientNIO", "ScreenplayClient",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ScreenplayWebTests",
            dependencies: ["ScreenplayWeb", "ScreenplayServer", .product(name: "HTTPTypes", package: "swift-http-types")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ScreenplayTerminalTests", dependencies: ["ScreenplayTerminal", "ScreenplayClient", "ScreenplayContract"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ScreenplayDemoTests",
            dependencies: [
                "ScreenplayDemo", "ScreenplayContract", "ScreenplayServer", "ScreenplayComposer", "ScreenplayLayoutStore", "ScreenplayStore", "ScreenplayStoreSQLite", "ScreenplayClient",
                "ScreenplayTestSupport",
                .product(name: "SQLKit", package: "sql-kit"), .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "ScreenplayDemo", "ScreenplayContract", "ScreenplayContractTools", "ScreenplayServer", "ScreenplayComposer", "ScreenplayClient",
                "ScreenplayClientNIO", "ScreenplayComposerNIO",
                "ScreenplayWeb", "ScreenplayTerminal", "ScreenplayHummingbird", "ScreenplayStore", "ScreenplayStoreSQLite", "ScreenplayAdmin",
                "ScreenplayTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
