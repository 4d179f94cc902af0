import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ScreenplayClient
import ScreenplayClientNIO
import ScreenplayContract
import ScreenplayDemo
import ScreenplayHummingbird
import ScreenplayTestSupport

/// Runs the real demo server on a loopback port for the length of a test, with a data folder
/// of its own (kept across restarts inside one test, removed at the end).
struct DemoServerHarness {
    let dataDirectory: String
    let limits: ConnectionLimits

    init(limits: ConnectionLimits = ConnectionLimits()) {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-e2e-\(UUID().uuidString)").path
        self.limits = limits
    }

    /// Starts the server, runs `body` with its root URL, then stops it and closes the database.
    func withServer<Result: Sendable>(_ body: (URL) async throws -> Result) async throws -> Result {
        try await withDemo { root, _ in try await body(root) }
    }

    /// Generous shop timeouts: a loaded test machine must not turn a slow read into a missing widget.
    static let shopTimeouts = DemoApp.ShopTimeouts(promotions: .seconds(10), inProcess: .seconds(10), naming: .seconds(10))

    /// ``withServer(_:)``, also handing `body` the running demo (to look at its service).
    /// `open` opens the demo some other way than on the data folder's SQLite file.
    func withDemo<Result: Sendable>(
        opening open: ((Logger) async throws -> DemoApp)? = nil, _ body: (URL, DemoApp) async throws -> Result
    ) async throws -> Result {
        var logger = Logger(label: "screenplay.e2e")
        logger.logLevel = .warning
        let demo =
            if let open {
                try await open(logger)
            } else {
                try await DemoApp.open(dataDirectory: dataDirectory, logger: logger, shopTimeouts: Self.shopTimeouts)
            }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = demo.makeApplication(host: "127.0.0.1", port: 0, limits: limits) { port in continuation.yield(port) }
        let server = BackgroundServer(app, whenEnded: { continuation.finish() })
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            await server.stop()
            throw HarnessError.serverDidNotStart
        }
        let root = URL(string: "http://127.0.0.1:\(port)/")!
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await body(root, demo))
        } catch {
            outcome = .failure(error)
        }
        await server.stop()
        try await demo.close()
        return try outcome.get()
    }

    func removeData() {
        try? FileManager.default.removeItem(atPath: dataDirectory)
    }

    enum HarnessError: Error { case serverDidNotStart }
}

/// A client of the demo: loader + navigator over plain HTTP on NIO, with its own token.
struct DemoClient {
    let loader: ScreenLoader
    let navigator: ScreenNavigator
    let tokens: InMemoryTokenStore

    init(root: URL, token: String? = nil, apiVersion: APIVersion = .latest) {
        tokens = InMemoryTokenStore(token: token)
        loader = ScreenLoader(
            endpoint: ServerEndpoint(root: root, apiVersion: apiVersion), transport: PlainHTTPTransport(), tokens: tokens)
        // The product undoes an unanswered optimistic tap after 10 s, a wait for a person. These
        // tests assert the flows, and run beside a thousand others on two cores, where a first
        // write's answer has taken longer (a heart undone with "No answer in time" in 2 of 4
        // loaded runs, never alone): they wait a minute before calling a tap unanswered.
        navigator = ScreenNavigator(loader: loader, optimisticTimeout: .seconds(60))
    }
}

/// A raw HTTP exchange, for the bad-input cases no well-behaved client would send.
struct RawResponse {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    func errorBody() throws -> ErrorBody {
        try JSONDecoder().decode(ErrorBody.self, from: Data(body))
    }
}

/// A raw exchange on a connection of its own (`PlainHTTPTransport`): redirects are not
/// followed, so tests see the 303s themselves, and requests sent at once (ten adds together) do
/// not queue behind a pool.
func raw(
    _ method: HTTPRequest.Method, _ root: URL, _ path: String, headers: HTTPFields = [:], body: [UInt8]? = nil
) async throws -> RawResponse {
    let request = HTTPRequest(method: method, scheme: "http", authority: "\(root.host!):\(root.port!)", path: path, headerFields: headers)
    let (response, bytes) = try await PlainHTTPTransport().send(request, body: body)
    return RawResponse(status: response.status, headers: response.headerFields, body: bytes)
}

extension ScreenNavigator.Snapshot {
    /// The loaded top screen, or a failure describing the state.
    func topScreen() throws -> Screen {
        guard let screen = top?.state.screen else { throw SnapshotError.notLoaded("\(String(describing: top?.state))") }
        return screen
    }

    enum SnapshotError: Error { case notLoaded(String) }
}

extension Screen {
    /// Every menu and toolbar item title.
    var menuTitles: [String] { ((toolbar ?? []) + (menu ?? [])).map(\.title) }

    func menuItem(_ title: String) -> MenuItem? { ((toolbar ?? []) + (menu ?? [])).first { $0.title == title } }

    /// Every action reachable in the body, menus and toolbar, depth first.
    var allActions: [Action] {
        var actions = ((toolbar ?? []) + (menu ?? [])).map(\.action)
        func visit(_ component: Component) {
            switch component.content {
            case .sectionHeader(let header): if let action = header.action { actions.append(action) }
            case .detailButton(let button): actions.append(button.action)
            case .listRow(let row): if let action = row.action { actions.append(action) }
            case .trackRow(let row): if let action = row.action { actions.append(action) }
            case .carousel(let carousel): actions += carousel.items.compactMap(\.action)
            case .image(let image): if let action = image.action { actions.append(action) }
            case .button(let button): actions.append(button.action)
            case .grid(let grid): actions += grid.cards.compactMap(\.action)
            case .favoriteButton(let toggle): actions.append(.command(toggle.command))
            case .textField(let field): if let action = field.submit { actions.append(action) }
            default: break
            }
            component.children.forEach(visit)
        }
        for section in sections {
            if let action = section.header?.action { actions.append(action) }
            section.components.forEach(visit)
        }
        return actions
    }

    /// Titles of list rows, detail buttons and carousel items, for "is it listed" checks.
    var listedTitles: [String] {
        // Every level: a playlist owner's rows sit in a reorderable list, each beside its Remove (v6).
        allComponents.flatMap { component -> [String] in
            switch component.content {
            case .listRow(let row): [row.title]
            case .detailButton(let button): [button.title]
            case .carousel(let carousel): carousel.items.map(\.title)
            case .grid(let grid): grid.cards.map(\.title)
            default: []
            }
        }
    }
}
