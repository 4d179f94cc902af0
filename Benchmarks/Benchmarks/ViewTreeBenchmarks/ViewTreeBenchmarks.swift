import Benchmark
import Foundation
import ScreenplayClient
import ScreenplayContract

/// Resolving a large screen into the view tree, against decoding the same screen: the tree is
/// built on every state change, so it must cost a fraction of a decode.
enum Inputs {
    /// 2 000 components: rows with images and details, tracks with play actions, stacks of text
    /// and rectangles, buttons, favorite toggles, grids of cards.
    nonisolated(unsafe) static var screen: Screen!
    nonisolated(unsafe) static var json: Data!
    nonisolated(unsafe) static var nodeCount = 0

    static func prepare() throws {
        guard screen == nil else { return }
        var sections: [ScreenSection] = []
        var count = 0
        var index = 0
        while count < 2_000 {
            index += 1
            let image = RemoteImage(url: "/images/\(index).svg", lowResURL: "/images/\(index)-low.svg", alt: "Cover \(index)")
            let play = Action.play(
                .init(metadataURL: "media/queues/\(index)", firstTrack: .init(id: "\(index)", title: "Track \(index)", streamURL: "/audio/\(index).wav")))
            let components: [Component] = [
                .listRow(.init(title: "Work \(index)", subtitle: "Op. \(index)", image: image, composer: "Composer", recordingCount: index % 4, action: .navigate(.init(url: "screens/work/\(index)")))),
                .trackRow(.init(title: "Track \(index)", subtitle: "Performer", duration: 60 + index, action: play)),
                .horizontalStack(.init(alignment: .bottom, spacing: 4, background: .token(.surface), padding: 8, children: [
                    .text(.init("\(index)", size: 11, weight: .semibold, color: .token(.secondaryText))),
                    .rectangle(.init(width: 20, height: Double(index % 60), color: .rgb(index % 255, 100, 0))),
                ])),
                .button(.init(title: "Open \(index)", style: .secondary, action: .command(.init(url: "commands/open", payload: ["id": .integer(index)])))),
                // v4: bound to the playlist's entity, as the demo's hearts are.
                Component.favoriteButton(.init(isFavorite: false, label: "Playlist \(index)", add: .init(url: "commands/favorites/add"), remove: .init(url: "commands/favorites/remove")))
                    .bind("isFavorite", to: "playlist/\(index)", "favorite"),
            ].enumerated().map { offset, component in component.id("c\(index).\(offset)") }
            count += components.count + 2  // the stack's two children
            sections.append(ScreenSection(id: "s\(index)", header: .init(title: "Section \(index)"), components: components))
        }
        let entities = Dictionary(uniqueKeysWithValues: (1...index).map { ("playlist/\($0)", ["favorite": JSONValue.bool($0 % 2 == 0)]) })
        screen = Screen(id: "large", title: "Large", header: .init(title: "Large"), sections: sections, entities: entities)
        json = try ScreenplayEncoder().encode(screen!)
        let resolved = ViewTreeResolver().resolve(screen!)
        precondition(resolved.issues.isEmpty, "the benchmark screen must resolve cleanly: \(resolved.issues.prefix(3))")
        nodeCount = resolved.root.allNodes.count
        print("ViewTreeBenchmarks: \(count) components (\(index) bound to entities), \(json.count) bytes of JSON, \(nodeCount) nodes; ViewNode stride \(MemoryLayout<ViewNode>.stride) bytes")
        // Memory per resolved node: resident growth while 20 trees are kept alive, over their nodes.
        let trees = 20
        let before = residentBytes()
        var kept: [ResolvedScreen] = []
        for _ in 0..<trees { kept.append(ViewTreeResolver().resolve(screen!)) }
        let after = residentBytes()
        blackHole(kept)
        print("ViewTreeBenchmarks: \((after - before) / (trees * nodeCount)) bytes resident per resolved node (\(trees) trees kept, \((after - before) >> 20) MiB)")
    }

    /// Resident set size from /proc/self/statm (pages × page size).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], maxDuration: .seconds(3))

    Benchmark("Decode the 2 000-component screen (lossy, v4)", configuration: .init(setup: { try Inputs.prepare() })) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try ScreenplayDecoder(mode: .lossy).decode(Screen.self, from: Inputs.json))
        }
    }

    Benchmark("Resolve the 2 000-component screen into the view tree", configuration: .init(setup: { try Inputs.prepare() })) { benchmark in
        let resolver = ViewTreeResolver(context: ResolutionContext(localActions: ["play", "share", "openURL"]))
        for _ in benchmark.scaledIterations {
            blackHole(resolver.resolve(Inputs.screen))
        }
    }
}
