import Foundation
import ScreenplayComposer
import ScreenplayContract
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayStore
import SQLKit
import ScreenplayTestSupport
import Testing

@testable import ScreenplayDemo

/// The demo's experiment metrics, on the real schema, on both databases: playlists a user created,
/// and offers they opened on the shop, after their first exposure, per variant.
@Suite("Demo experiment metrics")
struct DemoMetricsTests {
    @Test("playlists created after exposure, per exposed user and variant", arguments: StoreBackend.allCases)
    func playlistCreations(backend: StoreBackend) async throws {
        try await withStore(backend) { store async throws in
            let demo = try await DemoApp.open(storage: .init(store: store, bus: InProcessInvalidationBus()))
            try await demo.experiments.save(Experiment(key: "metric-test", variants: [.init("a", weight: 50), .init("b", weight: 50)]), by: "test")
            let hourAgo = Date().addingTimeInterval(-3600)
            // (variant, playlists made, exposed an hour ago or an hour from now)
            for (variant, playlists, exposedBefore) in [("a", 3, true), ("a", 1, true), ("b", 1, true), ("b", 2, true), ("b", 1, false)] {
                let user = try await demo.service.resolveIdentity(token: nil).user
                for index in 1...playlists {
                    _ = try await demo.service.perform(command: "playlists/create", payload: ["name": .string("List \(index)")], apiVersion: .v4, user: user)
                }
                let at = exposedBefore ? hourAgo : Date().addingTimeInterval(3600)
                _ = try await demo.experiments.recordFirstExposure(Exposure(userID: String(user.id), experiment: "metric-test", variant: variant, at: at))
            }
            let results = try await demo.experiments.results(for: "metric-test", metric: DemoMetrics.playlistCreations)
            #expect(results.variants.map(\.name) == ["a", "b"])
            #expect(results.variants.map(\.users) == [2, 3])
            #expect(results.variants[0].mean == 2.0, "3 and 1")
            #expect(results.variants[1].mean == 1.0, "1, 2, and 0 for the one exposed after making theirs")
        }
    }

    @Test(
        "shop clicks after exposure, per exposed user and variant, with the intervals worked out by hand", arguments: StoreBackend.allCases)
    func shopClicks(backend: StoreBackend) async throws {
        try await withStore(backend) { store async throws in
            let demo = try await DemoApp.open(storage: .init(store: store, bus: InProcessInvalidationBus()))
            #expect(DemoMetrics.all.map(\.id) == ["playlist-creations", "shop-clicks", "plays", "offers-seen"])
            try await demo.experiments.save(
                Experiment(key: "metric-test", variants: [.init("a", weight: 50), .init("b", weight: 50)]), by: "test")
            let now = Date()
            let hourAgo = now.addingTimeInterval(-3600)
            func click(_ user: UserIdentity, work: Int = 3) async throws {
                _ = try await demo.service.perform(
                    command: "shop/open", payload: ["workId": .integer(work), "widget": "recordingOffer"], apiVersion: .v4, user: user)
            }
            // (variant, clicks now, clicks two hours ago, exposed an hour ago or an hour from now)
            let plan = [("a", 3, 0, true), ("a", 0, 0, true), ("b", 2, 1, true), ("b", 1, 0, false), ("b", 1, 0, true)]
            for (variant, clicks, earlier, exposedBefore) in plan {
                let user = try await demo.service.resolveIdentity(token: nil).user
                for _ in 0..<clicks { try await click(user) }
                // A click from before the experiment reached them, recorded as it would have been then.
                let then = ISO8601.string(seconds: Int(now.addingTimeInterval(-7200).timeIntervalSince1970))
                for _ in 0..<earlier {
                    try await store.transaction { database in
                        try await database.insert(into: "shop_clicks").columns("user_id", "work_id", "widget", "at")
                            .values(SQLBind(user.id), SQLBind(Int64(3)), SQLBind("cartButton"), SQLBind(then)).run()
                    }
                }
                let at = exposedBefore ? hourAgo : now.addingTimeInterval(3600)
                _ = try await demo.experiments.recordFirstExposure(
                    Exposure(userID: String(user.id), experiment: "metric-test", variant: variant, at: at))
            }
            // Clicks of users the experiment never reached, and anonymous ones (not recorded), count nowhere.
            try await click(try await demo.service.resolveIdentity(token: nil).user)
            try await click(.anonymous)

            let results = try await demo.experiments.results(for: "metric-test", metric: DemoMetrics.shopClicks)
            #expect(results.metric == "Shop clicks per exposed user, after exposure")
            #expect(results.variants.map(\.name) == ["a", "b"])
            #expect(results.variants.map(\.users) == [2, 3])
            // a: 3 and 0. Mean 1.5; sample variance (1.5² + 1.5²) / 1 = 4.5; half-width z·√(4.5 / 2) = 1.5 z.
            // b: 2 (the earlier click is before exposure), 0 (all before exposure), 1. Mean 1;
            //    variance (1 + 1 + 0) / 2 = 1; half-width z·√(1 / 3).
            // b − a: −0.5, half-width z·√(1 / 3 + 4.5 / 2).
            let z = 1.959_963_984_540_054
            let a = results.variants[0], b = results.variants[1]
            #expect(a.mean == 1.5 && b.mean == 1.0)
            func close(_ range: ClosedRange<Double>?, _ low: Double, _ high: Double) -> Bool {
                guard let range else { return false }
                return abs(range.lowerBound - low) < 1e-9 && abs(range.upperBound - high) < 1e-9
            }
            #expect(close(a.interval, 1.5 - 1.5 * z, 1.5 + 1.5 * z), "\(String(describing: a.interval))")
            #expect(close(b.interval, 1 - z * (1.0 / 3).squareRoot(), 1 + z * (1.0 / 3).squareRoot()), "\(String(describing: b.interval))")
            let half = z * (1.0 / 3 + 4.5 / 2).squareRoot()
            #expect(b.difference?.value == -0.5)
            #expect(close(b.difference?.interval, -0.5 - half, -0.5 + half), "\(String(describing: b.difference))")
            #expect(a.difference == nil, "the control")
        }
    }
}
