import Foundation
@testable import ScreenplayAdmin
import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer
import Synchronization
import Testing

/// Provider answers in the preview: kept per session, page and widget, so a widget is not asked
/// again while its kind and parameters stay, until fresh answers are asked for (pinned widgets
/// keep theirs through that too); memory is bounded.
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

    @Test("every widget keeps its first answer and entities without asking again; fresh answers ask again, except for pinned widgets; another session is not affected")
    func keptIsNotAsked() async throws {
        let base = Counting()
        let pins = PreviewPins()
        let provider = PinningProvider(base: base, pins: pins, session: "s1", route: "shop")
        _ = try await provider.fragments(for: request([a, b]))
        let second = try await provider.fragments(for: request([a, b]))
        #expect(second.fragments["a"] == .json(["type": "banner", "n": 1]), "the kept answer, from the first call")
        #expect(second.fragments["b"] == .json(["type": "banner", "n": 1]))
        #expect(second.entities["price/1"] == ["price": "€1"], "the kept answer's entities come with it")
        #expect(base.calls.withLock { $0 } == [["a", "b"]], "the provider was asked once")

        #expect(await pins.pin(.init(session: "s1", route: "shop", widget: "a")))
        #expect(await !pins.pin(.init(session: "s1", route: "shop", widget: "never-answered")))
        await pins.forgetAnswers(session: "s1", route: "shop")
        let fresh = try await provider.fragments(for: request([a, b]))
        #expect(base.calls.withLock { $0.last } == ["b"], "asked again for what is not pinned")
        #expect(fresh.fragments["a"] == .json(["type": "banner", "n": 1]), "the pin held")
        #expect(fresh.fragments["b"] == .json(["type": "banner", "n": 2]))
        _ = try await provider.fragments(for: request([a, b]))
        #expect(base.calls.withLock { $0.count } == 2, "the fresh answer is kept in turn")

        // Another admin's preview of the same page asks for everything.
        let other = PinningProvider(base: base, pins: pins, session: "s2", route: "shop")
        _ = try await other.fragments(for: request([a]))
        #expect(base.calls.withLock { $0.last } == ["a"])
    }

    @Test("a failing provider: kept and pinned widgets still show; a failure is never kept, so the next look asks again")
    func failingProvider() async throws {
        let base = Counting()
        let pins = PreviewPins()
        let provider = PinningProvider(base: base, pins: pins, session: "s", route: "shop")
        base.failing.store(true, ordering: .relaxed)
        await #expect(throws: CancellationError.self) { try await provider.fragments(for: request([a, b])) }
        base.failing.store(false, ordering: .relaxed)
        _ = try await provider.fragments(for: request([a, b]))
        #expect(base.calls.withLock { $0.count } == 2, "the failure was not kept: asked again")

        base.failing.store(true, ordering: .relaxed)
        let kept = try await provider.fragments(for: request([a, b]))
        #expect(kept.fragments.keys.sorted() == ["a", "b"], "kept answers need no provider")
        _ = await pins.pin(.init(session: "s", route: "shop", widget: "a"))
        await pins.forgetAnswers(session: "s", route: "shop")
        let answer = try await provider.fragments(for: request([a, b]))
        #expect(answer.fragments.keys.sorted() == ["a"], "the pinned widget shows; b's provider failed")
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
        _ = try await provider.fragments(for: request([a, b]))
        #expect(base.calls.withLock { $0.last } == ["a"], "unpinned, a asks again; b keeps its answer")
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
