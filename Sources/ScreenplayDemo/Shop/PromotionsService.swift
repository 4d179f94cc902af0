import Foundation
public import Hummingbird
public import Logging
import NIOCore
import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer

/// The promotions vertical as its own HTTP service: what another team would run. It answers
/// `POST /widgets` (a ``WidgetCall``) with the widget envelope (which promotions run; their copy
/// is the layout's), after a random delay, and fails now and then, on purpose: the shop page
/// shows what the composer does with a slow, flaky vertical (its widgets go; the page stays).
///
/// `screenplay serve` starts it as a child process (`screenplay promotions`) on loopback.
public struct PromotionsService: Sendable {
    /// How slow and how flaky.
    public struct Behaviour: Sendable {
        /// Each answer waits a uniformly random time in this range.
        public var delay: ClosedRange<Duration>
        /// The share of calls answered with a 503.
        public var failureRate: Double

        /// 60...450 ms, one call in six failing: with the composer's 300 ms for this vertical,
        /// about a third of pages show no promotion.
        public init(delay: ClosedRange<Duration> = .milliseconds(60)...(.milliseconds(450)), failureRate: Double = 1.0 / 6) {
            self.delay = delay
            self.failureRate = failureRate
        }

        /// No delay, no failures: for tests that need the promotions on the page.
        public static let reliable = Behaviour(delay: .zero...(.zero), failureRate: 0)
    }

    let behaviour: Behaviour
    let logger: Logger

    /// A service behaving as `behaviour` says.
    public init(behaviour: Behaviour = Behaviour(), logger: Logger = Logger(label: "screenplay.promotions")) {
        self.behaviour = behaviour
        self.logger = logger
    }

    /// A promotion's answer: that it runs for this reader, and nothing more. Its words, picture
    /// and link are the layout's content, written by the product team in the admin (the
    /// composer fills them in); the vertical answers for what is its own, whether the promotion
    /// runs (a real one would check the reader's eligibility and the promotion's dates; this one
    /// runs every promotion it is asked about). A banner whose layout wrote no headline is then
    /// refused by the kind's contract, which the admin says on its card.
    static let running: JSONValue = ["type": "promoBanner"]

    /// The envelope answering `call`.
    static func answer(_ call: WidgetCall) throws -> [UInt8] {
        var widgets: [String: JSONValue] = [:]
        for instance in call.instances where instance.kind == "promoBanner" {
            widgets[instance.id] = running
        }
        return Array(try ScreenplayEncoder().encode(JSONValue.object(["widgets": .object(widgets)])))
    }

    /// The router: `POST /widgets`, `GET /health`.
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        let behaviour = self.behaviour
        let logger = self.logger
        router.post("widgets") { request, context -> Response in
            let body = try await request.body.collect(upTo: 64 * 1024)
            let call: WidgetCall
            do {
                call = try JSONDecoder().decode(WidgetCall.self, from: Data(body.readableBytesView))
            } catch {
                return Response(
                    status: .badRequest, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: #"{"error":"the body is not a widget call"}"#)))
            }
            let low = behaviour.delay.lowerBound, high = behaviour.delay.upperBound
            let delay = low + (high - low) * Double.random(in: 0...1)
            if delay > .zero { try await Task.sleep(for: delay) }
            if Double.random(in: 0..<1) < behaviour.failureRate {
                logger.info("failing on purpose", metadata: ["route": "\(call.route)"])
                return Response(
                    status: .serviceUnavailable, body: .init(byteBuffer: ByteBuffer(string: "promotions are down (on purpose)")))
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: try Self.answer(call))))
        }
        router.get("health") { _, _ in "ok" }
        return router
    }

    /// An application on `host:port` (0 picks a port; `onRunning` gets it).
    public func makeApplication(
        host: String = "127.0.0.1", port: Int = 0, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: makeRouter(), configuration: .init(address: .hostname(host, port: port), serverName: "Screenplay promotions"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) }, logger: logger)
    }
}
