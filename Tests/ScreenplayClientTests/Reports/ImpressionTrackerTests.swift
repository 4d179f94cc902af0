import Foundation
import ScreenplayClient
import ScreenplayContract
import Testing

/// When a keyed component counts as seen: half of it on screen for a second without a break,
/// once per screen view.
@Suite("Impression tracker")
struct ImpressionTrackerTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("half visible for one second is due once, at that second")
    func halfVisibleForASecond() {
        var tracker = ImpressionTracker()
        #expect(tracker.update(key: "shop/offer:12", visibleFraction: 0.5, at: start) == [])
        #expect(tracker.nextDue == start + 1)
        #expect(tracker.tick(at: start + 0.5) == [])
        #expect(tracker.update(key: "shop/offer:12", visibleFraction: 0.7, at: start + 0.75) == [], "still the same second")
        #expect(tracker.tick(at: start + 1) == ["shop/offer:12"])
        #expect(tracker.tick(at: start + 2) == [])
        #expect(tracker.update(key: "shop/offer:12", visibleFraction: 1, at: start + 3) == [])
        #expect(tracker.nextDue == nil)
    }

    @Test("0.9 s, then hidden, then one second again: due once, a second after it came back")
    func breakRestartsTheSecond() {
        var tracker = ImpressionTracker()
        _ = tracker.update(key: "row", visibleFraction: 0.6, at: start)
        #expect(tracker.tick(at: start + 0.9) == [])
        #expect(tracker.update(key: "row", visibleFraction: 0.2, at: start + 0.9) == [])
        #expect(tracker.tick(at: start + 1.5) == [], "hidden: its 0.9 s are gone")
        #expect(tracker.update(key: "row", visibleFraction: 0.8, at: start + 2) == [])
        // Counted together, 0.9 s + 0.1 s would be a second at 2.1 s.
        #expect(tracker.tick(at: start + 2.5) == [])
        #expect(tracker.tick(at: start + 2.999) == [])
        #expect(tracker.tick(at: start + 3) == ["row"])
        #expect(tracker.tick(at: start + 10) == [])
    }

    @Test("below half visible is never due, however long")
    func belowHalfNever() {
        var tracker = ImpressionTracker()
        #expect(tracker.update(key: "banner", visibleFraction: 0.49, at: start) == [])
        #expect(tracker.nextDue == nil)
        #expect(tracker.tick(at: start + 60) == [])
        #expect(tracker.update(key: "banner", visibleFraction: .nan, at: start + 61) == [])
        #expect(tracker.tick(at: start + 120) == [])
    }

    @Test("once per screen view: scrolled away and back, it is not due again")
    func oncePerView() {
        var tracker = ImpressionTracker()
        _ = tracker.update(key: "card", visibleFraction: 1, at: start)
        #expect(tracker.tick(at: start + 1) == ["card"])
        #expect(tracker.hasReported("card"))
        _ = tracker.update(key: "card", visibleFraction: 0, at: start + 2)
        _ = tracker.update(key: "card", visibleFraction: 1, at: start + 3)
        #expect(tracker.nextDue == nil)
        #expect(tracker.tick(at: start + 10) == [])
    }

    @Test("reset starts a new screen view: the same component is due again")
    func resetStartsAView() {
        var tracker = ImpressionTracker()
        _ = tracker.update(key: "card", visibleFraction: 1, at: start)
        _ = tracker.update(key: "other", visibleFraction: 1, at: start + 0.5)
        #expect(tracker.tick(at: start + 1) == ["card"])
        tracker.reset()
        #expect(!tracker.hasReported("card"))
        #expect(tracker.tick(at: start + 5) == [], "reset forgets what was visible too: 'other' must be seen again")
        _ = tracker.update(key: "card", visibleFraction: 1, at: start + 6)
        #expect(tracker.tick(at: start + 7) == ["card"])
    }

    @Test("several components: each on its own second, returned oldest first by an update too")
    func severalKeys() {
        var tracker = ImpressionTracker()
        _ = tracker.update(key: "b", visibleFraction: 1, at: start)
        _ = tracker.update(key: "a", visibleFraction: 1, at: start + 0.25)
        #expect(tracker.nextDue == start + 1)
        #expect(tracker.update(key: "c", visibleFraction: 0.9, at: start + 1.5) == ["b", "a"], "an update returns the others due too")
        #expect(tracker.nextDue == start + 2.5)
        #expect(tracker.tick(at: start + 2) == [])
        #expect(tracker.tick(at: start + 2.5) == ["c"])
    }
}
