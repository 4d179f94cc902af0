import ScreenplayServer
import Synchronization

/// Rendered HTML pages by (page path, screen ETag), bounded by bytes: a page whose screen has not
/// changed is neither rebuilt, re-decoded nor re-rendered, and a browser revalidating it gets a
/// 304, as an app does for the screen's JSON.
///
/// The screen's ETag already names everything the page shows (the user's data included), so two
/// users whose screens are byte-identical share one rendered page.
final class PageCache: Sendable {
    /// The path, the screen's ETag, and a keyed hash of the screen's bytes: the ETag (FNV) is
    /// not collision resistant, and a page is shared across users, so the key also carries a
    /// SipHash with this process's random seed, which nobody can aim a crafted screen at.
    struct Key: Hashable, Sendable {
        let path: String
        let screenETag: String
        let screenDigest: Int

        init(path: String, screen: EncodedBody) {
            self.path = path
            self.screenETag = screen.etag
            var hasher = Hasher()
            hasher.combine(screen.bytes.count)
            screen.bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
            self.screenDigest = hasher.finalize()
        }
    }

    /// A rendered page: its HTML, ETag and gzip form (``EncodedBody``), made once when stored.
    typealias Page = EncodedBody

    private struct Entry {
        let page: Page
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    let byteBudget: Int

    init(byteBudget: Int = 16 << 20) { self.byteBudget = max(1, byteBudget) }

    func page(for key: Key) -> Page? {
        state.withLock { state in
            state.clock += 1
            guard var entry = state.entries[key] else { return nil }
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.page
        }
    }

    func store(_ page: Page, for key: Key) {
        guard page.storedSize <= byteBudget / 8 else { return }
        state.withLock { state in
            state.clock += 1
            if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.page.storedSize }
            state.entries[key] = Entry(page: page, lastUse: state.clock)
            state.bytes += page.storedSize
            guard state.bytes > byteBudget else { return }
            for (key, entry) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
                guard state.bytes > byteBudget * 3 / 4 else { break }
                state.entries[key] = nil
                state.bytes -= entry.page.storedSize
            }
        }
    }

    var count: Int { state.withLock { $0.entries.count } }
}
