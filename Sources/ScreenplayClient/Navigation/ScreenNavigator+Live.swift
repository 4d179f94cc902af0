import Foundation
import ScreenplayContract

/// Live screens (v5): the navigator follows, on the server's event stream, the screens of its
/// stack that ask for it, and polls those that ask for an interval; only while they are on the
/// stack and the app is in the foreground. A change is applied the way a pull to refresh is: a
/// revalidation with `If-None-Match` (a 304 changes nothing), the screen shown until the answer.
extension ScreenNavigator {
    /// The app went to the background: the stream closes and the timers stop (the server's count
    /// of streams drops); nothing is revalidated until ``enterForeground()``.
    public func enterBackground() {
        isInBackground = true
        updateLive()
    }

    /// The app is in the foreground again: the stream reopens where it left off (a missed event
    /// makes the server ask for a revalidation) and the timers restart.
    public func enterForeground() {
        isInBackground = false
        updateLive()
    }

    /// The app is offline (`true`) or back online: offline, screens come from their offline
    /// copies (shown as such), commands are refused with an "offline" error and nothing is
    /// followed; back online, the copies on the stack are revalidated, a top screen that had no
    /// copy is loaded, and live screens are followed again.
    public func setOffline(_ offline: Bool) async {
        await loader.setOffline(offline)
        isOffline = offline
        updateLive()
        guard !offline else { return }
        let copies = machine.entries.filter { entry in
            if case .loaded(let loaded) = entry.state { return loaded.isOffline }
            return false
        }
        revalidate(Set(copies.map(\.url)))
        // A screen that could not be shown offline (no copy) loads now.
        if case .failed(_, let error)? = machine.entries.last?.state, error.kind == .offline { await retry() }
    }

    /// What the navigator keeps current now; for renderers that show it and for tests.
    public var watching: LiveWatch { liveWatch }

    /// Brings the stream and the timers in line with the stack (called on every change).
    ///
    /// The tasks hold the navigator weakly between events: a navigator the app lets go stops
    /// following (its `deinit` cancels them), even with a stream open.
    func updateLive() {
        let wanted = isInBackground || isOffline ? LiveWatch.none : LiveWatch.of(machine.entries)
        guard wanted != liveWatch else { return }
        let before = liveWatch
        liveWatch = wanted
        if wanted.streamEntries != before.streamEntries {
            streamTask?.cancel()
            streamTask = nil
            if !wanted.streamEntries.isEmpty, loader.canFollowEvents {
                let navigator = WeakNavigator(self)
                streamTask = Task { [loader] in await Self.follow(wanted.streamEntries, navigator: navigator, loader: loader) }
            }
        }
        if wanted.intervals != before.intervals {
            pollTask?.cancel()
            pollTask = nil
            if !wanted.intervals.isEmpty {
                let navigator = WeakNavigator(self)
                pollTask = Task { await Self.poll(wanted.intervals, navigator: navigator) }
            }
        }
    }

    /// Keeps one stream open for `entries` until cancelled (or the navigator is gone): reconnects
    /// after the server's `retry` when it ends, after `Retry-After` when refused, with doubling
    /// backoff (to a minute) after failures; resumes with the last event id.
    private static func follow(_ entries: [String], navigator weak: WeakNavigator, loader: ScreenLoader) async {
        var navigator: ScreenNavigator? { weak.navigator }
        var failures = 0
        while !Task.isCancelled, let lastEventID = await navigator?.lastEventID {
            var wait = Duration.seconds(2)
            do {
                let body = try await loader.openEvents(watching: entries, lastEventID: lastEventID)
                await navigator?.streamOpened()
                failures = 0
                var parser = EventStreamParser(lastEventID: lastEventID)
                do {
                    for try await chunk in body {
                        let events = try parser.feed(chunk)
                        guard let navigator else { return }
                        await navigator.hear(events, watching: entries, lastEventID: parser.lastEventID)
                    }
                } catch let overflow as EventStreamParser.Overflow {
                    await navigator?.record([DecodingIssue(kind: .invalidElement, path: "events", message: "\(overflow); reconnecting")])
                }
                if let retry = parser.retry { wait = .milliseconds(max(retry, 500)) }
            } catch let refusal as ScreenLoader.EventStreamRefusal {
                failures += 1
                wait = refusal.retryAfter.map { .seconds(min(max($0, 1), 3_600)) } ?? backoff(after: failures)
            } catch {
                failures += 1
                wait = backoff(after: failures)
            }
            guard !Task.isCancelled else { return }
            try? await Task.sleep(for: wait)
        }
    }

    private func streamOpened() { streamsOpened += 1 }

    /// 1, 2, 4 … seconds, at most a minute.
    static func backoff(after failures: Int) -> Duration { .seconds(min(60, 1 << min(max(failures - 1, 0), 6))) }

    /// Revalidates the screens at `intervals`' URLs, each every so many seconds, until cancelled.
    private static func poll(_ intervals: [String: Int], navigator weak: WeakNavigator) async {
        await withTaskGroup(of: Void.self) { group in
            for (url, seconds) in intervals {
                group.addTask {
                    while true {
                        do { try await Task.sleep(for: .seconds(seconds)) } catch { return }
                        guard let navigator = weak.navigator else { return }
                        await navigator.revalidate([url])
                    }
                }
            }
        }
    }

    /// Events of the stream, in order; `lastEventID` is where a reconnection resumes.
    func hear(_ events: [StreamEvent], watching entries: [String], lastEventID: String) {
        self.lastEventID = lastEventID
        for event in events { hear(event, watching: entries) }
    }

    /// One event of the stream. What cannot be read, or names a screen this stream does not
    /// watch, is logged with where it was and changes nothing.
    func hear(_ event: StreamEvent, watching entries: [String]) {
        func issue(_ message: String) {
            record([DecodingIssue(kind: .invalidElement, path: "events.\(event.type)", message: message)])
        }
        let data = try? JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any]
        switch event.type {
        case "ready":
            guard let screens = data?["screens"] as? [String: Any] else { return issue("a ready event without its screens") }
            var stale: Set<String> = []
            for (entry, etag) in screens {
                guard entries.contains(entry) else {
                    issue("an event for '\(entry.prefix(100))', which this stream does not watch")
                    continue
                }
                // A screen that failed to build has no ETag yet: it is announced once it builds.
                if let etag = etag as? String, isStale(entry, etag) { stale.insert(LiveWatch.url(forStreamEntry: entry)) }
            }
            revalidate(stale)
        case "screen":
            guard let entry = data?["path"] as? String, let etag = data?["etag"] as? String else {
                return issue("a screen event without its path and ETag")
            }
            guard entries.contains(entry) else { return issue("an event for '\(entry.prefix(100))', which this stream does not watch") }
            guard isStale(entry, etag) else { return }
            let url = LiveWatch.url(forStreamEntry: entry)
            // A patch from the version shown is applied by the load instead of a request; the load
            // fetches the screen whole when it does not give exactly `etag`.
            if data?["patch"] != nil, let patched = try? JSONDecoder().decode(PatchedScreenEvent.self, from: Data(event.data.utf8)) {
                let loader = self.loader
                Task {
                    await loader.offer(patch: patched.patch, from: patched.from, to: etag, for: url)
                    self.revalidate([url])
                }
            } else {
                revalidate([url])
            }
        case "revalidate":
            let named = (data?["screens"] as? [String])?.filter(entries.contains) ?? entries
            revalidate(Set(named.map(LiveWatch.url(forStreamEntry:))))
        case "end", "message":
            break
        default:
            issue("an event of a kind this app does not know, '\(event.type.prefix(40))', was ignored")
        }
    }

    /// Whether a screen on the stack at `entry` shows something other than `etag`.
    private func isStale(_ entry: String, _ etag: String) -> Bool {
        let url = LiveWatch.url(forStreamEntry: entry)
        return machine.entries.contains { candidate in
            guard candidate.url == url, case .loaded(let loaded) = candidate.state else { return false }
            return loaded.etag != etag
        }
    }

    /// Revalidates the loaded screens at `urls` in the background.
    func revalidate(_ urls: Set<String>) {
        guard !urls.isEmpty else { return }
        let effect = machine.revalidate(urls)
        Task { await self.carryOut(effect) }
    }
}

/// A `screen` event's data when it carries a patch.
struct PatchedScreenEvent: Decodable {
    let from: String
    let patch: JSONValue
}

/// The navigator, held weakly by the tasks that keep its screens live.
struct WeakNavigator: Sendable {
    weak var navigator: ScreenNavigator?
    init(_ navigator: ScreenNavigator) { self.navigator = navigator }
}
