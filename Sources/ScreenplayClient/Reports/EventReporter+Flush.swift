import Foundation
import HTTPTypes
import ScreenplayContract

/// Sending the queue: batches, the answers they get, and the waits after failures.
///
/// What each answer means for the batch:
/// - 2xx: the server has it (stored, already held, or refused one by one, each refusal counted
///   in ``EventReporter/Statistics/refused``): removed. The next batch follows.
/// - 400, 413, 415, 422: the batch itself cannot be read and never will be: removed, counted in
///   ``EventReporter/Statistics/discarded``. The next batch follows.
/// - 401: the token is unknown (the user was deleted, another server): it is not sent again,
///   everything is kept, and the next flush goes without it (and is given a new identity).
/// - 429, 5xx, any other status, no answer: everything is kept and the flush stops, with a wait
///   (`Retry-After`, else ``ReportFlushPolicy/backoff(afterFailures:)``). A status this client
///   does not expect (a 404 from a server without reports) waits too: keeping events is safe,
///   the queue is bounded, and a server updated later gets them.
extension EventReporter {
    /// Sends the queued events, oldest first, in batches of at most
    /// ``ClientEvent/Limits/eventsPerBatch``, until the queue is empty or an answer says to stop.
    ///
    /// One flush runs at a time: a call while one is running waits for it and returns its
    /// result (events recorded meanwhile go with the next flush, or with this one if it has not
    /// reached the end of the queue). Before ``retryNotBefore``, or while the loader is offline,
    /// nothing is sent.
    public func flush() async -> FlushResult {
        if let running { return await running.value }
        let task = Task { await self.sendQueue() }
        running = task
        return await task.value
    }

    /// The body of ``flush()``, run once at a time.
    private func sendQueue() async -> FlushResult {
        defer { running = nil }
        var result = FlushResult(sent: 0, kept: queue.count, discarded: 0, retryAt: nil)
        if let retryNotBefore, now() < retryNotBefore {
            result.retryAt = retryNotBefore
            return result
        }
        guard await !loader.isOffline else { return result }
        var changed = false
        // Bounded, so a queue refilled as fast as it is sent cannot keep one flush going.
        batches: for _ in 0...(ClientEvent.Limits.queuedEvents / ClientEvent.Limits.eventsPerBatch) {
            let batch = Array(queue.prefix(ClientEvent.Limits.eventsPerBatch))
            guard !batch.isEmpty else { break }
            switch await send(batch) {
            case .accepted(let refused):
                remove(batch)
                changed = true
                result.sent += batch.count
                statistics.sent += batch.count
                statistics.refused += refused
                failures = 0
                retryNotBefore = nil
            case .unreadable:
                remove(batch)
                changed = true
                result.discarded += batch.count
                statistics.discarded += batch.count
            case .tokenRefused(let token):
                refusedToken = token
                break batches
            case .later(let retryAfter):
                failures += 1
                let wait = retryAfter ?? ReportFlushPolicy.backoff(afterFailures: failures)
                retryNotBefore = now().addingTimeInterval(wait)
                result.retryAt = retryNotBefore
                break batches
            }
        }
        // Saved once at the end: should the app die mid-flush, the batches already sent go
        // again, and their ids make that harmless.
        if changed { await save() }
        result.kept = queue.count
        return result
    }

    /// What one batch's answer means.
    private enum BatchOutcome {
        /// The server has the batch; `refused` of its events were refused at their paths.
        case accepted(refused: Int)
        /// The batch can never be read: drop it.
        case unreadable
        /// `token` is unknown to the server.
        case tokenRefused(String)
        /// Try again later: after `retryAfter` seconds when the server said, else the backoff.
        case later(retryAfter: TimeInterval?)
    }

    /// Statuses that mean the batch itself cannot be read, however often it is sent.
    private static let unreadableStatuses: Set<Int> = [400, 413, 415, 422]

    /// Sends `batch` and says what its answer means.
    private func send(_ batch: [ClientEvent]) async -> BatchOutcome {
        let body: [UInt8]
        do {
            body = Array(try JSONEncoder().encode(ClientEventBatch(events: batch)))
        } catch {
            // Events are strings and dates and always encode; were one not to, no resend would help.
            return .unreadable
        }
        let (response, responseBody): (HTTPResponse, [UInt8])
        let sentToken: String?
        do {
            var request = try await loader.makeRequest(.post, url: reportsURL)
            request.headerFields[.contentType] = "application/json"
            sentToken = Self.bearerToken(in: request).flatMap { $0 == refusedToken ? nil : $0 }
            // The bearer the loader set, as every route reads it; none once the server refused it.
            if sentToken == nil { request.headerFields[.authorization] = nil }
            (response, responseBody) = try await loader.send(request, body: body)
        } catch {
            return .later(retryAfter: nil)
        }
        let status = response.status.code
        if response.status.kind == .successful {
            let receipt = try? JSONDecoder().decode(ClientEventReceipt.self, from: Data(responseBody))
            return .accepted(refused: receipt?.refused.count ?? 0)
        }
        if Self.unreadableStatuses.contains(status) { return .unreadable }
        // Without a token sent, a 401 says nothing about one: it waits like any failure.
        if status == 401, let sentToken { return .tokenRefused(sentToken) }
        let retryAfter = response.headerFields[.retryAfter].flatMap { ReportFlushPolicy.retryAfter($0, now: now()) }
        return .later(retryAfter: retryAfter)
    }

    /// Removes `batch`'s events by id: events recorded while it was on its way may have pushed
    /// some of it out of a full queue already.
    private func remove(_ batch: [ClientEvent]) {
        let ids = Set(batch.map(\.id))
        queue.removeAll { ids.contains($0.id) }
    }

    /// The token the loader put in `request`'s `Authorization: Bearer`.
    private static func bearerToken(in request: HTTPRequest) -> String? {
        guard let authorization = request.headerFields[.authorization], authorization.hasPrefix("Bearer ") else { return nil }
        return String(authorization.dropFirst("Bearer ".count))
    }
}
