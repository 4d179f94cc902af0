import Foundation
import ScreenplayComposer
import ScreenplayContract
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayTestSupport
import Testing

@testable import ScreenplayDemo

/// The demo's experiment metric, on the real schema, on both databases: playlists a user created
/// after their first exposure, per variant.
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
}
