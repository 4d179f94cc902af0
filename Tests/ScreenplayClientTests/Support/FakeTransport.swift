import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayContract
import Synchronization

/// One answer of the fake server: status, headers, body.
struct FakeResponse: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields = [:]
    var body: [UInt8] = []

    /// A screen as JSON, with its ETag and, optionally, a newly issued token.
    static func screen(_ screen: Screen, etag: String? = nil, token: String? = nil) -> FakeResponse {
        json(screen, etag: etag, token: token)
    }

    /// A command result as JSON.
    static func result(_ result: CommandResult, token: String? = nil) -> FakeResponse {
        json(result, token: token)
    }

    /// Any encodable value as JSON.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, etag: String? = nil, token: String? = nil) -> FakeResponse
    {
        // The fixtures only encode contract values, which always encode.
        guard let data = try? ScreenplayEncoder().encode(value) else { preconditionFailure("a fixture failed to encode") }
        return raw(String(decoding: data, as: UTF8.self), status: status, etag: etag, token: token)
    }

    /// A body given as text.
    static func raw(_ text: String, status: HTTPResponse.Status = .ok, etag: String? = nil, token: String? = nil) -> FakeResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let etag { headers[.eTag] = etag }
        if let token { headers[.screenplayToken] = token }
        return FakeResponse(status: status, headers: headers, body: Array(text.utf8))
    }

    /// `304 Not Modified` with an empty body.
    static func notModified(etag: String) -> FakeResponse {
        FakeResponse(status: .notModified, headers: [.eTag: etag], body: [])
    }

    /// A Screenplay error body (`{"error": {...}}`) with `status`.
    static func error(_ status: HTTPResponse.Status, code: String, message: String, path: String? = nil) -> FakeResponse {
        json(ErrorBody(code: code, message: message, path: path), status: status)
    }
}

extension HTTPField.Name {
    /// The header a server issues a new client's token in.
    static let screenplayToken = HTTPField.Name("Screenplay-Token")!
    /// The header a command's answer names its revision in, and requests send back.
    static let screenplayRevision = HTTPField.Name("Screenplay-Revision")!
}

/// A request the fake transport received.
struct SentRequest: Sendable {
    let request: HTTPRequest
    let body: [UInt8]?

    var method: HTTPRequest.Method { request.method }
    var path: String? { request.path }
    subscript(_ name: HTTPField.Name) -> String? { request.headerFields[name] }

    /// The body parsed as JSON.
    func json() throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(body ?? []))
    }
}

/// The error the fake transport throws for a route told to fail, like a refused connection.
struct ConnectionRefused: Error, Sendable, CustomStringConvertible {
    var description: String { "connection refused" }
}

/// An in-memory server: answers from a table programmed per (method, path) and records every
/// request.
///
/// Each route answers with its replies in order and then repeats the last one, so "first a
/// 200, then 304s" is one line. A route may have a ``Gate`` that holds its answers back until
/// the test opens it, so a test can look at the state while a request is in flight. A request
/// nothing was programmed for gets a 404 naming it.
final class FakeTransport: ScreenTransport {
    enum Reply: Sendable {
        case respond(FakeResponse)
        case fail
    }

    private struct RouteKey: Hashable {
        var method: String
        var path: String
    }

    private struct Route {
        var replies: [Reply]
        var gate: Gate?
    }

    private struct State {
        var routes: [RouteKey: Route] = [:]
        var requests: [SentRequest] = []
    }

    private let state = Mutex(State())

    init() {}

    /// Answers `method path` with `responses`, in order, the last one repeating.
    func on(_ method: HTTPRequest.Method, _ path: String, gate: Gate? = nil, _ responses: FakeResponse...) {
        on(method, path, gate: gate, replies: responses.map(Reply.respond))
    }

    /// Programs a route with any replies, including transport failures.
    func on(_ method: HTTPRequest.Method, _ path: String, gate: Gate? = nil, replies: [Reply]) {
        precondition(!replies.isEmpty, "a route needs at least one reply")
        state.withLock { $0.routes[RouteKey(method: method.rawValue, path: path)] = Route(replies: replies, gate: gate) }
    }

    /// Every request so far, oldest first.
    var requests: [SentRequest] { state.withLock { $0.requests } }

    /// The requests to `path`, oldest first.
    func requests(to path: String) -> [SentRequest] { requests.filter { $0.path == path } }

    func send(_ request: HTTPRequest, body: [UInt8]?) async throws -> (HTTPResponse, [UInt8]) {
        let (reply, gate) = state.withLock { state -> (Reply?, Gate?) in
            state.requests.append(SentRequest(request: request, body: body))
            let key = RouteKey(method: request.method.rawValue, path: request.path ?? "")
            guard var route = state.routes[key] else { return (nil, nil) }
            let reply = route.replies.count > 1 ? route.replies.removeFirst() : route.replies[0]
            state.routes[key] = route
            return (reply, route.gate)
        }
        if let gate { await gate.pass() }
        switch reply {
        case .respond(let response)?:
            return (HTTPResponse(status: response.status, headerFields: response.headers), response.body)
        case .fail?:
            throw ConnectionRefused()
        case nil:
            let missing = FakeResponse.error(
                .notFound, code: "notFound", message: "no fake route for \(request.method) \(request.path ?? "")")
            return (HTTPResponse(status: missing.status, headerFields: missing.headers), missing.body)
        }
    }
}

/// Holds requests back until the test opens it; tells the test when requests arrive.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var arrivals = 0
        var held: [CheckedContinuation<Void, Never>] = []
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    init() {}

    /// How many requests reached the gate.
    var arrivals: Int { state.withLock { $0.arrivals } }

    /// Called by the transport: waits while the gate is closed.
    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (proceed, ready) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                state.arrivals += 1
                let arrivals = state.arrivals
                let ready = state.watchers.filter { $0.count <= arrivals }.map(\.continuation)
                state.watchers.removeAll { $0.count <= arrivals }
                if state.isOpen { return (true, ready) }
                state.held.append(continuation)
                return (false, ready)
            }
            for watcher in ready { watcher.resume() }
            if proceed { continuation.resume() }
        }
    }

    /// Returns once `count` requests have reached the gate (held or passed).
    func waitForArrivals(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = state.withLock { state -> Bool in
                if state.arrivals >= count { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }

    /// Lets every held request and every later one through.
    func open() {
        let held = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.held = [] }
            return state.held
        }
        for request in held { request.resume() }
    }
}

/// A value shared between concurrent tasks of a test.
final class Shared<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) { storage = Mutex(value) }

    var value: Value { storage.withLock { $0 } }

    func update(_ body: (inout Value) -> Void) {
        storage.withLock { body(&$0) }
    }
}
