import Benchmark
import Foundation
import HTTPTypes
import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer

/// The composer's promise in figures: a page of 30 widgets from 5 verticals whose providers each
/// take 20 ms composes in about 20 ms plus a small overhead, not the 100 ms of calling them one
/// after another; and with instant providers, how composing compares with serving a cached screen.
enum Setup {
    static let widgetsPerVertical = 6
    static let verticals = ["catalog", "pricing", "promotions", "reviews", "stock"]
    static let providerLatency = Duration.milliseconds(20)

    /// `offerTile`: a title and a price; apps without it get a list row.
    static let contract = try! WidgetContract(
        type: "offerTile", summary: "A product offer.", versioning: KindVersioning(introduced: .v1, fallback: "a list row"),
        fields: [.required("title", .string), .required("price", .string), .optional("image", .url)],
        fallback: { json in [.listRow(.init(title: json["title"]?.stringValue ?? "", subtitle: json["price"]?.stringValue))] })

    /// Answers every instance of its vertical with the same shape of bytes, after `latency`.
    struct Provider: WidgetProvider {
        let latency: Duration

        func fragments(for request: WidgetRequest) async throws -> WidgetResponse {
            if latency > .zero { try await Task.sleep(for: latency) }
            var fragments: [String: WidgetFragment] = [:]
            for instance in request.instances {
                let json = #"{"type":"offerTile","title":"Offer \#(instance.id)","price":"€\#(instance.id.count * 3).00","image":"/images/\#(instance.id).svg"}"#
                fragments[instance.id] = .bytes(Array(json.utf8))
            }
            return WidgetResponse(fragments: fragments)
        }
    }

    static let template = PageTemplate(
        route: "shop", title: "Shop", revision: 1,
        sections: verticals.map { vertical in
            PageTemplate.Section(
                id: vertical, title: vertical.capitalized,
                widgets: (0..<widgetsPerVertical).map { index in
                    WidgetInstance(id: "\(vertical)-\(index)", kind: "offerTile", vertical: vertical)
                })
        })

    static func composer(latency: Duration) -> Composer {
        let catalog = try! WidgetCatalog([contract])
        let providers = Dictionary(uniqueKeysWithValues: verticals.map { ($0, Provider(latency: latency) as any WidgetProvider) })
        return Composer(catalog: catalog, providers: providers, configuration: .init(defaultTimeout: .milliseconds(500)))
    }

    static let context = CompositionContext(
        route: "shop", userID: "7", platform: Platform("ios"), apiVersion: .latest, clientKinds: ["offerTile"])

    static let slow = composer(latency: providerLatency)
    static let instant = composer(latency: .zero)

    /// A service with one screen of the same size as the composed page, always a cache hit.
    static let service: ScreenplayService = {
        struct Anonymous: IdentityResolver {
            func resolve(token: String?, creating: Bool) async throws -> ResolvedIdentity {
                ResolvedIdentity(user: .anonymous, issuedToken: nil)
            }
        }
        var routes = ScreenplayRoutes()
        routes.screen("shop", revision: { _ in "1" }, sharing: .everyone) { _ in
            Screen(id: "shop", title: "Shop") {
                for vertical in verticals {
                    Section(vertical, header: vertical.capitalized) {
                        for index in 0..<widgetsPerVertical {
                            ListRow(title: "Offer \(vertical)-\(index)", subtitle: "€\(index).00")
                        }
                    }
                }
            }
        }
        return ScreenplayService(routes: routes, identity: Anonymous())
    }()

    /// Composes `runs` pages one after another and prints p50, p99 and the overhead over the
    /// provider latency: the figure the issue asks for, beside the harness's own percentiles.
    static func printLatency(runs: Int = 200) async {
        var durations: [Duration] = []
        var sample: ComposedPage?
        for _ in 0..<runs {
            let page = await slow.compose(template: template, context: context)
            durations.append(page.duration)
            sample = page
        }
        durations.sort()
        func ms(_ duration: Duration) -> Double {
            Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
        }
        let p50 = ms(durations[runs / 2])
        let p99 = ms(durations[runs * 99 / 100])
        let shown = sample?.widgets.filter { $0.outcome == .shown }.count ?? 0
        print(
            "ComposerBenchmarks: 30 widgets, 5 providers × 20 ms: p50 \(String(format: "%.1f", p50)) ms, p99 \(String(format: "%.1f", p99)) ms; overhead over 20 ms: p50 \(String(format: "%.1f", p50 - 20)) ms (sequential calls would take 100 ms); \(shown) widgets shown, \(sample?.bytes.count ?? 0) bytes")
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(5))

    Benchmark("compose: 30 widgets, 5 providers of 20 ms", configuration: .init(setup: { await Setup.printLatency() })) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(await Setup.slow.compose(template: Setup.template, context: Setup.context))
        }
    }

    Benchmark("compose: 30 widgets, instant providers") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(await Setup.instant.compose(template: Setup.template, context: Setup.context))
        }
    }

    Benchmark("baseline: a cached screen of the same size, from the service") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await Setup.service.encodedScreen(path: "shop", apiVersion: .latest, user: .anonymous))
        }
    }
}
