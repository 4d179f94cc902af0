import Foundation
public import Logging
import ScreenplayContract
public import ScreenplayServer
import Synchronization

/// Where the live page templates and the experiments in force come from: the store in a real
/// server (kept in memory and dropped when an admin publishes), fixed values in tests.
public protocol PageTemplateSource: Sendable {
    /// The published template of `route`, or `nil` when there is none (the route is then not a
    /// composed page).
    func liveTemplate(for route: String) async throws -> PageTemplate?
    /// The experiments that conditions and providers may consult.
    func experiments() async throws -> ExperimentCatalog
}

/// Fixed templates and experiments: for tests and for apps whose pages live in code.
public struct FixedPageTemplates: PageTemplateSource {
    /// The templates, by route.
    public var templates: [String: PageTemplate]
    /// The experiments.
    public var catalog: ExperimentCatalog

    /// Templates keyed by their routes.
    public init(_ templates: [PageTemplate], experiments: ExperimentCatalog = .init()) {
        self.templates = Dictionary(templates.map { ($0.route, $0) }, uniquingKeysWith: { _, last in last })
        self.catalog = experiments
    }

    /// The template of `route`.
    public func liveTemplate(for route: String) async throws -> PageTemplate? { templates[route] }

    /// The experiments.
    public func experiments() async throws -> ExperimentCatalog { catalog }
}

/// Composed pages served as screens: for a request, the live template of its route composed for
/// that client, cached, and answered like any other screen (ETag, 304, gzip, downgrade).
///
/// **What is cached, and for how long.** A composed page is cached per request shape: route,
/// template revision, API version, client kinds, platform, locale, segments, the user's variant
/// of every experiment, which widgets the conditions show, and the user when a shown widget's
/// contract says its data is per user (``WidgetContract/sharing``). Providers' data changes
/// without telling anyone, so entries also expire: after the shortest freshness of the verticals
/// on the page (``Configuration/freshness``, ``Configuration/verticalFreshness``), or after
/// ``Configuration/degradedFreshness`` when a provider failed, so a recovered vertical is back
/// within a second without every request waiting on a dead one. Publishing a template changes
/// the revision, so the next request composes the new one.
///
/// **Exposures** are recorded on every request that reaches the service, hit or miss (conditions
/// are evaluated anyway to make the key), so a user who first sees a variant from a page another
/// user warmed still counts. A request answered from memory before routing is a repeat of one that
/// reached the service, for the same user.
///
/// **Answers remembered before routing** (``answer(for:)``): until the page's data goes stale, a
/// window or an experiment starts or ends. A signed-in user's page is remembered only with
/// ``Configuration/segmentsChangeWithUserWrites``: segments are not announced on the bus, so a
/// page could otherwise outlive a change of the user's segments.
public struct ComposedScreens: RememberingPageSource {
    /// Freshness and memory.
    public struct Configuration: Sendable {
        /// How long a composed page is served from memory when its verticals say nothing else.
        public var freshness: Duration
        /// Freshness by vertical: a page lives as long as its shortest-lived vertical allows.
        public var verticalFreshness: [String: Duration]
        /// How long a page with a failed or late provider is served before composing again.
        public var degradedFreshness: Duration
        /// The most bytes of composed pages kept.
        public var cacheByteBudget: Int
        /// How long after it expires a page (of the same template revision) is still answered
        /// while it is composed again in the background: requests never wait on a slow vertical
        /// to refresh a page, only to build one they have never had. Zero turns it off.
        public var staleWhileRecomposing: Duration
        /// Whether the segments a user is in change only with their own writes (which the bus
        /// announces), so a signed-in user's page may be remembered and answered before routing.
        /// Off by default: anonymous pages alone are remembered.
        public var segmentsChangeWithUserWrites: Bool

        /// 5 s fresh, 1 s when degraded, 16 MiB, stale for up to 30 s while recomposing; signed-in
        /// users' pages not remembered before routing.
        public init(
            freshness: Duration = .seconds(5), verticalFreshness: [String: Duration] = [:], degradedFreshness: Duration = .seconds(1),
            cacheByteBudget: Int = 16 << 20, staleWhileRecomposing: Duration = .seconds(30), segmentsChangeWithUserWrites: Bool = false
        ) {
            self.segmentsChangeWithUserWrites = segmentsChangeWithUserWrites
            self.staleWhileRecomposing = staleWhileRecomposing
            self.freshness = freshness
            self.verticalFreshness = verticalFreshness
            self.degradedFreshness = degradedFreshness
            self.cacheByteBudget = cacheByteBudget
        }
    }

    /// Composes the pages.
    public let composer: Composer
    /// Where templates come from.
    public let templates: any PageTemplateSource
    /// The configuration in force.
    public let configuration: Configuration
    let segments: @Sendable (UserIdentity) async -> Set<String>
    /// Composed pages, each with the wall-clock time its providers' data goes stale.
    let cache: ByteBudgetCache<ScreenCacheKey, ComposedBody>
    let reports: ComposedPageReports
    let logger: Logger

    /// Serves `templates` through `composer`; `segments` says which segments a user is in
    /// (conditions and experiments target them).
    public init(
        composer: Composer, templates: any PageTemplateSource, configuration: Configuration = .init(),
        segments: @escaping @Sendable (UserIdentity) async -> Set<String> = { _ in [] },
        logger: Logger = Logger(label: "screenplay.composer")
    ) {
        self.composer = composer
        self.templates = templates
        self.configuration = configuration
        self.segments = segments
        self.cache = ByteBudgetCache(byteBudget: configuration.cacheByteBudget, cost: \.body.storedSize)
        self.reports = ComposedPageReports()
        self.logger = logger
    }

    /// One request for a composed page (the server core's ``PageRequest``).
    public typealias Request = PageRequest

    /// The app-defined kinds the page's widgets may send: the composer's catalog and providers'.
    public var customKinds: [String: CustomComponentKind] { composer.allCustomKinds }

    /// The composed page for `request`, encoded, from memory when fresh; `nil` when the route has
    /// no live template. Never fails because of a provider; fails only when the template source
    /// (the store) does.
    public func body(for request: Request) async throws(ScreenplayError) -> EncodedBody? {
        try await answer(for: request)?.body
    }

    /// The composed page for `request` (as ``body(for:)``), remembered until the first of: its
    /// providers' data going stale (as the composed-page cache keeps it, writes or not), a widget's
    /// window opening or closing, an experiment starting or stopping. Everything else it depends on
    /// changes only with what the bus announces: the template (a publish), experiments (an edit),
    /// and, when ``Configuration/segmentsChangeWithUserWrites`` says so, the user's segments (their
    /// writes drop what memory holds of their pages).
    public func answer(for request: Request) async throws(ScreenplayError) -> PageAnswer? {
        let template: PageTemplate?
        let experiments: ExperimentCatalog
        do {
            template = try await templates.liveTemplate(for: request.route)
            experiments = template == nil ? .init() : try await templates.experiments()
        } catch {
            logger.error("could not read the page template", metadata: ["route": "\(request.route)", "error": "\(error)"])
            throw .internalError("the page '\(request.route)' could not be read")
        }
        guard let template else { return nil }
        let context = CompositionContext(
            route: request.route, userID: request.user.isAnonymous ? nil : String(request.user.id), platform: request.platform,
            apiVersion: request.apiVersion, clientKinds: request.clientKinds, locale: request.locale,
            segments: request.user.isAnonymous ? [] : await segments(request.user), now: Date(), experiments: experiments)

        let selection = composer.selection(template, context: context)
        await composer.record(selection.exposures, context: context, deadline: .now + composer.configuration.defaultTimeout)

        let variants = experiments.experiments.keys.sorted().map { "\($0)=\(context.variant(for: $0) ?? "-")" }
        let key = ScreenCacheKey(
            route: "page:" + request.route,
            parameters: [
                request.platform.rawValue, request.locale ?? "", context.segments.sorted().joined(separator: ","),
                variants.joined(separator: ","), selection.shown.joined(separator: ","),
            ],
            query: [:], apiVersion: request.apiVersion.rawValue, clientKinds: request.clientKinds,
            user: selection.perUser && !request.user.isAnonymous ? request.user.id : nil)
        let freshness =
            selection.verticals.map { configuration.verticalFreshness[$0] ?? configuration.freshness }.min()
            ?? configuration.freshness
        let (composer, reports, degradedFreshness) = (self.composer, self.reports, configuration.degradedFreshness)
        let composed: ComposedBody
        do {
            composed = try await cache.value(for: key, revision: String(template.revision), staleFor: configuration.staleWhileRecomposing) {
                let page = await composer.compose(template: template, context: context)
                reports.keep(page)
                let lifetime = page.isDegraded ? min(freshness, degradedFreshness) : freshness
                return .init(value: ComposedBody(body: page.body, stale: Date() + lifetime.milliseconds / 1_000), expires: .now + lifetime)
            }
        } catch {
            throw .internalError("the page '\(request.route)' could not be composed")
        }
        let until = ([composed.stale] + Self.changes(of: template, experiments: experiments, after: context.now)).min() ?? composed.stale
        // A page served stale while it is composed again, or one whose next change is already due,
        // is not remembered.
        guard until > context.now, request.user.isAnonymous || configuration.segmentsChangeWithUserWrites else {
            return PageAnswer(body: composed.body, remembered: nil)
        }
        return PageAnswer(body: composed.body, remembered: .init(owner: request.user.isAnonymous ? nil : request.user, until: until))
    }

    /// When what `template` shows may change by itself after `now`: its widgets' windows opening
    /// or closing, its experiments starting or stopping.
    static func changes(of template: PageTemplate, experiments: ExperimentCatalog, after now: Date) -> [Date] {
        let windows = template.instances.compactMap(\.conditions.window).flatMap { [$0.start, $0.end] }
        let starts = experiments.experiments.values.flatMap { [$0.start, $0.stop] }
        return (windows + starts).compactMap { $0 }.filter { $0 > now }
    }

    /// The newest composition of `route` (from any request), for the admin: widgets' latency,
    /// bytes and outcomes, and whether it broke the budget.
    public func latestReport(for route: String) -> ComposedPage? { reports.latest(route) }

    /// What the composed-page cache holds and has done.
    public var cacheStatistics: CacheStatistics { cache.statistics }
}

extension ComposedPage {
    /// Whether a provider failed the page: a widget omitted, or standing in with its
    /// `unavailable` fallback, for a reason other than its conditions or switch.
    public var isDegraded: Bool {
        widgets.contains { report in
            switch report.outcome {
            case .shown, .fallback(.kindNotRendered): false
            case .fallback(.unavailable): true
            case .omitted(let reason): !reason.isExpected
            }
        }
    }
}

/// The newest composition per route.
final class ComposedPageReports: Sendable {
    private let pages = Mutex<[String: ComposedPage]>([:])
    private let limit = 1_000

    func keep(_ page: ComposedPage) {
        pages.withLock { pages in
            if pages.count >= limit, pages[page.route] == nil { pages.removeAll(keepingCapacity: true) }
            pages[page.route] = page
        }
    }

    func latest(_ route: String) -> ComposedPage? { pages.withLock { $0[route] } }
}

/// A composed page and the wall-clock time its providers' data goes stale (the cache's own expiry
/// is on a monotonic clock; memory that answers before routing counts in dates).
struct ComposedBody: Sendable {
    let body: EncodedBody
    let stale: Date
}
