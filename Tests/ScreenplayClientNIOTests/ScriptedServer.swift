import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A loopback server that answers every connection with the same script of raw bytes, so tests
/// can send what no well-behaved HTTP server would: garbage, heads too large, bodies cut short,
/// answers that never come. It records each request as it arrived (head and body, as text) and
/// whether the client closed its side.
final class ScriptedServer: Sendable {
    /// One step of the answer.
    enum Step: Sendable {
        /// Bytes written as they are.
        case bytes([UInt8])
        /// Waits before the next step.
        case pause(Duration)
        /// Sends nothing more and waits until the client closes the connection.
        case holdUntilClientCloses

        /// Text written as UTF-8 (write `\r\n` yourself).
        static func text(_ text: String) -> Step { .bytes(Array(text.utf8)) }
    }

    private let script: [Step]
    private let recorded = Mutex<[String]>([])
    private let closedByClient = Atomic(0)

    private init(script: [Step]) { self.script = script }

    /// Each request so far: its head and body as text.
    var requests: [String] { recorded.withLock { $0 } }
    /// How many connections the client closed while the server was still holding them open.
    var connectionsClosedByClient: Int { closedByClient.load(ordering: .acquiring) }

    /// Runs a server answering with `script` on a loopback port for the length of `body`, which
    /// gets the server's root (`127.0.0.1:PORT`).
    static func run<Result: Sendable>(
        _ script: [Step], _ body: (_ authority: String, _ server: ScriptedServer) async throws -> Result
    ) async throws -> Result {
        let server = ScriptedServer(script: script)
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let port = listener.channel.localAddress?.port ?? 0
        let serving = Task {
            try await listener.executeThenClose { connections in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in connections {
                        group.addTask { try? await server.answer(connection) }
                    }
                }
            }
        }
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await body("127.0.0.1:\(port)", server))
        } catch {
            outcome = .failure(error)
        }
        serving.cancel()
        _ = await serving.result
        return try outcome.get()
    }

    /// A port nothing listens on (bound, then closed): connecting to it is refused.
    static func closedPort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }

    /// Reads one request (its head, then `Content-Length` bytes of body), records it, then plays
    /// the script.
    private func answer(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async throws {
        try await connection.executeThenClose { inbound, outbound in
            var iterator = inbound.makeAsyncIterator()
            var received: [UInt8] = []
            let separator = Array("\r\n\r\n".utf8)
            var headEnd: Int?
            while headEnd == nil {
                guard let buffer = try await iterator.next() else { return }
                received += buffer.readableBytesView
                headEnd = Self.firstIndex(of: separator, in: received).map { $0 + separator.count }
            }
            let head = String(decoding: received[..<headEnd!], as: UTF8.self)
            let length =
                head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            while received.count < headEnd! + length {
                guard let buffer = try await iterator.next() else { break }
                received += buffer.readableBytesView
            }
            recorded.withLock { $0.append(String(decoding: received, as: UTF8.self)) }
            for step in script {
                switch step {
                case .bytes(let bytes):
                    try await outbound.write(ByteBuffer(bytes: bytes))
                case .pause(let duration):
                    try await Task.sleep(for: duration)
                case .holdUntilClientCloses:
                    while try await iterator.next() != nil {}
                    closedByClient.add(1, ordering: .releasing)
                    return
                }
            }
        }
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
