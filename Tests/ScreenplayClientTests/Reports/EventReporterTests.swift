import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayContract
import Testing

/// The reporter: a bounded queue kept across restarts, sent in batches oldest first, each batch
/// removed only when the server has it or can never read it, and waits after failures.
@Suite("Event reporter")
struct EventReporterTests {
    static let path = "/api/v6/reports"
    static let endpoint = ServerEndpoint(root: URL(string: "http://127.0.0.1:8080")!)
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A reporter on a fake server, with a clock the test moves.
    struct Fixture {
        let transport = FakeTransport()
        let clock = Shared(EventReporterTests.start)
        let tokens: InMemoryTokenStore
        let storage: any ReportQueueStorage

        init(token: String? = nil, storage: any ReportQueueStorage = InMemoryReportQueue()) {
            tokens = InMemoryTokenStore(token: token)
            self.storage = storage
        }

        func reporter() async -> EventReporter {
            let clock = clock
            return await EventReporter(
                endpoint: EventReporterTests.endpoint, transport: transport, tokens: tokens, storage: storage, now: { clock.value })
        }

        func advance(_ seconds: TimeInterval) { clock.update { $0 += seconds } }

        /// The ids of each batch sent, in order.
        var batches: [[String]] {
            get throws {
                try transport.requests(to: EventReporterTests.path).map {
                    try JSONDecoder().decode(ClientEventBatch.self, from: Data($0.body ?? [])).events.map(\.id)
                }
            }
        }
    }

    static func receipt(stored: Int, refused: [ClientEventBatch.Refusal] = [], token: String? = nil) -> FakeResponse {
        .json(ClientEventReceipt(stored: stored, repeated: 0, refused: refused), token: token)
    }

    /// Records `count` impressions (`k0`, `k1`, …) and returns their ids in order.
    static func record(_ count: Int, on reporter: EventReporter) async -> [String] {
        var ids: [String] = []
        for index in 0..<count { ids.append(await reporter.record(.visible, key: "k\(index)", screen: "screens/home").id) }
        return ids
    }

    @Test("250 events go as 100, 100 and 50, oldest first, and leave the queue")
    func batches() async throws {
        let fixture = Fixture()
        fixture.transport.on(.post, Self.path, Self.receipt(stored: 100), Self.receipt(stored: 100), Self.receipt(stored: 50))
        let reporter = await fixture.reporter()
        let ids = await Self.record(250, on: reporter)
        let result = await reporter.flush()
        #expect(result == EventReporter.FlushResult(sent: 250, kept: 0, discarded: 0, retryAt: nil))
        let batches = try fixture.batches
        #expect(batches.map(\.count) == [100, 100, 50])
        #expect(batches.flatMap { $0 } == ids)
        #expect(await reporter.queued.isEmpty)
        #expect(await reporter.statistics.sent == 250)
        #expect(await (fixture.storage as? InMemoryReportQueue)?.events == [], "the emptied queue was saved")
    }

    @Test("a 503 keeps everything until its Retry-After; the next flush sends the same ids")
    func unavailableKeepsEverything() async throws {
        let fixture = Fixture()
        var unavailable = FakeResponse.error(.serviceUnavailable, code: "unavailable", message: "busy")
        unavailable.headers[.retryAfter] = "30"
        fixture.transport.on(.post, Self.path, unavailable, Self.receipt(stored: 100), Self.receipt(stored: 20))
        let reporter = await fixture.reporter()
        let ids = await Self.record(120, on: reporter)

        let first = await reporter.flush()
        #expect(first == EventReporter.FlushResult(sent: 0, kept: 120, discarded: 0, retryAt: Self.start + 30))
        #expect(await reporter.queued.map(\.id) == ids)
        #expect(await reporter.nextFlush() == Self.start + 30)

        fixture.advance(29)
        let early = await reporter.flush()
        #expect(early.sent == 0 && early.retryAt == Self.start + 30)
        #expect(fixture.transport.requests(to: Self.path).count == 1, "nothing is sent before Retry-After")

        fixture.advance(1)
        let second = await reporter.flush()
        #expect(second == EventReporter.FlushResult(sent: 120, kept: 0, discarded: 0, retryAt: nil))
        let batches = try fixture.batches
        #expect(batches.count == 3)
        #expect(batches[0] == Array(ids.prefix(100)))
        #expect(batches[1] + batches[2] == ids, "the same events, with the same ids")
    }

    @Test("without Retry-After, failures back off from 5 s, doubling; no answer at all is a failure too")
    func backoff() async throws {
        let fixture = Fixture()
        fixture.transport.on(
            .post, Self.path,
            replies: [
                .respond(.error(.internalServerError, code: "internal", message: "oops")), .fail,
                .respond(.error(.tooManyRequests, code: "slow", message: "slow down")), .respond(Self.receipt(stored: 1)),
            ])
        let reporter = await fixture.reporter()
        let ids = await Self.record(1, on: reporter)
        #expect(await reporter.flush().retryAt == Self.start + 5)
        fixture.advance(5)
        #expect(await reporter.flush().retryAt == Self.start + 15)
        fixture.advance(10)
        #expect(await reporter.flush().retryAt == Self.start + 35)
        fixture.advance(20)
        #expect(await reporter.flush().sent == 1)
        #expect(try fixture.batches == [ids, ids, ids, ids])
        #expect(await reporter.retryNotBefore == nil, "a success ends the backoff")
    }

    @Test("a 422 drops that batch, counted as discarded, and the next batch still goes")
    func unreadableBatchIsDiscarded() async throws {
        let fixture = Fixture()
        fixture.transport.on(
            .post, Self.path, .error(.unprocessableContent, code: "invalid", message: "no"), Self.receipt(stored: 50))
        let reporter = await fixture.reporter()
        let ids = await Self.record(150, on: reporter)
        let result = await reporter.flush()
        #expect(result == EventReporter.FlushResult(sent: 50, kept: 0, discarded: 100, retryAt: nil))
        #expect(try fixture.batches == [Array(ids.prefix(100)), Array(ids.suffix(50))])
        #expect(await reporter.statistics.discarded == 100)
        #expect(await reporter.queued.isEmpty)
    }

    @Test("events refused one by one are gone with their batch, and counted")
    func refusalsAreCounted() async throws {
        let fixture = Fixture()
        let refusal = ClientEventBatch.Refusal(path: "$.events[1].key", reason: "must be 1 to 128 of A-Z a-z 0-9 . _ : / ~ -")
        fixture.transport.on(.post, Self.path, Self.receipt(stored: 2, refused: [refusal]))
        let reporter = await fixture.reporter()
        _ = await Self.record(3, on: reporter)
        #expect(await reporter.flush().sent == 3)
        let statistics = await reporter.statistics
        #expect(statistics.refused == 1)
        #expect(statistics.sent == 3)
        #expect(await reporter.queued.isEmpty)
    }

    @Test("the queue is bounded: past 1 000 events the oldest go, counted as dropped")
    func boundedQueue() async throws {
        let fixture = Fixture()
        let reporter = await fixture.reporter()
        let ids = await Self.record(ClientEvent.Limits.queuedEvents + 5, on: reporter)
        let queued = await reporter.queued.map(\.id)
        #expect(queued.count == ClientEvent.Limits.queuedEvents)
        #expect(queued == Array(ids.dropFirst(5)))
        #expect(await reporter.statistics.dropped == 5)
        #expect(await reporter.statistics.recorded == ClientEvent.Limits.queuedEvents + 5)
    }

    @Test("each event has its own id, its kind, key, screen and the clock's time")
    func recordedEvent() async throws {
        let fixture = Fixture()
        let reporter = await fixture.reporter()
        fixture.advance(12.5)
        let played = await reporter.record(.played, key: "track:7")
        let seen = await reporter.record(.visible, key: "shop/offer:12", screen: "screens/shop")
        #expect(played.kind == .played && played.key == "track:7" && played.screen == nil && played.at == Self.start + 12.5)
        #expect(seen.kind == .visible && seen.screen == "screens/shop")
        #expect(played.id != seen.id)
        #expect(UUID(uuidString: played.id) != nil)
    }

    @Test("a restart keeps the queue: recorded, reporter recreated from the same file, sent")
    func survivesRestart() async throws {
        try await FileReportQueueTests.withFolder { folder in
            let file = folder.appendingPathComponent("reports.json")
            let first = Fixture(storage: FileReportQueue(file: file))
            let before = await first.reporter()
            let ids = await Self.record(3, on: before)
            #expect(first.transport.requests.isEmpty)

            let second = Fixture(storage: FileReportQueue(file: file))
            second.transport.on(.post, Self.path, Self.receipt(stored: 3))
            let after = await second.reporter()
            #expect(await after.queued.map(\.id) == ids)
            #expect(await after.flush().sent == 3)
            let batches = try second.batches
            #expect(batches == [ids])
            #expect(await FileReportQueue(file: file).load() == [], "what was sent is gone from the file")
        }
    }

    @Test("a damaged file starts an empty queue, and the reporter works on")
    func damagedFile() async throws {
        try await FileReportQueueTests.withFolder { folder in
            let file = folder.appendingPathComponent("reports.json")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("{\"format\": \"screenplay-reports 1\", \"events\": [{\"id\": ".utf8).write(to: file)
            let storage = FileReportQueue(file: file)
            let fixture = Fixture(storage: storage)
            fixture.transport.on(.post, Self.path, Self.receipt(stored: 1))
            let reporter = await fixture.reporter()
            #expect(await reporter.queued.isEmpty)
            #expect(await storage.damage != nil)
            let ids = await Self.record(1, on: reporter)
            #expect(await FileReportQueue(file: file).load().map(\.id) == ids)
            #expect(await reporter.flush().sent == 1)
        }
    }

    @Test("the request: POST to /api/v6/reports, JSON, with the token as a bearer")
    func request() async throws {
        let fixture = Fixture(token: "tok-123")
        fixture.transport.on(.post, Self.path, Self.receipt(stored: 1))
        let reporter = await fixture.reporter()
        let event = await reporter.record(.visible, key: "shop/offer:12", screen: "screens/shop")
        _ = await reporter.flush()
        let sent = try #require(fixture.transport.requests.first)
        #expect(fixture.transport.requests.count == 1)
        #expect(sent.method == .post)
        #expect(sent.path == "/api/v6/reports")
        #expect(sent.request.authority == "127.0.0.1:8080")
        #expect(sent[.contentType] == "application/json")
        #expect(sent[.authorization] == "Bearer tok-123")
        #expect(try JSONDecoder().decode(ClientEventBatch.self, from: Data(sent.body ?? [])) == ClientEventBatch(events: [event]))
        let json = try sent.json()
        #expect(json["events"]?.arrayValue?.first?["at"] == .string("2027-01-15T08:00:00.000Z"), "the wire's time: ISO 8601, milliseconds, Z")
    }

    @Test("a token a 200 hands out is saved and sent with the next flush")
    func tokenFromAnswer() async throws {
        let fixture = Fixture()
        fixture.transport.on(.post, Self.path, Self.receipt(stored: 1, token: "issued-1"), Self.receipt(stored: 1))
        let reporter = await fixture.reporter()
        _ = await Self.record(1, on: reporter)
        _ = await reporter.flush()
        _ = await Self.record(1, on: reporter)
        _ = await reporter.flush()
        let requests = fixture.transport.requests(to: Self.path)
        #expect(requests.count == 2)
        #expect(requests[0][.authorization] == nil)
        #expect(requests[1][.authorization] == "Bearer issued-1")
        #expect(await fixture.tokens.token() == "issued-1", "kept for screens and commands too")
    }

    @Test("a 401 keeps the events and drops the token: the next flush goes without it")
    func unknownToken() async throws {
        let fixture = Fixture(token: "deleted-user")
        fixture.transport.on(
            .post, Self.path, .error(.unauthorized, code: "unauthorized", message: "unknown token"),
            Self.receipt(stored: 2, token: "fresh"), Self.receipt(stored: 1))
        let reporter = await fixture.reporter()
        let ids = await Self.record(2, on: reporter)
        let first = await reporter.flush()
        #expect(first == EventReporter.FlushResult(sent: 0, kept: 2, discarded: 0, retryAt: nil))
        #expect(await reporter.flush().sent == 2)
        _ = await Self.record(1, on: reporter)
        _ = await reporter.flush()
        let requests = fixture.transport.requests(to: Self.path)
        #expect(requests.map { $0[.authorization] } == ["Bearer deleted-user", nil, "Bearer fresh"])
        #expect(try fixture.batches.prefix(2) == [ids, ids])
    }

    @Test("a flush while one is running joins it: the batch is sent once")
    func oneFlushAtATime() async throws {
        let fixture = Fixture()
        let gate = Gate()
        fixture.transport.on(.post, Self.path, gate: gate, Self.receipt(stored: 5))
        let reporter = await fixture.reporter()
        _ = await Self.record(5, on: reporter)
        async let first = reporter.flush()
        await gate.waitForArrivals(1)
        async let second = reporter.flush()
        // Give the second call time to start a request of its own, were it to.
        try await Task.sleep(for: .milliseconds(50))
        gate.open()
        let results = await [first, second]
        #expect(fixture.transport.requests(to: Self.path).count == 1)
        #expect(results[0] == results[1])
        #expect(results[0].sent == 5)
    }

    @Test("offline, nothing is sent and everything kept")
    func offline() async throws {
        let fixture = Fixture()
        let loader = ScreenLoader(endpoint: Self.endpoint, transport: fixture.transport)
        await loader.setOffline(true)
        let reporter = await EventReporter(loader: loader)
        _ = await Self.record(2, on: reporter)
        #expect(await reporter.flush() == EventReporter.FlushResult(sent: 0, kept: 2, discarded: 0, retryAt: nil))
        #expect(fixture.transport.requests.isEmpty)
    }

    @Test("a queue that cannot be saved stays in memory, and the failure is told")
    func unsavableQueue() async throws {
        try await FileReportQueueTests.withFolder { folder in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let blocker = folder.appendingPathComponent("not-a-folder")
            try Data("x".utf8).write(to: blocker)
            let fixture = Fixture(storage: FileReportQueue(file: blocker.appendingPathComponent("reports.json")))
            let reporter = await fixture.reporter()
            _ = await Self.record(2, on: reporter)
            #expect(await reporter.queued.count == 2)
            #expect(await reporter.statistics.storageFailures == 2)
            #expect(await reporter.lastStorageError != nil)
        }
    }

    @Test("reports go under the endpoint's prefix, at v6, whatever version the app speaks")
    func reportsURL() {
        let root = URL(string: "https://music.example")!
        #expect(EventReporter.reportsURL(for: ServerEndpoint(root: root)).absoluteString == "https://music.example/api/v6/reports")
        #expect(
            EventReporter.reportsURL(for: ServerEndpoint(root: root, apiVersion: .v5, pathPrefix: "/screenplay/api/")).absoluteString
                == "https://music.example/screenplay/api/v6/reports")
        #expect(
            EventReporter.reportsURL(for: ServerEndpoint(root: root, pathPrefix: "")).absoluteString == "https://music.example/v6/reports")
    }

    @Test("when to flush: 20 queued, else 10 s after the oldest, never before a wait ends")
    func whenToFlush() async throws {
        let fixture = Fixture()
        let reporter = await fixture.reporter()
        #expect(await reporter.nextFlush() == nil)
        _ = await Self.record(1, on: reporter)
        fixture.advance(3)
        _ = await Self.record(1, on: reporter)
        #expect(await reporter.nextFlush() == Self.start + 10)
        #expect(await !reporter.isFlushDue())
        _ = await Self.record(18, on: reporter)
        #expect(await reporter.isFlushDue())
        #expect(await reporter.nextFlush() == Self.start)
    }
}
