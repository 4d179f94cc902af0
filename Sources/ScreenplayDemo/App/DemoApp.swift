import Foundation
public import Hummingbird
public import Logging
import NIOCore
public import ScreenplayAdmin
public import ScreenplayComposer
import ScreenplayComposerNIO
public import ScreenplayContract
public import ScreenplayHummingbird
public import ScreenplayLayoutStore
import ServiceLifecycle
public import ScreenplayServer
import ScreenplayStoreSQLite
public import ScreenplayStore
public import ScreenplayWeb
import Synchronization

/// The demo backend: a classical-music catalog in embedded SQLite, served as Screenplay
/// screens (`/api/v1/…`), as web pages (`/`), with its own images and audio.
///
/// `open` creates and seeds the database on first start; later starts keep everything users
/// did (favorites, playlists).
public struct DemoApp: Sendable {
    /// The database: the embedded SQLite file, or PostgreSQL shared with other replicas.
    public let store: any SQLStore
    /// The Screenplay server core with the demo's screens and commands.
    public let service: ScreenplayService
    /// The composed pages (the shop): what the service serves at routes its code does not define.
    public let pages: ComposedScreens
    /// Page templates (the shop), their drafts, revisions and audit log.
    public let layouts: LayoutStore
    /// Experiments and their exposures.
    public let experiments: ExperimentStore
    /// Layout admins, their API tokens and sessions.
    public let admins: AdminDirectory
    /// The admin's JSON API (`/admin/api/…`).
    public let adminAPI: AdminAPI
    /// The admin's pages (`/admin`).
    public let adminSite: AdminSite
    /// The web pages (`/`, `/screens/…`), over ``service``.
    public let webSite: WebSite
    let catalog: CatalogRepository
    /// Offers opened on the shop.
    let shopClicks: ShopClicks
    let logger: Logger
    /// What the caches may keep.
    let cacheBudget: CacheBudget
    /// Faults tests switched on (none unless asked for).
    let testHooks: TestHooks
    /// Tracks' audio: its render threads and stream slots, one set for the process.
    let audio = AudioStreaming()

    /// How long the shop waits for its verticals.
    public struct ShopTimeouts: Sendable {
        /// The promotions service (another team's, slow and flaky): 300 ms, then it is left out.
        public var promotions: Duration
        /// Catalog and pricing, which read the local database: 3 s (slow only when everything is).
        public var inProcess: Duration
        /// How long the layout admin's editor waits for the verticals to name the works and
        /// recordings its parameters point at: a second, then it is shown without the names.
        public var naming: Duration

        /// The demo's defaults; tests on a loaded machine give the verticals more time, so that a
        /// failure is the one they arranged.
        public init(promotions: Duration = .milliseconds(300), inProcess: Duration = .seconds(3), naming: Duration = .seconds(1)) {
            self.promotions = promotions
            self.inProcess = inProcess
            self.naming = naming
        }
    }

    /// How many bytes the server's caches may keep, in all: two thirds for encoded screens (an
    /// eighth of it for answers remembered whole, bodies included, to answer before routing), a
    /// sixth each for composed pages and
    /// rendered web pages. 96 MiB by default; the resident
    /// memory bound in `docs/security.md` is the process's base plus this.
    public struct CacheBudget: Sendable, Hashable {
        /// The total, in bytes.
        public let bytes: Int

        /// A budget of `mebibytes` MiB in all.
        public init(mebibytes: Int) { self.bytes = max(1, mebibytes) << 20 }

        /// 96 MiB.
        public static let standard = CacheBudget(mebibytes: 96)

        /// The encoded-screen cache's share.
        var screens: Int { bytes / 3 * 2 - revalidations }
        /// What the server remembers of its answers (headers and bodies) to answer the same
        /// requests before routing: an eighth of the screens' share. The bodies are mostly the
        /// cached screens' own bytes, shared, but they are counted in full.
        var revalidations: Int { bytes / 12 }
        /// The composed-page cache's share.
        var composedPages: Int { bytes / 6 }
        /// The web page cache's share.
        var webPages: Int { bytes / 6 }
    }

    /// The demo's widget kinds as the contract tools list them: `screenplay schema`, `docs` and
    /// `contract-check` include them, so the released contract files cover the shop's widgets.
    public static var appDefinedKinds: [AppDefinedKind] { ShopWidgets.catalog.appDefinedKinds }

    /// The database file inside a data folder.
    public static func databasePath(in dataDirectory: String) -> String {
        (dataDirectory as NSString).appendingPathComponent("screenplay-demo.sqlite")
    }

    /// Where the demo keeps its data and how its replicas hear of each other's writes: the
    /// embedded SQLite file with an in-process bus (``open(dataDirectory:logger:commandRate:promotions:passwordHasher:shopTimeouts:cacheBudget:testHooks:)``),
    /// or a PostgreSQL store with its LISTEN/NOTIFY bus, opened by the caller (the demo module
    /// itself links no PostgreSQL client).
    public struct Storage: Sendable {
        /// The database.
        public var store: any SQLStore
        /// Carries invalidations to every replica's caches (this one's included).
        public var bus: any InvalidationBus
        /// Where `Idempotency-Key` answers are kept (`nil`: in ``store``, recorded with each
        /// command's writes, ``SQLIdempotencyStore``).
        public var idempotency: (any IdempotencyStore)?

        /// Storage over `store`, announcing on `bus`.
        public init(store: any SQLStore, bus: any InvalidationBus, idempotency: (any IdempotencyStore)? = nil) {
            self.store = store
            self.bus = bus
            self.idempotency = idempotency
        }
    }

    /// Opens (creating and seeding if needed) the demo's database in `dataDirectory`.
    /// `commandRate` replaces the service's default per-identity command limit (the load script
    /// raises it to measure the command path rather than the limiter).
    ///
    /// `promotions` is the promotions vertical's URL (`http://127.0.0.1:PORT/widgets`, a
    /// ``PromotionsService``); without it the shop's promotions are left out (and logged).
    /// `passwordHasher` hashes admin passwords (tests pass a cheap one).
    public static func open(
        dataDirectory: String, logger: Logger = Logger(label: "screenplay.demo"), commandRate: (perSecond: Double, burst: Double)? = nil,
        promotions: String? = nil, passwordHasher: PasswordHasher = .standard, shopTimeouts: ShopTimeouts = ShopTimeouts(),
        cacheBudget: CacheBudget = .standard, testHooks: TestHooks = TestHooks()
    ) async throws -> DemoApp {
        let store = try await SQLiteStore.open(path: databasePath(in: dataDirectory), logger: logger)
        return try await open(
            storage: Storage(store: store, bus: InProcessInvalidationBus()), logger: logger, commandRate: commandRate, promotions: promotions,
            passwordHasher: passwordHasher, shopTimeouts: shopTimeouts, cacheBudget: cacheBudget, testHooks: testHooks)
    }

    /// Opens the demo on `storage`: migrates and seeds it if needed (replicas starting together
    /// take turns, so both happen once), then serves from it. Closing the demo closes the store.
    public static func open(
        storage: Storage, logger: Logger = Logger(label: "screenplay.demo"), commandRate: (perSecond: Double, burst: Double)? = nil,
        promotions: String? = nil, passwordHasher: PasswordHasher = .standard, shopTimeouts: ShopTimeouts = ShopTimeouts(),
        cacheBudget: CacheBudget = .standard, testHooks: TestHooks = TestHooks()
    ) async throws -> DemoApp {
        let store = storage.store
        let demo: DemoApp
        do {
            let applied = try await Migrator(
                CatalogSchema.migrations + LayoutStore.migrations + ExperimentStore.migrations + AdminDirectory.migrations
                    + SQLIdempotencyStore.migrations + ShopClicks.migrations + SQLClientEventLog.migrations
            ).run(on: store)
            if !applied.isEmpty { logger.info("database ready", metadata: ["migrations": "\(applied.joined(separator: ", "))"]) }
            demo = DemoApp(
                storage: storage, logger: logger, commandRate: commandRate, promotions: promotions, passwordHasher: passwordHasher,
                shopTimeouts: shopTimeouts, cacheBudget: cacheBudget, testHooks: testHooks)
            try await store.exclusively("screenplay-demo-seed") {
                try await ShopPage.seed(layouts: demo.layouts, experiments: demo.experiments, catalog: demo.catalog, logger: logger)
            }
        } catch {
            try? await store.close()
            throw error
        }
        return demo
    }

    init(
        storage: Storage, logger: Logger, commandRate: (perSecond: Double, burst: Double)? = nil, promotions: String? = nil,
        passwordHasher: PasswordHasher = .standard, shopTimeouts: ShopTimeouts = ShopTimeouts(), cacheBudget: CacheBudget = .standard,
        testHooks: TestHooks = TestHooks()
    ) {
        let store = storage.store
        self.store = store
        self.cacheBudget = cacheBudget
        self.testHooks = testHooks
        self.logger = logger
        // One bus for every in-memory copy: users' revisions, tokens, live templates, experiments.
        let bus = storage.bus
        let users = UserDirectory(store: store, bus: bus)
        let catalog = CatalogRepository(store: store, users: users)
        self.catalog = catalog
        let experiments = ExperimentStore(store: store, bus: bus)
        let layouts = LayoutStore(store: store, bus: bus) { template in ShopPage.validate(template) }
        self.experiments = experiments
        self.layouts = layouts
        let templates = LiveTemplates(layouts: layouts, experiments: experiments, bus: bus)
        var providers: [String: any WidgetProvider] = [
            "catalog": CatalogVertical(catalog: catalog), "pricing": PricingVertical(catalog: catalog),
        ]
        if let promotions { providers["promotions"] = RemoteWidgetProvider(url: promotions, transport: PlainHTTPWidgetTransport()) }
        let composer = Composer(
            catalog: ShopWidgets.catalogCheckingImages(with: { url in await MediaRoutes.imageProblem(url, catalog: catalog) }), providers: providers,
            // The in-process verticals read the local database: slow only when everything is. The
            // promotions service is another team's, slow and flaky: 300 ms, then it is left out.
            configuration: .init(
                defaultTimeout: shopTimeouts.promotions,
                verticalTimeouts: ["catalog": shopTimeouts.inProcess, "pricing": shopTimeouts.inProcess],
                budget: PageBudget(maximumBytes: 48 * 1024, maximumDuration: .milliseconds(250))),
            exposureRecorder: experiments, logger: logger)
        let pages = ComposedScreens(
            composer: composer, templates: templates,
            configuration: .init(
                freshness: .seconds(30), verticalFreshness: ["promotions": .seconds(5)], degradedFreshness: .seconds(1),
                // The demo puts nobody in segments: a signed-in user's page changes only as the
                // template, experiments, providers' data and the clock do.
                cacheByteBudget: cacheBudget.composedPages, segmentsChangeWithUserWrites: true),
            logger: logger)
        var routes = ScreenplayRoutes()
        let search = SearchScreens(search: CatalogSearch(catalog: catalog))
        Self.registerScreens(
            in: &routes, catalog: catalog, users: users, search: search, teaser: HomeTeaser(templates: templates, recorder: experiments))
        PlaylistCommands(catalog: catalog).register(in: &routes, hooks: testHooks)
        CatalogFavoriteCommands(catalog: catalog).register(in: &routes, hooks: testHooks)
        let shopClicks = ShopClicks(store: store, catalog: catalog)
        self.shopClicks = shopClicks
        shopClicks.register(in: &routes, hooks: testHooks)
        search.register(in: &routes, hooks: testHooks)
        routes.componentKind(TicketOffer.kind)
        // v1 still works, and says it is on its way out.
        var configuration = ScreenplayService.Configuration(deprecatedVersions: [.v1: Date(timeIntervalSince1970: 1_793_491_200)])
        if let commandRate { configuration.commandRate = commandRate }
        configuration.cacheByteBudget = cacheBudget.screens
        configuration.revalidationByteBudget = cacheBudget.revalidations
        // The bus: revalidations of screens whose revision only the bus's writes change are
        // answered from memory, before routing.
        self.service = ScreenplayService(
            routes: routes, identity: users, configuration: configuration, pages: pages, invalidations: bus,
            idempotency: storage.idempotency ?? SQLIdempotencyStore(store: store),
            reports: ListeningReports(log: SQLClientEventLog(store: store), users: users), logger: logger)
        self.pages = pages
        let admins = AdminDirectory(store: store, hasher: passwordHasher)
        self.admins = admins
        let described = Mutex<[UInt8]?>(nil)
        self.adminAPI = AdminAPI(
            admins: admins, layouts: layouts, experiments: experiments, pages: pages, users: users,
            description: { table in
                try described.withLock { kept in
                    if let kept { return kept }
                    let made = try Self.adminAPIDescription(table)
                    kept = made
                    return made
                }
            })
        self.adminSite = AdminSite(
            admins: admins, layouts: layouts, experiments: experiments, pages: pages, events: service.events, metrics: DemoMetrics.all,
            namingWait: shopTimeouts.naming, clientMix: service.clientMix, logger: logger)
        self.webSite = WebSite(service: service, renderer: HTMLRenderer(shell: Self.webShell), pageCacheBytes: cacheBudget.webPages)
    }

    static func registerScreens(
        in routes: inout ScreenplayRoutes, catalog: CatalogRepository, users: UserDirectory, search: SearchScreens, teaser: HomeTeaser? = nil
    ) {
        let screens = CatalogScreens(catalog: catalog)
        let library = LibraryScreens(catalog: catalog)
        // Catalog screens are the same for everyone and never change while running; screens with
        // a user's data change with that user's revision.
        let catalogRevision: ScreenplayRoutes.RevisionFunction = { _ in "catalog" }
        let userRevision: ScreenplayRoutes.RevisionFunction = { request in
            String(try await users.revision(of: request.user))
        }
        // Home is per user, and shows the shop teaser to the experiment's `teaser` variant: the
        // variant is part of its revision (and the exposure is recorded on every request that
        // reaches the service; one answered from memory always follows one that did).
        //
        // Every revision here reads only the user's revision, the catalog and experiments, all of
        // which change only with what the invalidation bus announces, so revalidations are
        // answered from memory; home's variant also changes when the experiment starts or stops.
        routes.screen(
            "home",
            revision: { request in
                let variant = await teaser?.variant(for: request.user) ?? "-"
                return "\(try await users.revision(of: request.user))/\(variant)"
            },
            revalidation: .fromMemory(until: { _, since in try await teaser?.nextChange(after: since) })
        ) { request in
            try await screens.home(for: request.user, shopTeaser: await teaser?.variant(for: request.user) == "teaser")
        }
        // A composer's and a work's pages carry the user's hearts (a work's, and each of its
        // recordings'), so they are per user: their revision is the user's (the catalog is fixed).
        routes.screen("composer/:slug", revision: userRevision, revalidation: .fromMemory()) { request in
            try await screens.composer(slug: try request.parameter("slug"), for: request.user)
        }
        routes.screen("work/:id", revision: userRevision, revalidation: .fromMemory()) { request in
            try await screens.work(id: try Self.id(request), for: request.user)
        }
        routes.screen("playlist/:id", revision: userRevision, revalidation: .fromMemory()) { request in
            try await library.playlist(id: try Self.id(request), for: request.user)
        }
        // A shared playlist: the same for everyone with the link; it changes with its owner's writes
        // (so it is looked up again each time, not answered from memory).
        routes.screen(
            "shared/:token",
            revision: { request in
                guard let (_, owner) = try await catalog.sharedPlaylist(token: try request.parameter("token")) else { return "gone" }
                return String(try await users.revision(of: UserIdentity(id: owner)))
            }, sharing: .everyone
        ) { request in
            try await library.shared(token: try request.parameter("token"))
        }
        routes.screen("favorites", revision: userRevision, revalidation: .fromMemory()) { request in
            try await library.favorites(for: request.user)
        }
        routes.screen("cities", revision: catalogRevision, revalidation: .fromMemory(), sharing: .everyone) { _ in CityStatistics.screen() }
        routes.screen("library", revision: userRevision, revalidation: .fromMemory()) { request in
            try await library.library(for: request.user)
        }
        // The results of a search are at their own URL (`?q=`), for apps and browsers alike.
        routes.screen(
            "search", revision: catalogRevision, revalidation: .fromMemory(), sharing: .everyone,
            queryKeys: [SearchScreens.queryParameter]
        ) { request in
            try await search.screen(query: request.query[SearchScreens.queryParameter])
        }
        routes.screen(
            SearchScreens.suggestionsPath, revision: catalogRevision, revalidation: .fromMemory(), sharing: .everyone,
            queryKeys: [SearchScreens.queryParameter]
        ) { request in
            try await search.suggestions(query: request.query[SearchScreens.queryParameter])
        }
    }

    static func id(_ request: ScreenRequest) throws -> Int64 {
        let text = try request.parameter("id")
        guard let id = Int64(text), id > 0 else {
            throw ScreenplayError.notFound("'\(text)' is not an id", path: "screens/" + request.path)
        }
        return id
    }

    /// The router: API, web pages, images and audio; with a `baselineFile`, also `GET /baseline`
    /// answering that file's bytes, read once and then sent as they are: what the load script
    /// compares the real routes with (the cost of Hummingbird and the socket, nothing of ours).
    public func makeRouter(baselineFile: String? = nil) -> Router<ScreenplayRequestContext> {
        let router = Router(context: ScreenplayRequestContext.self)
        // First, so that it covers every route and the router's own 404: one error shape.
        router.add(middleware: JSONErrorMiddleware())
        if testHooks.screenDelay > .zero { router.add(middleware: ScreenDelayMiddleware(delay: testHooks.screenDelay)) }
        if let baselineFile {
            let bytes = Mutex<ByteBuffer?>(nil)
            router.get("baseline") { _, _ in
                let body = try bytes.withLock { cached in
                    if let cached { return cached }
                    let loaded = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: baselineFile)))
                    cached = loaded
                    return loaded
                }
                return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: body))
            }
        }
        addOpenAPIRoute(to: router)
        router.addScreenplay(service)
        let adminAPI = self.adminAPI
        router.addScreenplayRoutes(adminAPI.routes, mount: adminAPI.prefix, maximumBodySize: AdminAPI.maximumBodySize) { request, body, _ in
            await adminAPI.respond(to: request, body: body)
        }
        let adminSite = self.adminSite
        router.addScreenplayRoutes(
            adminSite.routes, mount: adminSite.prefix, maximumBodySize: AdminSite.maximumFormBytes, refused: { adminSite.refused($0) }
        ) { request, body, address in
            await adminSite.respond(to: request, body: body, clientAddress: address)
        }
        router.addScreenplayEventStream("admin/preview-events/:route", heartbeat: service.configuration.eventStreams.heartbeat) {
            request, address in await adminSite.openPreviewEvents(request, clientAddress: address)
        }
        router.addScreenplayWeb(webSite)
        MediaRoutes.register(on: router, catalog: catalog, audio: audio)
        router.get("health") { _, _ in "ok" }
        return router
    }

    /// The `Server` header of every answer.
    static let serverName = "Screenplay"

    /// The web pages' site: its name, sections and search box.
    static let webShell = WebShell(
        siteName: "Screenplay Classical",
        navigation: [
            .init("Home", path: "/"), .init("Search", path: "/" + DemoLinks.search), .init("Library", path: "/" + DemoLinks.library),
            .init("Shop", path: "/" + DemoLinks.shop),
        ],
        search: .init(
            path: "/" + DemoLinks.search, parameter: SearchScreens.queryParameter, placeholder: "Composers, works, performers",
            suggestions: "/screens/" + SearchScreens.suggestionsPath))

    /// A Hummingbird application serving the demo on `host:port` (port 0 picks a free one);
    /// `onRunning` receives the bound port; `baselineFile` adds `GET /baseline` (see ``makeRouter(baselineFile:)``).
    public func makeApplication(
        host: String = "127.0.0.1", port: Int = 8080, limits: ConnectionLimits = ConnectionLimits(), baselineFile: String? = nil,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: makeRouter(baselineFile: baselineFile),
            // A server whose screens are slow on purpose (a test hook) answers none from memory:
            // every page then takes the delay it promises.
            server: limits.server(
                logger: logger, revalidations: testHooks.screenDelay > .zero ? nil : service.revalidations, serverName: Self.serverName),
            configuration: .init(
                address: .hostname(host, port: port), serverName: Self.serverName,
                availableConnectionsDelegate: limits.connectionCap(logger: logger)),
            services: [ScheduledPublishing(scheduler: publishScheduler)],
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    /// Publishes what the layout admin scheduled when it falls due, logging each publish.
    public var publishScheduler: PublishScheduler {
        let logger = self.logger
        return PublishScheduler(
            layouts: layouts,
            published: { revision in
                logger.info(
                    "scheduled publish made", metadata: ["route": "\(revision.template.route)", "revision": "\(revision.revision)", "by": "\(revision.publishedBy)"])
            },
            failed: { error in logger.warning("scheduled publishes could not be looked at", metadata: ["error": "\(error)"]) })
    }

    /// Closes the database.
    public func close() async throws { try await store.close() }
}

/// The scheduler as one of the application's services: it runs beside the server and stops when
/// the server shuts down.
struct ScheduledPublishing: Service {
    let scheduler: PublishScheduler

    func run() async throws {
        try await cancelWhenGracefulShutdown { await scheduler.run() }
    }
}
