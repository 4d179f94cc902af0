import Benchmark
import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayDemo
import ScreenplayServer

/// Inputs built once before the benchmarks run.
enum Inputs {
    /// ~16 MB: 560 screens of 180 components each (about 100 000 components).
    nonisolated(unsafe) static var bundleJSON: Data!
    nonisolated(unsafe) static var demo: DemoApp!
    nonisolated(unsafe) static var token: String!
    nonisolated(unsafe) static var home: Screen!

    static func prepare() async throws {
        var screens: [Screen] = []
        for index in 0..<560 { screens.append(screen(index)) }
        bundleJSON = try ScreenplayEncoder().encode(screens)
        let components = screens.reduce(0) { $0 + $1.sections.reduce(0) { $0 + $1.components.reduce(0) { $0 + 1 + $1.children.count } } }
        print("bundle: \(bundleJSON.count) bytes, \(screens.count) screens, \(components) components")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-bench-\(UUID().uuidString)").path
        demo = try await DemoApp.open(dataDirectory: folder)
        let identity = try await demo.service.resolveIdentity(token: nil)
        token = identity.issuedToken
        home = try await demo.service.screen(path: "home", apiVersion: .latest, user: identity.user)
        for version in [APIVersion.v1, .v3] {
            let response = await serve(version)
            print("home \(version): \(response.body.count) bytes, status \(response.head.status.code)")
        }
    }

    static func screen(_ index: Int) -> Screen {
        Screen(id: "screen-\(index)", title: "Screen \(index)") {
            for section in 0..<20 {
                Section("s\(section)", header: "Section \(section)") {
                    for row in 0..<5 {
                        TrackRow(title: "Track \(index).\(section).\(row)", subtitle: "Performers of track \(row): Wiener Philharmoniker, Berliner Philharmoniker, Concertgebouworkest", duration: 100 + row * 37,
                                 action: .navigate(to: "screens/track/\(index)/\(section)/\(row)"))
                    }
                    HStack(alignment: .bottom, spacing: 4) {
                        for bar in 0..<3 { Rectangle(width: 20, height: Double((index + bar * 13) % 60), color: .rgb(bar * 80, 120, 40)) }
                    }
                }
            }
        }
    }

    static func serve(_ version: APIVersion) async -> ScreenplayService.Response {
        let request = HTTPRequest(
            method: .get, scheme: "http", authority: "localhost", path: "/api/\(version)/screens/home",
            headerFields: [.authorization: "Bearer \(token!)"])
        return await demo.service.respond(to: request, body: [])
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(4), maxIterations: 100_000)
    Benchmark.setup = { try await Inputs.prepare() }

    Benchmark("Bundle (16 MB, 100 k components): lossy decode (ScreenplayDecoder)", configuration: .init(maxDuration: .seconds(10), maxIterations: 10)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try ScreenplayDecoder(mode: .lossy).decode([Screen].self, from: Inputs.bundleJSON)) }
    }
    Benchmark("Bundle (16 MB, 100 k components): strict decode (plain JSONDecoder)", configuration: .init(maxDuration: .seconds(10), maxIterations: 10)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try JSONDecoder().decode([Screen].self, from: Inputs.bundleJSON)) }
    }
    Benchmark("Serve home from cache: v3") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(await Inputs.serve(.v3)) }
    }
    Benchmark("Serve home from cache: v1 (downgraded)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(await Inputs.serve(.v1)) }
    }
    Benchmark("Downgrade walk of home to v1 (cache miss cost)") { benchmark in
        let downgrade = Downgrade(to: .v1)
        for _ in benchmark.scaledIterations { blackHole(downgrade.screen(Inputs.home)) }
    }
    Benchmark("Encode home for v1 (cache miss cost)") { benchmark in
        let encoder = ScreenplayEncoder(apiVersion: .v1)
        let downgraded = Downgrade(to: .v1).screen(Inputs.home)
        for _ in benchmark.scaledIterations { blackHole(try encoder.encode(downgraded)) }
    }
}
