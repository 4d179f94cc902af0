import HTTPTypes
import ScreenplayClient
import ScreenplayContract
import Testing

/// A navigator over a loader over `transport`.
private func navigator(_ transport: FakeTransport) -> ScreenNavigator {
    ScreenNavigator(loader: ScreenLoader(endpoint: testEndpoint, transport: transport))
}

/// A transport whose home screen loads; add routes for the test.
private func transportWithHome(etag: String = "\"home-1\"") -> FakeTransport {
    let transport = FakeTransport()
    transport.on(.get, api("screens/home"), .screen(Samples.home, etag: etag))
    return transport
}

private let toMozart = Action.Navigate(url: "screens/composer/mozart", header: Samples.mozartHeader)

@Suite("ScreenNavigator")
struct ScreenNavigatorTests {
    @Suite("Navigation")
    struct Navigation {
        @Test("start loads the root screen")
        func startLoadsRoot() async {
            let transport = transportWithHome()
            let navigator = navigator(transport)

            await navigator.start(at: "screens/home", header: Samples.homeHeader)

            let snapshot = await navigator.snapshot
            #expect(snapshot.entries.count == 1)
            #expect(snapshot.top?.url == "screens/home")
            #expect(snapshot.top?.presentation == .push)
            #expect(snapshot.top?.state.screen == Samples.home)
            #expect(snapshot.presented == nil)
            #expect(snapshot.isPerformingCommand == false)
            #expect(transport.requests.map(\.path) == [api("screens/home")])
        }

        @Test("navigate pushes the destination with its header before the body arrives, then loads it")
        func navigateShowsHeaderFirst() async {
            let gate = Gate()
            let transport = transportWithHome()
            transport.on(.get, api("screens/composer/mozart"), gate: gate, .screen(Samples.mozart))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")

            let navigation = Task { await navigator.navigate(toMozart) }
            await gate.waitForArrivals()

            let during = await navigator.snapshot
            #expect(during.entries.count == 2)
            #expect(during.top?.url == "screens/composer/mozart")
            #expect(during.top?.state == .loading(header: Samples.mozartHeader))
            #expect(during.top?.state.header == Samples.mozartHeader)
            #expect(during.entries.first?.state.screen == Samples.home)

            gate.open()
            await navigation.value

            let after = await navigator.snapshot
            #expect(after.entries.count == 2)
            #expect(after.top?.state.screen == Samples.mozart)
        }

        @Test("navigate keeps the presentation it asks for")
        func modalPresentation() async {
            let transport = transportWithHome()
            transport.on(.get, api("screens/composer/mozart"), .screen(Samples.mozart))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")

            await navigator.navigate(Action.Navigate(url: "screens/composer/mozart", presentation: .modal))

            #expect(await navigator.snapshot.top?.presentation == .modal)
        }

        @Test("entries get distinct, increasing ids")
        func entryIDs() async {
            let transport = transportWithHome()
            transport.on(.get, api("screens/composer/mozart"), .screen(Samples.mozart))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")
            await navigator.navigate(toMozart)
            await navigator.navigate(toMozart)

            let ids = await navigator.snapshot.entries.map(\.id)
            #expect(ids.count == 3)
            #expect(ids == ids.sorted())
            #expect(Set(ids).count == 3)
        }

        @Test("back pops the top screen but never the root")
        func backNeverPopsRoot() async {
            let transport = transportWithHome()
            transport.on(.get, api("screens/composer/mozart"), .screen(Samples.mozart))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")
            await navigator.navigate(toMozart)

            await navigator.back()
            #expect(await navigator.snapshot.entries.map(\.url) == ["screens/home"])
            await navigator.back()
            await navigator.back()
            let snapshot = await navigator.snapshot
            #expect(snapshot.entries.map(\.url) == ["screens/home"])
            #expect(snapshot.top?.state.screen == Samples.home)
        }

        @Test("back on an empty navigator does nothing")
        func backWhenEmpty() async {
            let navigator = navigator(FakeTransport())
            await navigator.back()
            #expect(await navigator.snapshot.entries.isEmpty)
        }

        @Test("an answer for a screen popped while loading is dropped")
        func answerAfterPopIsDropped() async {
            let gate = Gate()
            let transport = transportWithHome()
            transport.on(.get, api("screens/composer/mozart"), gate: gate, .screen(Samples.mozart))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")

            let navigation = Task { await navigator.navigate(toMozart) }
            await gate.waitForArrivals()
            await navigator.back()
            gate.open()
            await navigation.value

            let snapshot = await navigator.snapshot
            #expect(snapshot.entries.map(\.url) == ["screens/home"])
            #expect(snapshot.top?.state.screen == Samples.home)
        }

        @Test("start replaces the whole stack")
        func startReplacesStack() async {
            let transport = transportWithHome()
            transport.on(.get, api("screens/composer/mozart"), .screen(Samples.mozart))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")
            await navigator.navigate(toMozart)

            await navigator.start(at: "screens/composer/mozart")

            let snapshot = await navigator.snapshot
            #expect(snapshot.entries.map(\.url) == ["screens/composer/mozart"])
        }

        @Test("a failed load keeps the header; retry loads it")
        func failedThenRetry() async {
            let transport = FakeTransport()
            transport.on(
                .get, api("screens/composer/mozart"),
                .error(.serviceUnavailable, code: "internalError", message: "try later"), .screen(Samples.mozart))
            let navigator = navigator(transport)

            await navigator.start(at: "screens/composer/mozart", header: Samples.mozartHeader)

            let failed = await navigator.snapshot.top?.state
            guard case .failed(let header, let error)? = failed else {
                Issue.record("expected failed, got \(String(describing: failed))")
                return
            }
            #expect(header == Samples.mozartHeader)
            #expect(error.status == 503)
            #expect(error.message == "try later")

            await navigator.retry()

            #expect(await navigator.snapshot.top?.state.screen == Samples.mozart)
            #expect(transport.requests.count == 2)
        }

        @Test("retry shows loading with the header while the new attempt is in flight")
        func retryShowsLoading() async {
            let transport = FakeTransport()
            transport.on(.get, api("screens/composer/mozart"), replies: [.fail])
            let navigator = navigator(transport)
            await navigator.start(at: "screens/composer/mozart", header: Samples.mozartHeader)
            guard case .failed? = await navigator.snapshot.top?.state else {
                Issue.record("expected the first load to fail")
                return
            }

            let gate = Gate()
            transport.on(.get, api("screens/composer/mozart"), gate: gate, .screen(Samples.mozart))
            let retry = Task { await navigator.retry() }
            await gate.waitForArrivals()
            #expect(await navigator.snapshot.top?.state == .loading(header: Samples.mozartHeader))
            gate.open()
            await retry.value
            #expect(await navigator.snapshot.top?.state.screen == Samples.mozart)
        }

        @Test("retry on a loaded screen sends nothing")
        func retryWhenLoaded() async {
            let transport = transportWithHome()
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")

            await navigator.retry()

            #expect(transport.requests.count == 1)
            #expect(await navigator.snapshot.top?.state.screen == Samples.home)
        }

        @Test("refresh revalidates the top screen with its ETag, and an unchanged (304) answer leaves the state as it was")
        func refreshRevalidates() async {
            let transport = FakeTransport()
            transport.on(.get, api("screens/home"), .screen(Samples.home, etag: "\"h1\""), .notModified(etag: "\"h1\""))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")

            await navigator.refresh()

            #expect(transport.requests.map { $0[.ifNoneMatch] } == [nil, "\"h1\""])
            let top = await navigator.snapshot.top?.state
            guard case .loaded(let loaded)? = top else {
                Issue.record("expected loaded, got \(String(describing: top))")
                return
            }
            // The 304 changed nothing: the state is the one the first load produced.
            #expect(!loaded.revalidated)
            #expect(loaded.screen == Samples.home)
        }
    }

    @Suite("Commands")
    struct Commands {
        @Test("a command answered by a prompt presents it")
        func promptPresented() async {
            let transport = transportWithHome()
            transport.on(.post, api("commands/playlists/new"), .result(.prompt(Samples.newPlaylistPrompt)))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")

            await navigator.perform(.command(Action.Command(url: "commands/playlists/new")))

            let snapshot = await navigator.snapshot
            #expect(snapshot.presented == .prompt(Samples.newPlaylistPrompt))
            #expect(snapshot.isPerformingCommand == false)
        }

        @Test("submitting a prompt POSTs its payload with the text under the field's name")
        func submitPrompt() async throws {
            let transport = transportWithHome()
            transport.on(.post, api("commands/playlists/create"), .result(.done(.init(message: "Created"))))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")

            await navigator.submit(Samples.newPlaylistPrompt, text: "Sunday Mozart")

            let sent = try #require(transport.requests(to: api("commands/playlists/create")).first)
            #expect(sent.method == .post)
            #expect(sent[.contentType] == "application/json")
            #expect(try sent.json() == ["source": "menu", "name": "Sunday Mozart"])
            #expect(await navigator.snapshot.presented == .message("Created"))
        }

        @Test("submitting dismisses the prompt")
        func submitDismissesPrompt() async {
            let transport = transportWithHome()
            transport.on(.post, api("commands/playlists/new"), .result(.prompt(Samples.newPlaylistPrompt)))
            transport.on(.post, api("commands/playlists/create"), .result(.done(.init())))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")
            await navigator.perform(.command(Action.Command(url: "commands/playlists/new")))

            await navigator.submit(Samples.newPlaylistPrompt, text: "x")

            #expect(await navigator.snapshot.presented == nil)
        }

        @Test("a choice is presented; choosing an option POSTs that option's command")
        func choiceAndChoose() async throws {
            let transport = transportWithHome()
            transport.on(.post, api("commands/playlists/choose"), .result(.choice(Samples.playlistChoice)))
            transport.on(.post, api("commands/playlists/add"), .result(.done(.init(message: "Added to Evening"))))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")

            await navigator.perform(.command(Action.Command(url: "commands/playlists/choose")))
            #expect(await navigator.snapshot.presented == .choice(Samples.playlistChoice))

            await navigator.choose(Samples.playlistChoice.options[1])

            let sent = transport.requests(to: api("commands/playlists/add"))
            #expect(sent.count == 1)
            #expect(try sent.first?.json() == ["playlist": 2, "workId": 42])
            #expect(await navigator.snapshot.presented == .message("Added to Evening"))
        }

        @Test("done with refresh shows the message and revalidates the top screen")
        func doneWithRefresh() async {
            let updated = Samples.screen("home", title: "Home", header: Samples.homeHeader, texts: ["Welcome", "1 favorite"])
            let transport = FakeTransport()
            transport.on(.get, api("screens/home"), .screen(Samples.home, etag: "\"h1\""), .screen(updated, etag: "\"h2\""))
            transport.on(.post, api("commands/favorites/add"), .result(.done(.init(message: "Added to favorites", refresh: true))))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")

            await navigator.perform(.command(Samples.favoriteCommand))

            let gets = transport.requests.filter { $0.method == .get }
            #expect(gets.count == 2)
            #expect(gets.last?[.ifNoneMatch] == "\"h1\"")
            let snapshot = await navigator.snapshot
            #expect(snapshot.presented == .message("Added to favorites"))
            #expect(snapshot.top?.state.screen == updated)
            #expect(snapshot.entries.count == 1)
        }

        @Test("done without refresh fetches nothing and without a message presents nothing")
        func doneWithoutRefresh() async {
            let transport = transportWithHome()
            transport.on(.post, api("commands/favorites/add"), .result(.done(.init())))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")

            await navigator.perform(.command(Samples.favoriteCommand))

            #expect(transport.requests.filter { $0.method == .get }.count == 1)
            #expect(await navigator.snapshot.presented == nil)
        }

        @Test("a screen result replaces the top screen only")
        func screenResultReplacesTop() async {
            let transport = transportWithHome()
            transport.on(.get, api("screens/composer/mozart"), .screen(Samples.mozart))
            let replacement = Samples.screen("composer/mozart", title: "Mozart", texts: ["Now favorited"])
            transport.on(.post, api("commands/favorites/add"), .result(.screen(replacement)))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")
            await navigator.navigate(toMozart)

            await navigator.perform(.command(Samples.favoriteCommand))

            let snapshot = await navigator.snapshot
            #expect(snapshot.entries.count == 2)
            #expect(snapshot.top?.state.screen == replacement)
            #expect(snapshot.entries.first?.state.screen == Samples.home)
            #expect(snapshot.presented == nil)
        }

        @Test("a navigate result pushes the destination")
        func navigateResultPushes() async {
            let transport = transportWithHome()
            transport.on(.get, api("screens/composer/mozart"), .screen(Samples.mozart))
            transport.on(.post, api("commands/go"), .result(.navigate(toMozart)))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")

            await navigator.perform(.command(Action.Command(url: "commands/go")))

            let snapshot = await navigator.snapshot
            #expect(snapshot.entries.map(\.url) == ["screens/home", "screens/composer/mozart"])
            #expect(snapshot.top?.state.screen == Samples.mozart)
        }

        @Test("an error result presents its message and leaves the screen as it was")
        func errorResultPresented() async {
            let transport = transportWithHome()
            transport.on(.post, api("commands/favorites/add"), .result(.error(.init(message: "Playlist is full"))))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")

            await navigator.perform(.command(Samples.favoriteCommand))

            let snapshot = await navigator.snapshot
            #expect(snapshot.presented == .error("Playlist is full"))
            #expect(snapshot.top?.state.screen == Samples.home)
        }

        @Test("a failed command presents the failure")
        func failedCommandPresented() async {
            let transport = transportWithHome()
            transport.on(
                .post, api("commands/favorites/add"),
                .error(.unprocessableContent, code: "invalidField", message: "workId is unknown", path: "$.workId"))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")

            await navigator.perform(.command(Samples.favoriteCommand))

            let snapshot = await navigator.snapshot
            #expect(snapshot.presented == .error("workId is unknown"))
            #expect(snapshot.isPerformingCommand == false)
        }

        @Test("an unknown result kind presents an error naming it and is logged as an issue")
        func unknownResultPresented() async {
            let transport = transportWithHome()
            transport.on(.post, api("commands/x"), .raw(#"{"type":"confetti"}"#))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")

            await navigator.perform(.command(Action.Command(url: "commands/x")))

            let snapshot = await navigator.snapshot
            guard case .error(let message)? = snapshot.presented else {
                Issue.record("expected an error, got \(String(describing: snapshot.presented))")
                return
            }
            #expect(message.contains("confetti"))
            #expect(snapshot.issues.count == 1)
        }

        @Test("isPerformingCommand is true while a command is in flight, false after")
        func busyWhileInFlight() async {
            let gate = Gate()
            let transport = transportWithHome()
            transport.on(.post, api("commands/favorites/add"), gate: gate, .result(.done(.init(message: "Added"))))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")
            #expect(await navigator.snapshot.isPerformingCommand == false)

            let command = Task { await navigator.perform(.command(Samples.favoriteCommand)) }
            await gate.waitForArrivals()
            #expect(await navigator.snapshot.isPerformingCommand)
            #expect(await navigator.snapshot.presented == nil)

            gate.open()
            await command.value
            let after = await navigator.snapshot
            #expect(after.isPerformingCommand == false)
            #expect(after.presented == .message("Added"))
        }

        @Test("a command's answer applies to the screen it was sent from, even after the user navigated away")
        func answerAppliesToOrigin() async throws {
            let gate = Gate()
            let transport = transportWithHome()
            transport.on(.get, api("screens/composer/mozart"), .screen(Samples.mozart, etag: "\"m\""))
            let replacement = Screen(id: "home-2", title: "Home, replaced", sections: [])
            transport.on(.post, api("commands/favorites/add"), gate: gate, .result(.screen(replacement)))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")

            let command = Task { await navigator.perform(.command(Samples.favoriteCommand)) }
            await gate.waitForArrivals()
            await navigator.navigate(toMozart)
            gate.open()
            await command.value

            let entries = await navigator.snapshot.entries
            #expect(entries.count == 2)
            #expect(entries[0].state.screen == replacement)
            #expect(entries[1].state.screen == Samples.mozart)
        }

        @Test("two overlapping commands keep isPerformingCommand true until both answer")
        func overlappingCommands() async {
            let first = Gate()
            let second = Gate()
            let transport = transportWithHome()
            transport.on(.post, api("commands/favorites/add"), gate: first, .result(.done(.init(message: "one"))))
            transport.on(.post, api("commands/other"), gate: second, .result(.done(.init(message: "two"))))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")
            let one = Task { await navigator.perform(.command(Samples.favoriteCommand)) }
            await first.waitForArrivals()
            let two = Task { await navigator.perform(.command(.init(url: "commands/other"))) }
            await second.waitForArrivals()
            first.open()
            await one.value
            #expect(await navigator.snapshot.isPerformingCommand)
            second.open()
            await two.value
            #expect(await navigator.snapshot.isPerformingCommand == false)
        }

        @Test("dismiss clears what is presented")
        func dismissClears() async {
            let transport = transportWithHome()
            transport.on(.post, api("commands/favorites/add"), .result(.done(.init(message: "Added"))))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")
            await navigator.perform(.command(Samples.favoriteCommand))
            #expect(await navigator.snapshot.presented == .message("Added"))

            await navigator.dismiss()

            #expect(await navigator.snapshot.presented == nil)
        }

        @Test("navigating clears what is presented")
        func navigateClearsPresented() async {
            let transport = transportWithHome()
            transport.on(.get, api("screens/composer/mozart"), .screen(Samples.mozart))
            transport.on(.post, api("commands/favorites/add"), .result(.done(.init(message: "Added"))))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")
            await navigator.perform(.command(Samples.favoriteCommand))

            await navigator.perform(.navigate(toMozart))

            #expect(await navigator.snapshot.presented == nil)
        }
    }

    @Suite("Local actions")
    struct LocalActions {
        static let track = Action.Play.Track(id: "k626-1", title: "Introitus", streamURL: "https://cdn.example/k626-1.m4a")

        @Test(
            "local actions go to the registered handler and send nothing",
            arguments: [
                ("play", Action.play(Action.Play(metadataURL: "queues/k626", firstTrack: track))),
                ("share", Action.share(Action.Share(title: "Requiem", url: "https://music.example/works/k626"))),
                ("openURL", Action.openURL(Action.OpenURL(url: "mailto:hello@music.example"))),
                ("buyAlbum", Action.custom(Action.Custom(name: "buyAlbum", payload: ["sku": "k626"]))),
            ]
        )
        func handlerCalled(name: String, action: Action) async {
            let transport = FakeTransport()
            let navigator = navigator(transport)
            let handled = Shared<[Action]>([])
            let others = Shared<[Action]>([])
            await navigator.handle(name) { action in handled.update { $0.append(action) } }
            for other in ["play", "share", "openURL", "custom", "somethingElse"] where other != name {
                await navigator.handle(other) { action in others.update { $0.append(action) } }
            }

            await navigator.perform(action)

            #expect(handled.value == [action])
            #expect(others.value.isEmpty)
            #expect(transport.requests.isEmpty)
            #expect(await navigator.snapshot.presented == nil)
        }

        @Test("a local action with no handler does nothing")
        func noHandler() async {
            let transport = FakeTransport()
            let navigator = navigator(transport)
            await navigator.perform(.custom(Action.Custom(name: "unregistered")))
            #expect(transport.requests.isEmpty)
            #expect(await navigator.snapshot.presented == nil)
        }

        @Test("a later registration replaces the handler")
        func handlerReplaced() async {
            let navigator = navigator(FakeTransport())
            let first = Shared(0)
            let second = Shared(0)
            await navigator.handle("share") { _ in first.update { $0 += 1 } }
            await navigator.handle("share") { _ in second.update { $0 += 1 } }
            await navigator.perform(.share(Action.Share(title: "t", url: "https://music.example")))
            #expect(first.value == 0)
            #expect(second.value == 1)
        }

        @Test("an unknown action presents an error naming it and sends nothing")
        func unknownAction() async {
            let transport = FakeTransport()
            let navigator = navigator(transport)

            await navigator.perform(.unknown(type: "teleport", json: ["type": "teleport"]))

            let presented = await navigator.snapshot.presented
            guard case .error(let message)? = presented else {
                Issue.record("expected an error, got \(String(describing: presented))")
                return
            }
            #expect(message.contains("teleport"))
            #expect(transport.requests.isEmpty)
        }
    }

    @Suite("Issues and observers")
    struct IssuesAndObservers {
        @Test("decoding issues of every loaded screen accumulate; a 304 adds none")
        func issuesAccumulate() async {
            let transport = FakeTransport()
            transport.on(.get, api("screens/a"), .raw(Samples.brokenScreenJSON(id: "a"), etag: "\"a\""), .notModified(etag: "\"a\""))
            transport.on(.get, api("screens/b"), .raw(Samples.brokenScreenJSON(id: "b")))
            let navigator = navigator(transport)

            await navigator.start(at: "screens/a")
            #expect(await navigator.snapshot.issues.count == 1)
            await navigator.navigate(Action.Navigate(url: "screens/b"))
            #expect(await navigator.snapshot.issues.count == 2)
            await navigator.back()
            await navigator.refresh()

            let snapshot = await navigator.snapshot
            #expect(snapshot.issues.count == 2)
            #expect(snapshot.top?.state.screen?.sections.first?.components.count == 2)
        }

        @Test("the issue log keeps the most recent issues only, and counts the ones it let go")
        func issueLogBounded() async {
            let transport = FakeTransport()
            // 50 broken components a load, revalidation disabled (no ETag): 5 loads make 250 issues.
            let broken =
                #"{"id":"x","title":"X","sections":[{"id":"a","components":["#
                + Array(repeating: #"{"type":"listRow"}"#, count: 50).joined(separator: ",") + "]}]}"
            transport.on(.get, api("screens/x"), .raw(broken))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/x")
            for _ in 0..<4 { await navigator.refresh() }
            let snapshot = await navigator.snapshot
            #expect(snapshot.issues.count == ScreenNavigator.issueLimit)
            #expect(snapshot.droppedIssues == 250 - ScreenNavigator.issueLimit)
        }

        @Test("a snapshot stream starts with the current state, follows every change, and is removed when its consumer stops")
        func snapshotStream() async {
            let gate = Gate()
            let transport = FakeTransport()
            transport.on(.get, api("screens/composer/mozart"), gate: gate, .screen(Samples.mozart))
            let navigator = navigator(transport)
            let stream = await navigator.snapshots()
            var iterator = stream.makeAsyncIterator()
            #expect(await iterator.next()?.entries.isEmpty == true)
            #expect(await navigator.observerCount == 1)

            let start = Task { await navigator.start(at: "screens/composer/mozart", header: Samples.mozartHeader) }
            await gate.waitForArrivals()
            #expect(await iterator.next()?.top?.state == .loading(header: Samples.mozartHeader))
            gate.open()
            await start.value
            #expect(await iterator.next()?.top?.state.screen == Samples.mozart)

            let consumer = Task { for await _ in await navigator.snapshots() {} }
            while await navigator.observerCount < 2 { await Task.yield() }
            consumer.cancel()
            await consumer.value
            while await navigator.observerCount > 1 { await Task.yield() }
            #expect(await navigator.observerCount == 1)
        }

        @Test("while a command is in flight the snapshot says so and shows its node busy; the answer clears both")
        func busyWhileInFlight() async {
            let gate = Gate()
            let transport = transportWithHome()
            transport.on(.post, api("commands/favorites/add"), gate: gate, .result(.done(.init(message: "Added"))))
            let navigator = navigator(transport)
            await navigator.start(at: "screens/home")
            let node: NodeID = "section:main/favoriteButton:x"
            let command = Task { await navigator.perform(.command(Samples.favoriteCommand), from: node) }
            await gate.waitForArrivals()
            let during = await navigator.snapshot
            #expect(during.isPerformingCommand && during.busyNodes == [node])
            gate.open()
            await command.value
            let after = await navigator.snapshot
            #expect(!after.isPerformingCommand && after.busyNodes.isEmpty)
            #expect(after.presented == .message("Added"))
        }
    }
}
