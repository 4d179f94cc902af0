import HTTPTypes
import ScreenplayClient
import ScreenplayContract
import Testing

/// A `LoadedScreen` as the loader makes it (it has no public initializer).
private func loaded(_ screen: Screen, etag: String = "\"1\"") async throws -> LoadedScreen {
    let transport = FakeTransport()
    transport.on(.get, api("screens/fixture"), .screen(screen, etag: etag))
    return try await ScreenLoader(endpoint: testEndpoint, transport: transport).screen(at: "screens/fixture")
}

private let offline = ClientError(kind: .transport, message: "offline")
private let notFound = ClientError(kind: .server(status: 404, body: nil), message: "HTTP 404")

@Suite("ScreenStateMachine")
struct ScreenStateMachineTests {
    @Suite("First load")
    struct FirstLoad {
        @Test("starts loading with the navigate action's header")
        func initialState() {
            let machine = ScreenStateMachine(header: Samples.mozartHeader)
            #expect(machine.state == .loading(header: Samples.mozartHeader))
            #expect(machine.state.header == Samples.mozartHeader)
            #expect(machine.state.screen == nil)
            #expect(machine.generation == 0)
        }

        @Test("start asks for fetch generation 1 and stays loading")
        func startFetches() {
            var machine = ScreenStateMachine(header: Samples.mozartHeader)
            #expect(machine.start() == .fetch(generation: 1))
            #expect(machine.generation == 1)
            #expect(machine.state == .loading(header: Samples.mozartHeader))
        }

        @Test("a successful answer loads the screen")
        func successLoads() async throws {
            let screen = try await loaded(Samples.mozart)
            var machine = ScreenStateMachine(header: Samples.mozartHeader)
            let fetch = machine.start()
            guard case .fetch(let generation) = fetch else {
                Issue.record("expected a fetch, got \(fetch)")
                return
            }
            #expect(machine.received(.success(screen), generation: generation) == .none)
            #expect(machine.state == .loaded(screen))
            #expect(machine.state.screen == Samples.mozart)
            #expect(machine.state.header == Samples.mozart.header)
        }

        @Test("a failed answer keeps the header and carries the error")
        func failureKeepsHeader() {
            var machine = ScreenStateMachine(header: Samples.mozartHeader)
            _ = machine.start()
            #expect(machine.received(.failure(offline), generation: 1) == .none)
            #expect(machine.state == .failed(header: Samples.mozartHeader, error: offline))
            #expect(machine.state.header == Samples.mozartHeader)
            #expect(machine.state.screen == nil)
        }

        @Test("a screen without a header fails without one")
        func failureWithoutHeader() {
            var machine = ScreenStateMachine(header: nil)
            _ = machine.start()
            _ = machine.received(.failure(notFound), generation: 1)
            #expect(machine.state == .failed(header: nil, error: notFound))
        }
    }

    @Suite("Stale answers")
    struct StaleAnswers {
        @Test("an answer to an older fetch shows until a newer one lands, never after it")
        func staleSuccessIgnored() async throws {
            let old = try await loaded(Samples.home)
            let fresh = try await loaded(Samples.mozart)
            var machine = ScreenStateMachine(header: nil)
            _ = machine.start()
            #expect(machine.refresh() == .fetch(generation: 2))

            // A refresh asked while a fetch was out (a live event) does not throw away the
            // first answer: it is the best there is until the second lands.
            #expect(machine.received(.success(old), generation: 1) == .none)
            #expect(machine.state == .loaded(old))
            _ = machine.received(.success(fresh), generation: 2)
            #expect(machine.state == .loaded(fresh))
            _ = machine.received(.success(old), generation: 1)
            #expect(machine.state == .loaded(fresh))
        }

        @Test("a failure of an older fetch, while a newer one is out, changes nothing")
        func olderFailureWhileNewerIsOut() {
            var machine = ScreenStateMachine(header: Samples.homeHeader)
            _ = machine.start()
            _ = machine.refresh()
            _ = machine.received(.failure(offline), generation: 1)
            #expect(machine.state == .loading(header: Samples.homeHeader))
        }

        @Test("a stale failure does not fail a loaded screen")
        func staleFailureIgnored() async throws {
            let screen = try await loaded(Samples.home)
            var machine = ScreenStateMachine(header: nil)
            _ = machine.start()
            _ = machine.refresh()
            _ = machine.received(.success(screen), generation: 2)
            _ = machine.received(.failure(offline), generation: 1)
            #expect(machine.state == .loaded(screen))
        }

        @Test("an answer from the future is ignored too")
        func futureGenerationIgnored() {
            var machine = ScreenStateMachine(header: Samples.homeHeader)
            _ = machine.start()
            _ = machine.received(.failure(offline), generation: 5)
            #expect(machine.state == .loading(header: Samples.homeHeader))
        }
    }

    @Suite("Retry")
    struct Retry {
        @Test("retry after a failure goes back to loading with the header and fetches again")
        func retryAfterFailure() async throws {
            var machine = ScreenStateMachine(header: Samples.mozartHeader)
            _ = machine.start()
            _ = machine.received(.failure(offline), generation: 1)

            #expect(machine.retry() == .fetch(generation: 2))
            #expect(machine.state == .loading(header: Samples.mozartHeader))

            let screen = try await loaded(Samples.mozart)
            _ = machine.received(.success(screen), generation: 2)
            #expect(machine.state == .loaded(screen))
        }

        @Test("retry while loading does nothing")
        func retryWhileLoading() {
            var machine = ScreenStateMachine(header: Samples.mozartHeader)
            _ = machine.start()
            #expect(machine.retry() == .none)
            #expect(machine.generation == 1)
            #expect(machine.state == .loading(header: Samples.mozartHeader))
        }

        @Test("retry when loaded does nothing")
        func retryWhenLoaded() async throws {
            let screen = try await loaded(Samples.mozart)
            var machine = ScreenStateMachine(header: nil)
            _ = machine.start()
            _ = machine.received(.success(screen), generation: 1)
            #expect(machine.retry() == .none)
            #expect(machine.generation == 1)
            #expect(machine.state == .loaded(screen))
        }

        @Test("a retry that fails again stays failed with the new error")
        func retryFailsAgain() {
            var machine = ScreenStateMachine(header: Samples.homeHeader)
            _ = machine.start()
            _ = machine.received(.failure(offline), generation: 1)
            _ = machine.retry()
            _ = machine.received(.failure(notFound), generation: 2)
            #expect(machine.state == .failed(header: Samples.homeHeader, error: notFound))
        }
    }

    @Suite("Refresh and replace")
    struct RefreshAndReplace {
        @Test("refresh keeps the loaded screen while fetching, and a failed refresh keeps it too")
        func failedRefreshKeepsScreen() async throws {
            let screen = try await loaded(Samples.home)
            var machine = ScreenStateMachine(header: nil)
            _ = machine.start()
            _ = machine.received(.success(screen), generation: 1)

            #expect(machine.refresh() == .fetch(generation: 2))
            #expect(machine.state == .loaded(screen))
            #expect(machine.received(.failure(offline), generation: 2) == .none)
            #expect(machine.state == .loaded(screen))
        }

        @Test("a successful refresh shows the new screen")
        func successfulRefresh() async throws {
            let first = try await loaded(Samples.home, etag: "\"1\"")
            let second = try await loaded(Samples.screen("home", texts: ["Updated"]), etag: "\"2\"")
            var machine = ScreenStateMachine(header: nil)
            _ = machine.start()
            _ = machine.received(.success(first), generation: 1)
            _ = machine.refresh()
            _ = machine.received(.success(second), generation: 2)
            #expect(machine.state == .loaded(second))
        }

        @Test("replace(with:) loads the given screen from any state")
        func replaceLoads() {
            var machine = ScreenStateMachine(header: Samples.homeHeader)
            _ = machine.start()
            _ = machine.received(.failure(offline), generation: 1)

            machine.replace(with: Samples.mozart)

            #expect(machine.state.screen == Samples.mozart)
            guard case .loaded(let loaded) = machine.state else {
                Issue.record("expected loaded, got \(machine.state)")
                return
            }
            #expect(loaded.etag == nil)
            #expect(loaded.revalidated == false)
            #expect(loaded.issues.isEmpty)
        }

        @Test("replace(with:) makes an answer to the fetch in flight stale")
        func replaceOutdatesFetch() async throws {
            let fetched = try await loaded(Samples.home)
            var machine = ScreenStateMachine(header: nil)
            _ = machine.start()
            machine.replace(with: Samples.mozart)
            _ = machine.received(.success(fetched), generation: 1)
            #expect(machine.state.screen == Samples.mozart)
        }
    }
}
