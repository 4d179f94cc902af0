import Benchmark
import Foundation
import ScreenplayContract
import ScreenplayDemo
import ScreenplayServer

/// Inputs built once before the benchmarks run.
enum Inputs {
    /// The demo's real home screen, built by the demo server in process.
    nonisolated(unsafe) static var home: Screen!
    nonisolated(unsafe) static var homeJSON: Data!
    /// A synthetic ~20 KB screen of rows, stacks and text (about 500 leaves); track durations are seconds (API v3).
    nonisolated(unsafe) static var synthetic: Screen!
    nonisolated(unsafe) static var syntheticJSON: Data!

    static func prepare() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-bench-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let demo = try await DemoApp.open(dataDirectory: folder)
        let user = try await demo.service.resolveIdentity(token: nil).user
        home = try await demo.service.screen(path: "home", apiVersion: .latest, user: user)
        try await demo.close()
        homeJSON = try ScreenplayEncoder().encode(home)
        synthetic = syntheticScreen(targetBytes: 20_000)
        syntheticJSON = try ScreenplayEncoder().encode(synthetic)
        print("inputs: home \(homeJSON.count) bytes, synthetic \(syntheticJSON.count) bytes")
    }

    static func syntheticScreen(targetBytes: Int) -> Screen {
        var sections: [ScreenSection] = []
        var index = 0
        while true {
            index += 1
            sections.append(
                Section("section-\(index)", header: "Section \(index)") {
                    TrackRow(title: "Track \(index)", subtitle: "Performer \(index)", duration: (index % 10) * 60 + index % 6,
                             action: .navigate(to: "screens/track/\(index)"))
                    HStack(alignment: .bottom, spacing: 4) {
                        for bar in 0..<3 {
                            Rectangle(width: 20, height: Double((index * 7 + bar * 13) % 60), color: .rgb(index % 255, 100, bar * 40))
                        }
                        Text("n=\(index)", size: 12, color: .token(.secondaryText))
                    }
                })
            let screen = Screen(id: "synthetic", title: "Synthetic", sections: sections)
            if let bytes = try? ScreenplayEncoder().encode(screen), bytes.count >= targetBytes { return screen }
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        maxDuration: .seconds(3),
        maxIterations: 100_000)
    Benchmark.setup = { try await Inputs.prepare() }

    let lossy = ScreenplayDecoder(mode: .lossy)
    let strict = ScreenplayDecoder(mode: .strict)
    let encoder = ScreenplayEncoder()

    Benchmark("Encode home screen") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try encoder.encode(Inputs.home)) }
    }
    Benchmark("Decode home screen (lossy)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try lossy.decode(Screen.self, from: Inputs.homeJSON)) }
    }
    Benchmark("Decode home screen (strict)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try strict.decode(Screen.self, from: Inputs.homeJSON)) }
    }
    Benchmark("Encode 20 KB synthetic screen") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try encoder.encode(Inputs.synthetic)) }
    }
    Benchmark("Decode 20 KB synthetic screen (lossy)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try lossy.decode(Screen.self, from: Inputs.syntheticJSON)) }
    }
    Benchmark("Decode 20 KB synthetic screen (strict)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try strict.decode(Screen.self, from: Inputs.syntheticJSON)) }
    }
    Benchmark("Decode 20 KB synthetic screen (plain JSONDecoder)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try JSONDecoder().decode(Screen.self, from: Inputs.syntheticJSON)) }
    }
    Benchmark("Baseline: JSONSerialization parse of the 20 KB screen") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try JSONSerialization.jsonObject(with: Inputs.syntheticJSON)) }
    }
}
