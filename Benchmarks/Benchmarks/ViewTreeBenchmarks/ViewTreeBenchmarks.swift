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

/// Live screens: when the server says a watched screen changed, the client fetches it, resolves
/// it and diffs the new tree against the one on screen, so renderers redraw only what changed.
/// The diff runs on every such event, so it must cost a fraction of the resolve it follows.
///
/// Two 10 000-component screens (1 000 sections of 10 components, every component with a stable
/// id, so the diff is keyed) of which 100 components differ: 70 with new text (50 rows, 20 texts
/// nested in stacks), 10 moved within their section, 10 inserted, 10 removed.
enum LiveScreenInputs {
    static let sectionCount = 1_000
    /// Sections whose first row gets a new title (50).
    static let rowUpdates = Array(stride(from: 0, to: 500, by: 10))
    /// Sections whose stack's text changes (20): updates one level below the section's children.
    static let nestedTextUpdates = Array(stride(from: 500, to: 700, by: 10))
    /// Sections whose first row moves to the section's end.
    static let moves = Array(stride(from: 705, to: 805, by: 10))
    /// Sections that gain a button after their fourth component.
    static let insertions = Array(stride(from: 807, to: 907, by: 10))
    /// Sections that lose their button (as many as gain one: both screens have 10 000 components).
    static let removals = Array(stride(from: 903, to: 1_000, by: 10))

    nonisolated(unsafe) static var before: Screen!
    nonisolated(unsafe) static var after: Screen!
    nonisolated(unsafe) static var beforeTree: ViewNode!
    nonisolated(unsafe) static var afterTree: ViewNode!

    /// Builds both screens and their trees once, and checks that each screen has 10 000
    /// components and that the diff finds exactly the 100 changes made, so the benchmark cannot
    /// time a diff that found nothing (or everything).
    static func prepare() {
        guard before == nil else { return }
        before = screen(changed: false)
        after = screen(changed: true)
        let resolver = ViewTreeResolver()
        let resolvedBefore = resolver.resolve(before)
        let resolvedAfter = resolver.resolve(after)
        precondition(resolvedBefore.issues.isEmpty && resolvedAfter.issues.isEmpty, "the live screens must resolve cleanly")
        beforeTree = resolvedBefore.root
        afterTree = resolvedAfter.root
        for screen in [before!, after!] {
            let components = screen.sections.reduce(0) { $0 + componentCount($1.components) }
            precondition(components == 10_000, "a live screen has \(components) components, not 10 000")
        }
        check(ScreenDiff(from: beforeTree, to: afterTree))
        print("ViewTreeBenchmarks: live screens of 10 000 components, \(beforeTree.allNodes.count) nodes; the diff finds the 100 changes")
        printRatio()
    }

    /// Components counted with the children of stacks, as the screen's author counts them.
    static func componentCount(_ components: [Component]) -> Int {
        components.reduce(0) { count, component in
            switch component.content {
            case .horizontalStack(let stack): count + 1 + componentCount(stack.children)
            case .verticalStack(let stack): count + 1 + componentCount(stack.children)
            default: count + 1
            }
        }
    }

    /// Section `index`'s ten components: two rows, two track rows, a stack holding a text and a
    /// rectangle, a button, a favorite toggle bound to an entity, and a text.
    static func components(_ index: Int, changed: Bool) -> [Component] {
        let updatesRow = changed && rowUpdates.contains(index)
        let updatesNestedText = changed && nestedTextUpdates.contains(index)
        var components: [Component] = [
            Component.listRow(
                .init(
                    title: updatesRow ? "Work \(index), revised" : "Work \(index)", subtitle: "Op. \(index)",
                    image: RemoteImage(url: "/images/\(index).svg", alt: "Cover \(index)"), composer: "Composer",
                    recordingCount: index % 4, action: .navigate(.init(url: "screens/work/\(index)")))
            ).id("row\(index)"),
            Component.trackRow(.init(title: "Track \(index)", subtitle: "Performer", duration: 60 + index)).id("track\(index)"),
            Component.horizontalStack(
                .init(
                    alignment: .bottom, spacing: 4, background: .token(.surface), padding: 8,
                    children: [
                        Component.text(.init(updatesNestedText ? "\(index) new" : "\(index)", size: 11, weight: .semibold))
                            .id("label\(index)"),
                        Component.rectangle(.init(width: 20, height: Double(index % 60), color: .rgb(index % 255, 100, 0)))
                            .id("bar\(index)"),
                    ])
            ).id("stack\(index)"),
            Component.button(.init(title: "Open \(index)", style: .secondary, action: .command(.init(url: "commands/open"))))
                .id("button\(index)"),
            Component.favoriteButton(
                .init(
                    isFavorite: false, label: "Playlist \(index)", add: .init(url: "commands/favorites/add"),
                    remove: .init(url: "commands/favorites/remove"))
            ).bind("isFavorite", to: "playlist/\(index)", "favorite").id("favorite\(index)"),
            Component.text(.init("About \(index)")).id("about\(index)"),
            Component.listRow(.init(title: "Recording \(index)", subtitle: "Live")).id("recording\(index)"),
            Component.trackRow(.init(title: "Encore \(index)", duration: 90)).id("encore\(index)"),
        ]
        guard changed else { return components }
        if moves.contains(index) { components.append(components.removeFirst()) }
        // As many insertions as removals: the changed screen has 10 000 components too.
        if insertions.contains(index) {
            let newButton = Component.button(.init(title: "New \(index)", action: .command(.init(url: "commands/open")))).id("new\(index)")
            components.insert(newButton, at: 4)
        }
        if removals.contains(index) { components.remove(at: 3) }
        return components
    }

    static func screen(changed: Bool) -> Screen {
        let sections = (0..<sectionCount).map { index in
            ScreenSection(id: "s\(index)", header: .init(title: "Section \(index)"), components: components(index, changed: changed))
        }
        let entities = Dictionary(
            uniqueKeysWithValues: (0..<sectionCount).map { ("playlist/\($0)", ["favorite": JSONValue.bool($0 % 2 == 0)]) })
        return Screen(id: "live", title: "Live", header: .init(title: "Live"), sections: sections, entities: entities)
    }

    /// The diff must name exactly the changes made, by id.
    static func check(_ diff: ScreenDiff) {
        func ids(_ prefix: String, _ sections: [Int]) -> Set<NodeID> { Set(sections.map { NodeID(rawValue: "id:\(prefix)\($0)") }) }
        let updated = ids("row", rowUpdates).union(ids("label", nestedTextUpdates))
        precondition(Set(diff.updated.keys) == updated, "the diff updated \(diff.updated.count) nodes, not the 70 changed")
        precondition(diff.updated.values.allSatisfy { $0.fields.contains(.text) }, "every update must be a change of text")
        precondition(diff.moved == ids("row", moves), "the diff moved \(diff.moved.count) nodes, not the 10 moved")
        precondition(
            Set(diff.inserted.keys) == ids("new", insertions), "the diff inserted \(diff.inserted.count) nodes, not the 10 inserted")
        precondition(diff.removed == ids("button", removals), "the diff removed \(diff.removed.count) nodes, not the 10 removed")
        precondition(
            diff.childOrder.count == 30,
            "the diff reordered \(diff.childOrder.count) sections, not the 30 with a move, insertion or removal")
        precondition(diff.applied(to: beforeTree) == afterTree, "the diff applied to the old tree must give the new one")
    }

    /// The ratio asked of the benchmark, diff time over resolve time, measured here in turns
    /// (median of each), so both see the same machine load.
    static func printRatio(rounds: Int = 31) {
        let resolver = ViewTreeResolver()
        let clock = ContinuousClock()
        var resolves: [Duration] = []
        var diffs: [Duration] = []
        for _ in 0..<rounds {
            resolves.append(clock.measure { blackHole(resolver.resolve(after)) })
            diffs.append(clock.measure { blackHole(ScreenDiff(from: beforeTree, to: afterTree)) })
        }
        func milliseconds(_ durations: [Duration]) -> Double {
            let median = durations.sorted()[durations.count / 2].components
            return Double(median.seconds) * 1_000 + Double(median.attoseconds) / 1e15
        }
        let resolve = milliseconds(resolves)
        let diff = milliseconds(diffs)
        print(
            String(
                format: "ViewTreeBenchmarks: 10 000 components, 1 %% changed: diff %.2f ms, resolve %.2f ms (medians of %d); "
                    + "diff / resolve = %.3f",
                diff, resolve, rounds, diff / resolve))
    }
}

/// Client state (contract v6): after one variable changes, only the bindings that read it are
/// evaluated again, and that must cost a small fraction of resolving the screen (target ≤ 0.05×).
///
/// The live screen's 10 000 components, with 2 000 bindings that all read `player` (the worst
/// case: every binding depends on the changed variable): each section's track row is selected
/// while it plays, and its label says so.
enum BindingInputs {
    nonisolated(unsafe) static var bindings: [BindingEngine.Key: String] = [:]
    nonisolated(unsafe) static var engine: BindingEngine!
    nonisolated(unsafe) static var sourceBytes = 0

    static func prepare() {
        guard engine == nil else { return }
        LiveScreenInputs.prepare()
        for index in 0..<LiveScreenInputs.sectionCount {
            bindings[BindingEngine.Key("track\(index)", .selected)] = "player.trackID == 't\(index)' && player.playing"
            bindings[BindingEngine.Key("label\(index)", .text)] = "player.trackID == 't\(index)' ? '▶ ${formatDuration(player.position)}' : '\(index)'"
        }
        sourceBytes = bindings.values.reduce(0) { $0 + $1.utf8.count }
        engine = BindingEngine(state: [:], bindings: bindings)
        precondition(engine.problems.isEmpty, "the benchmark's bindings must compile: \(engine.problems.prefix(2))")
    }

    static func player(_ track: Int, at position: Double) -> ExpressionValue {
        .record(["trackID": .string("t\(track)"), "playing": .bool(true), "position": .number(position), "title": .string("Track")])
    }

    /// Re-evaluation after one change against resolving the screen, and compiling per KB of
    /// source, measured in turns (medians) so both see the same machine load.
    static func printRatio(rounds: Int = 31) {
        let resolver = ViewTreeResolver()
        let clock = ContinuousClock()
        var resolves: [Duration] = []
        var changes: [Duration] = []
        var compiles: [Duration] = []
        var changed = 0
        for round in 0..<rounds {
            resolves.append(clock.measure { blackHole(resolver.resolve(LiveScreenInputs.after)) })
            var working = engine!
            changes.append(clock.measure { changed = (try? working.set("player", to: player(round, at: Double(round)))).map(\.count) ?? -1 })
            compiles.append(clock.measure { blackHole(BindingEngine(state: [:], bindings: bindings)) })
        }
        precondition(changed == 2, "one change of the playing track must change its two bindings, not \(changed)")
        func milliseconds(_ durations: [Duration]) -> Double {
            let median = durations.sorted()[durations.count / 2].components
            return Double(median.seconds) * 1_000 + Double(median.attoseconds) / 1e15
        }
        let resolve = milliseconds(resolves)
        let change = milliseconds(changes)
        let compile = milliseconds(compiles)
        print(
            String(
                format: "ViewTreeBenchmarks: 10 000 components, 2 000 bindings reading the changed variable: re-evaluation %.2f ms, "
                    + "resolve %.2f ms (medians of %d); re-evaluation / resolve = %.3f (target <= 0.05); compiling the bindings %.2f ms, "
                    + "%.3f ms per KB of source (%d bytes)",
                change, resolve, rounds, change / resolve, compile, compile / (Double(sourceBytes) / 1024), sourceBytes))
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

    let live = Benchmark.Configuration(setup: { LiveScreenInputs.prepare() })
    Benchmark("Resolve one 10 000-component screen into the view tree", configuration: live) { benchmark in
        let resolver = ViewTreeResolver()
        for _ in benchmark.scaledIterations {
            blackHole(resolver.resolve(LiveScreenInputs.after))
        }
    }

    let bound = Benchmark.Configuration(setup: {
        BindingInputs.prepare()
        BindingInputs.printRatio()
    })
    Benchmark("One variable change on a 10 000-component screen with 2 000 bindings that read it", configuration: bound) { benchmark in
        var engine = BindingInputs.engine!
        var track = 0
        for _ in benchmark.scaledIterations {
            track += 1
            blackHole(try engine.set("player", to: BindingInputs.player(track % 1_000, at: Double(track))))
        }
    }

    Benchmark("Compile 2 000 bindings", configuration: bound) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(BindingEngine(state: [:], bindings: BindingInputs.bindings))
        }
    }

    Benchmark("Diff of two 10 000-component screens with 1 % changed", configuration: live) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(ScreenDiff(from: LiveScreenInputs.beforeTree, to: LiveScreenInputs.afterTree))
        }
    }
}
