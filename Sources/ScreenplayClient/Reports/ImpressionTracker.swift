public import Foundation
import ScreenplayContract

/// Decides when a component that carries a report key (``ComponentReports/visible``) counts as
/// seen, by ``ImpressionRule``: at least ``ImpressionRule/visibleFraction`` of it on screen for
/// ``ImpressionRule/visibleSeconds`` without a break. Each key is due at most once per screen view.
///
/// It is a value with no clock and no timer of its own, so SwiftUI's geometry, a native
/// renderer's scroll callbacks and a test all drive it the same way: a renderer calls
/// ``update(key:visibleFraction:at:)`` whenever a keyed component's visible share changes, and
/// ``tick(at:)`` when ``nextDue`` comes (one timer for the whole screen, not one per component).
/// Whatever either returns is what to hand to ``EventReporter/record(_:key:screen:)`` as
/// `.visible`.
///
/// One tracker is one screen view: showing the screen again (navigating back to it, a new
/// visit) starts a new tracker or calls ``reset()``, so the same banner seen on two visits counts
/// twice, as an impression should, but scrolling it in and out on one visit counts once.
public struct ImpressionTracker: Sendable, Hashable {
    /// Keys now visible enough, each with when it last became so. A key that drops below the
    /// fraction leaves, which is what restarts its second.
    private var visibleSince: [String: Date] = [:]
    /// Keys already due in this screen view: never due again until ``reset()``.
    private var reported: Set<String> = []

    /// A tracker for a new screen view, with nothing seen yet.
    public init() {}

    /// Notes that the component reporting `key` is `visibleFraction` (0…1) on screen at `now`,
    /// and returns every key due at `now` (this one or others whose second has run out), oldest
    /// first, each once per screen view.
    ///
    /// A fraction below the rule's (or not a number) restarts the key's timer; reporting the
    /// same visible fraction again does not. A component that leaves the screen or the tree is
    /// reported with `0`.
    public mutating func update(key: String, visibleFraction: Double, at now: Date) -> [String] {
        if !reported.contains(key) {
            if visibleFraction >= ImpressionRule.visibleFraction {
                if visibleSince[key] == nil { visibleSince[key] = now }
            } else {
                visibleSince[key] = nil
            }
        }
        return tick(at: now)
    }

    /// Returns the keys whose components have been visible enough long enough at `now`, oldest
    /// first, and marks them reported for this screen view. Call it when ``nextDue`` comes: a
    /// component that never moves sends no more updates, yet still becomes due.
    public mutating func tick(at now: Date) -> [String] {
        // Compared as `since + seconds <= now` rather than `now - since >= seconds`: a renderer
        // that schedules its tick at exactly ``nextDue`` gets the same sum, so no rounding error
        // leaves a key waiting for one more tick.
        let due = visibleSince.filter { $0.value.addingTimeInterval(ImpressionRule.visibleSeconds) <= now }
            .sorted { ($0.value, $0.key) < ($1.value, $1.key) }
            .map(\.key)
        for key in due {
            visibleSince[key] = nil
            reported.insert(key)
        }
        return due
    }

    /// When the next key becomes due if nothing changes: when a renderer should call
    /// ``tick(at:)``. `nil` when no keyed component is visible enough.
    public var nextDue: Date? {
        visibleSince.values.min()?.addingTimeInterval(ImpressionRule.visibleSeconds)
    }

    /// Whether `key` was already due in this screen view.
    public func hasReported(_ key: String) -> Bool { reported.contains(key) }

    /// Starts a new screen view: nothing visible, nothing reported. For a renderer that keeps its
    /// tracker across visits of the same screen.
    public mutating func reset() {
        visibleSince = [:]
        reported = []
    }
}
