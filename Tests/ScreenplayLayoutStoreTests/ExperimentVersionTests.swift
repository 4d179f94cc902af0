import Foundation
import ScreenplayComposer
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayStore
import ScreenplayStoreSQLite
import ScreenplayTestSupport
import Testing

@Suite("Experiment versions")
struct ExperimentVersionTests {
    static func fiftyFifty() -> Experiment { Experiment(key: "teaser", variants: [.init("control", weight: 50), .init("banner", weight: 50)]) }

    @Test("a save from a stale read is refused saying who changed what since; the reader's values are not written", arguments: StoreBackend.allCases)
    func staleSave(backend: StoreBackend) async throws {
        try await withStore(backend) { store async throws in
            try await Migrator(LayoutStore.migrations + ExperimentStore.migrations).run(on: store)
            let experiments = ExperimentStore(store: store)
            try await experiments.save(Self.fiftyFifty(), by: "ada", expecting: .absent)
            let adasTab = try #require(try await experiments.stored("teaser"))
            let bobsTab = try #require(try await experiments.stored("teaser"))
            #expect(adasTab.version == bobsTab.version && adasTab.version.hasPrefix("\"sp-"))

            var seventyThirty = bobsTab.experiment
            seventyThirty.variants = [.init("control", weight: 70), .init("banner", weight: 30)]
            try await experiments.save(seventyThirty, by: "bob", expecting: .version(bobsTab.version))

            var adas = adasTab.experiment
            adas.targetSegment = "beta"
            do {
                try await experiments.save(adas, by: "ada", expecting: .version(adasTab.version))
                Issue.record("a save from a stale tab overwrote bob's weights")
            } catch {
                guard case .stale(let stale)? = error as? LayoutError else { throw error }
                #expect(stale.changedBy == "bob")
                #expect(stale.changes == "weights control 50 → 70, banner 50 → 30", "\(stale.changes ?? "")")
                #expect(stale.description.hasPrefix("experiment 'teaser' changed since you read it (by bob"), "\(stale.description)")
            }
            #expect(try await experiments.experiment("teaser")?.variants.map(\.weight) == [70, 30])
            // Creating what exists, or deleting from a stale read, is refused too.
            await #expect(throws: LayoutError.self) { try await experiments.save(Self.fiftyFifty(), by: "ada", expecting: .absent) }
            await #expect(throws: LayoutError.self) { try await experiments.delete("teaser", by: "ada", expecting: .version(adasTab.version)) }
            // Without an expectation (an old script) it is written, as before versions existed.
            try await experiments.save(adas, by: "ada")
            #expect(try await experiments.experiment("teaser")?.targetSegment == "beta")
            let now = try #require(try await experiments.stored("teaser"))
            #expect(try await experiments.delete("teaser", by: "ada", expecting: .version(now.version)))
        }
    }
}
