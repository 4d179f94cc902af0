import Foundation
@testable import ScreenplayAdmin
import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer
import Synchronization
import Testing

/// Pinned provider answers in the preview: remembered per session, page and widget; a pinned
/// widget is not asked again while its kind and parameters stay; memory is bounded.
@Suite("Preview pins")
struct PreviewPinsTests {
    /// A provider answering `{"type": kind, "n": call}` for every instance, counting its calls
    /// and which widgets it was asked for; it fails while `failing` is set.
    final class Counting: WidgetProvider, Sendable {
        let calls = Mutex<[[String]]>([])
        let failing = Atomic<Bool>(false)

        func fragments(for request: WidgetRequest) async throws -> WidgetResponse {
            let call = calls.withLock { calls in
                calls.append(request.instances.map(\.id))
                return calls.count
            }
            if failing.load(ordering: .relaxed) { throw CancellationError() }
            var fragments: [String: WidgetFragment] = [:]
            for instance in request.instances { fragments[instance.id] = .json(["type": .string(instance.kind), "n": .integer(call)]) }
            return WidgetResponse(fragments: fragments, entities: ["price/\(call)": ["price": .string("€\(call)")]])
        }
    }

    func request(_ instances: [WidgetInstance]) -> WidgetRequest {
        WidgetRequest(
            vertical: "v", instances: instances, context: CompositionContext(route: "shop", userID: nil, platform: .web, apiVersion: .latest),
            deadline: .now + .seconds(5))
    }

    let a = WidgetInstance(id: "a", kind: "banner", vertical: "v", parameters: ["slot": "top"])
    let b = WidgetInstance(id: "b", kind: "banner", vertical: "v", parameters: [:])

    @Test("a pinned widget keeps its answer and entities without asking; the others are asked; another session is not affected")
    func pinnedIsNotAsked() async throws {
        let base = Counting()
        let pins = PreviewPins()
        let provider = PinningProvider(base: base, pins: pins, session: "s1", route: "shop")
        _ = try await provider.fragments(for: request([a, b]))
        #expect(await pins.pin(.init(session: "s1", route: "shop", widget: "a")))
        #expect(await !pins.pin(.init(session: "s1", route: "shop", widget: "never-answered")))

        let second = try await provider.fragments(for: request([a, b]))
        #expect(second.fragments["a"] == .json(["type": "banner", "n": 1]), "the pinned answer, from the first call")
        #expect(second.fragments["b"] == .json(["type": "banner", "n": 2]))
        #expect(second.entities["price/1"] == ["price": "€1"], "the pinned answer's entities come with it")
        #expect(base.calls.withLock { $0 } == [["a", "b"], ["b"]], "the provider was not asked for the pinned widget")

        // Another admin's preview of the same page asks for everything.
        let other = PinningProvider(base: base, pins: pins, session: "s2", route: "shop")
        _ = try await other.fragments(for: request([a]))
        #expect(base.calls.withLock { $0.last } == ["a"])
    }

    @Test("a failing provider: the pinned widget still shows; with nothing pinned the failure is the provider's")
    func failingProvider() async throws {
        let base = Counting()
        let pins = PreviewPins()
        let provider = PinningProvider(base: base, pins: pins, session: "s", route: "shop")
        _ = try await provider.fragments(for: request([a, b]))
        _ = await pins.pin(.init(session: "s", route: "shop", widget: "a"))
        base.failing.store(true, ordering: .relaxed)
        let answer = try await provider.fragments(for: request([a, b]))
        #expect(answer.fragments.keys.sorted() == ["a"])
        await pins.unpin(session: "s", route: "shop", widget: nil)
        await #expect(throws: CancellationError.self) { try await provider.fragments(for: request([a, b])) }
    }

    @Test("an edited widget (other parameters or kind) asks again; unpinning one or all asks again")
    func editedOrUnpinnedAsksAgain() async throws {
        let base = Counting()
        let pins = PreviewPins()
        let provider = PinningProvider(base: base, pins: pins, session: "s", route: "shop")
        _ = try await provider.fragments(for: request([a, b]))
        _ = await pins.pin(.init(session: "s", route: "shop", widget: "a"))
        _ = await pins.pin(.init(session: "s", route: "shop", widget: "b"))
        var edited = a
        edited.parameters = ["slot": "bottom"]
        _ = try await provider.fragments(for: request([edited, b]))
        #expect(base.calls.withLock { $0.last } == ["a"])
        await pins.unpin(session: "s", route: "shop", widget: "b")
        _ = try await provider.fragments(for: request([a, b]))
        #expect(base.calls.withLock { $0.last } == ["b"], "a is pinned still (its parameters are the pinned ones again)")
        #expect(await pins.pins(session: "s", route: "shop").keys.sorted() == ["a"])
        await pins.unpin(session: "s", route: "shop", widget: nil)
        #expect(await pins.pins(session: "s", route: "shop").isEmpty)
    }

    @Test("memory is bounded: the oldest answers are forgotten first, and an answer over the size limit is not kept")
    func bounded() async throws {
        let pins = PreviewPins(capacity: 3, largestAnswer: 10)
        for (index, widget) in ["w1", "w2", "w3", "w4"].enumerated() {
            await pins.remember(
                .init(kind: "k", parameters: [:], fragment: .json([:]), entities: [:], at: Date(timeIntervalSince1970: Double(index))),
                for: .init(session: "s", route: "r", widget: widget))
        }
        #expect(await pins.lastAnswers(session: "s", route: "r").keys.sorted() == ["w2", "w3", "w4"])
        await pins.remember(
            .init(kind: "k", parameters: [:], fragment: .bytes(Array(repeating: 32, count: 11)), entities: [:], at: Date()),
            for: .init(session: "s", route: "r", widget: "big"))
        #expect(await pins.lastAnswers(session: "s", route: "r")["big"] == nil)
    }
}
