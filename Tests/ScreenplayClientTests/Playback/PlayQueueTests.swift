import ScreenplayContract
import Testing

@testable import ScreenplayClient

@Suite("The play queue every player keeps")
struct PlayQueueTests {
    /// A deterministic generator (SplitMix64), so a shuffle's order is the same in every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func tracks(_ count: Int) -> [Action.Play.Track] {
        (0..<count).map { Action.Play.Track(id: "t\($0)", title: "Track \($0)", streamURL: "/media/\($0).wav") }
    }

    static func play(first: Int, shuffle: Bool = false) -> Action.Play {
        Action.Play(metadataURL: "/api/v6/queue", firstTrack: tracks(first + 1)[first], shuffle: shuffle)
    }

    @Test("in order: the queue from the action's first track, next and previous stop at the ends")
    func inOrder() throws {
        var generator = Seeded(state: 1)
        var queue = try #require(PlayQueue.loaded(Self.tracks(5), for: Self.play(first: 2), using: &generator))
        #expect(queue.current?.id == "t2")
        #expect(queue.upNext.map(\.id) == ["t3", "t4"])
        #expect(queue.hasPrevious && queue.hasNext)
        #expect(queue.step(by: 1)?.id == "t3")
        #expect(queue.step(by: 1)?.id == "t4")
        #expect(queue.step(by: 1) == nil, "past the end: nothing moves")
        #expect(queue.current?.id == "t4")
        #expect(queue.step(by: -4)?.id == "t0")
        #expect(queue.step(by: -1) == nil)
        #expect(!queue.hasPrevious)
    }

    @Test("a shuffle plays the first track first, then every other track once, in an order the seed decides")
    func shuffledStart() throws {
        var orders = Set<[String]>()
        for seed in UInt64(1)...20 {
            var generator = Seeded(state: seed)
            let queue = try #require(PlayQueue.loaded(Self.tracks(8), for: Self.play(first: 5, shuffle: true), using: &generator))
            #expect(queue.isShuffled)
            #expect(queue.current?.id == "t5")
            #expect(!queue.hasPrevious, "a shuffled start has nothing behind it")
            let rest = queue.upNext.map(\.id)
            #expect(Set(rest) == Set((0..<8).filter { $0 != 5 }.map { "t\($0)" }) && rest.count == 7, "every other track once")
            orders.insert(rest)
            // The same seed, the same order.
            var again = Seeded(state: seed)
            #expect(PlayQueue.loaded(Self.tracks(8), for: Self.play(first: 5, shuffle: true), using: &again)?.upNext.map(\.id) == rest)
        }
        #expect(orders.count > 15, "shuffles differ: \(orders.count) distinct of 20")
    }

    @Test("shuffle on keeps what played and the track playing; off goes back to the listed order from it")
    func toggle() throws {
        var generator = Seeded(state: 7)
        var queue = PlayQueue(tracks: Self.tracks(10), startingAt: "t0", shuffled: false, using: &generator)
        queue.step(by: 3)
        queue.setShuffled(true, using: &generator)
        #expect(queue.current?.id == "t3")
        #expect(queue.isShuffled)
        #expect(Set(queue.upNext.map(\.id)) == Set((4..<10).map { "t\($0)" }), "only what comes after is drawn again")
        #expect(queue.upNext.map(\.id) != (4..<10).map { "t\($0)" }, "and drawn in another order (this seed)")
        #expect(queue.step(by: -1)?.id == "t2", "what played is still behind")
        queue.step(by: 2)
        let playing = try #require(queue.current?.id)
        queue.setShuffled(false, using: &generator)
        #expect(queue.current?.id == playing)
        #expect(!queue.isShuffled)
        let index = try #require(Int(playing.dropFirst()))
        #expect(queue.upNext.map(\.id) == ((index + 1)..<10).map { "t\($0)" })
    }

    @Test("a row of the visible queue plays at once; the rows before it are skipped, not lost")
    func jump() {
        var queue = PlayQueue(tracks: Self.tracks(6), startingAt: "t1", shuffled: false)
        #expect(queue.jump(toUpNext: 2)?.id == "t4")
        #expect(queue.upNext.map(\.id) == ["t5"])
        #expect(queue.step(by: -1)?.id == "t3")
        #expect(queue.jump(toUpNext: 9) == nil, "a row past the end moves nothing")
        #expect(queue.jump(toUpNext: -1) == nil)
        #expect(queue.current?.id == "t3")
    }

    @Test("a loaded queue without the first track is not taken; a repeated track is kept; the size is bounded")
    func edges() throws {
        var generator = Seeded(state: 3)
        #expect(PlayQueue.loaded(Self.tracks(3), for: Self.play(first: 7), using: &generator) == nil)
        let started = PlayQueue(play: Self.play(first: 7))
        #expect(started.current?.id == "t7" && started.upNext.isEmpty)
        let twice = Self.tracks(2) + Self.tracks(2)
        let queue = try #require(PlayQueue.loaded(twice, for: Self.play(first: 1), using: &generator))
        #expect(queue.upNext.map(\.id) == ["t0", "t1"])
        let huge = PlayQueue(tracks: Self.tracks(PlayQueue.maximumTracks + 10), startingAt: "t3", shuffled: true)
        #expect(huge.tracks.count == PlayQueue.maximumTracks && huge.current?.id == "t3")
        var empty = PlayQueue(tracks: [], startingAt: nil, shuffled: true)
        #expect(empty.current == nil && empty.upNext.isEmpty && empty.step(by: 1) == nil)
        empty.setShuffled(false)
        #expect(empty.current == nil)
    }
}
