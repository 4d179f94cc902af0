import ScreenplayServer
import Synchronization

/// Audio streams in flight: a few per client address, and a bound for the whole process.
///
/// A browser needs one or two streams (the track playing, a seek); more from one address is
/// someone making the server synthesize audio nobody listens to, and is refused with `429`. The
/// bound for the process (`503`) keeps the queue of the render threads (``AudioRenderThreads``)
/// short: each stream waits for at most one chunk at a time, so the queue never holds more than
/// ``total`` renders, and a new listener learns at once that the server is full rather than
/// getting audio slower than it plays.
final class AudioStreamSlots: Sendable {
    /// Streams one address may have open.
    let perAddress: Int
    /// Streams open at once in all.
    let total: Int
    private let open = Mutex<(total: Int, byAddress: [String: Int])>((total: 0, byAddress: [:]))

    /// Slots for `perAddress` streams an address and `total` in all.
    init(perAddress: Int = 6, total: Int = 64) {
        self.perAddress = max(1, perAddress)
        self.total = max(1, total)
    }

    /// A stream's place, given back by ``release()`` when the stream ends, or when the slot is
    /// dropped: a response whose body was never written (its client gone before its head was
    /// sent) must not hold its place forever.
    final class Slot: Sendable {
        private let slots: AudioStreamSlots
        private let key: String
        private let held = Atomic(true)

        fileprivate init(slots: AudioStreamSlots, key: String) {
            self.slots = slots
            self.key = key
        }

        /// Gives the place back (once; later calls do nothing).
        func release() {
            if held.exchange(false, ordering: .acquiringAndReleasing) { slots.end(key) }
        }

        deinit { release() }
    }

    /// Takes a slot for `address` (clients whose address is unknown count as one), or throws the
    /// refusal to answer with (both with `Retry-After`).
    func take(_ address: String?) throws(ScreenplayError) -> Slot {
        try begin(address)
        return Slot(slots: self, key: address ?? "")
    }

    private func begin(_ address: String?) throws(ScreenplayError) {
        let key = address ?? ""
        let refusal = open.withLock { open -> ScreenplayError? in
            guard open.byAddress[key, default: 0] < perAddress else {
                return .tooManyRequests(
                    "this address has \(perAddress) audio streams open, the most one client may; close one first", retryAfter: 1)
            }
            guard open.total < total else {
                return .unavailable(code: "audioBusy", "the server is streaming \(total) tracks, the most it does at once", retryAfter: 1)
            }
            open.byAddress[key, default: 0] += 1
            open.total += 1
            return nil
        }
        if let refusal { throw refusal }
    }

    /// Streams open now.
    var openStreams: Int { open.withLock { $0.total } }

    private func end(_ key: String) {
        open.withLock { open in
            guard let count = open.byAddress[key] else { return }
            open.byAddress[key] = count > 1 ? count - 1 : nil
            open.total -= 1
        }
    }
}
