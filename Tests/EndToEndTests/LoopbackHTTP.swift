import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Plain sockets on loopback for the tests where the socket is the point: a client from a chosen
/// address of 127/8 (all of it is loopback on Linux, so 127.0.0.2 is "another client"), timed
/// requests on one kept-alive connection, and floods of thousands of sockets.
///
/// Everything here blocks, so it runs on threads of its own (``onOwnThread(_:)``): the server
/// under test answers on the concurrency pool of this same process, two threads on two cores.
enum LoopbackHTTP {
    /// Failures, with the step and the `errno`.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ step: String) { description = "\(step): \(String(cString: strerror(errno))) (errno \(errno))" }
        init(message: String) { description = message }
    }

    /// An HTTP answer as read off the socket.
    struct Answer: Sendable {
        let status: Int
        let head: String
        let body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }

        /// A header's value (the first, case-insensitive).
        func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    /// Runs blocking work on a thread of its own, off the concurrency pool.
    static func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// Raises this process's soft limit on open files to at least `count` (up to the hard
    /// limit), for tests that open thousands of sockets; returns the limit in force.
    @discardableResult
    static func allowOpenFiles(_ count: Int) -> Int {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < rlim_t(count) {
            limit.rlim_cur = min(limit.rlim_max, rlim_t(count))
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(limit.rlim_cur)
    }

    /// A TCP socket from `source` (port chosen by the system) to 127.0.0.1:`port`; non-blocking
    /// sockets return at once, connected or still connecting.
    static func connect(port: Int, from source: String = "127.0.0.1", blocking: Bool = true) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket") }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw Failure("bind to \(source)")
        }
        if blocking {
            // A blocking connect gives up after 20 s (Linux applies the send timeout to it): a
            // server that stopped accepting fails the test rather than hanging it for minutes.
            var timeout = timeval(tv_sec: 20, tv_usec: 0)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        } else {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 || (!blocking && errno == EINPROGRESS) else {
            close(descriptor)
            throw Failure("connect to port \(port)")
        }
        return descriptor
    }

    /// Sends all of `text`.
    static func send(_ descriptor: Int32, _ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure("send") }
            bytes = bytes.dropFirst(sent)
        }
    }

    /// Reads one answer (head, then a `Content-Length` body unless it answers a `HEAD`) within
    /// `seconds`; `nil` if the connection closed first or nothing came in time.
    static func readAnswer(_ descriptor: Int32, within seconds: Double, buffered: inout [UInt8], toHead: Bool = false) -> Answer? {
        let deadline = Date().addingTimeInterval(seconds)
        func fill() -> Bool {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let wait = Int32(max(0, deadline.timeIntervalSinceNow * 1_000))
            guard poll(&poller, 1, wait) > 0 else { return false }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = recv(descriptor, &chunk, chunk.count, 0)
            guard count > 0 else { return false }
            buffered += chunk[..<count]
            return true
        }
        let blank: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            if let end = (0..<max(0, buffered.count - 3)).first(where: { Array(buffered[$0..<$0 + 4]) == blank }) {
                headEnd = end
            } else if !fill() {
                return nil
            }
        }
        let head = String(decoding: buffered[..<headEnd!], as: UTF8.self)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        let probe = Answer(status: status, head: head, body: [])
        let length = toHead ? 0 : probe.header("content-length").flatMap(Int.init) ?? 0
        let bodyStart = headEnd! + 4
        while buffered.count < bodyStart + length {
            guard fill() else { return nil }
        }
        let body = Array(buffered[bodyStart..<bodyStart + length])
        buffered.removeFirst(bodyStart + length)
        return Answer(status: status, head: head, body: body)
    }

    /// Whether the server closed the connection within `seconds` (a read returns end of file or
    /// an error); what it sent before is discarded.
    static func closedByServer(_ descriptor: Int32, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while deadline.timeIntervalSinceNow > 0 {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1_000))) > 0 else { return false }
            if recv(descriptor, &chunk, chunk.count, 0) <= 0 { return true }
        }
        return false
    }

    /// A kept-alive connection from `source` that sends `GET path` `count` times, one after
    /// another, and returns each answer's status and how long it took (seconds). A request that
    /// gets no answer within `timeout` ends the run with what was measured, and a last entry of
    /// status 0.
    static func timedGets(
        port: Int, path: String, count: Int, from source: String, timeout: Double
    ) throws -> [(status: Int, seconds: Double)] {
        var descriptor = try connect(port: port, from: source)
        defer { close(descriptor) }
        var buffered: [UInt8] = []
        var results: [(status: Int, seconds: Double)] = []
        for _ in 0..<count {
            let start = Date()
            var answer: Answer?
            if (try? send(descriptor, "GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n")) != nil {
                answer = readAnswer(descriptor, within: timeout, buffered: &buffered)
            }
            if answer == nil, Date().timeIntervalSince(start) < timeout {
                // The server closed a kept-alive connection (its idle timeout): once more, anew.
                close(descriptor)
                buffered = []
                descriptor = try connect(port: port, from: source)
                if (try? send(descriptor, "GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n")) != nil {
                    answer = readAnswer(descriptor, within: timeout - Date().timeIntervalSince(start), buffered: &buffered)
                }
            }
            results.append((answer?.status ?? 0, Date().timeIntervalSince(start)))
            if answer == nil { break }
        }
        return results
    }

    /// The `fraction` quantile (0.99: p99) of `values`, by the nearest rank.
    static func quantile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((fraction * Double(sorted.count)).rounded(.up)) - 1)]
    }
}

extension LoopbackHTTP {
    /// What became of the sockets of a flood.
    struct FloodOutcome: Sendable, CustomStringConvertible {
        /// Answered with a status before the server closed them (status → how many).
        var answered: [Int: Int] = [:]
        /// The body of one answer per status, to look at.
        var sampleBodies: [Int: String] = [:]
        /// Closed by the server without an answer, or never connected.
        var closedUnanswered = 0
        /// Still open, with nothing received.
        var open = 0

        var description: String { "answered \(answered), closed unanswered \(closedUnanswered), open \(open)" }
    }

    /// Opens `count` connections from `source` to `port` as fast as it can (non-blocking), and
    /// sends each the start of a request head that never ends (a slow-loris client), waiting at
    /// most `settle` seconds for the connections to be made. The sockets stay open; close them.
    static func flood(port: Int, count: Int, from source: String, settle: Double) throws -> [Int32] {
        var descriptors: [Int32] = []
        descriptors.reserveCapacity(count)
        for _ in 0..<count { descriptors.append(try connect(port: port, from: source, blocking: false)) }
        var pending = Set(descriptors)
        let deadline = Date().addingTimeInterval(settle)
        while !pending.isEmpty, deadline.timeIntervalSinceNow > 0 {
            var pollers = pending.map { pollfd(fd: $0, events: Int16(POLLOUT), revents: 0) }
            guard poll(&pollers, nfds_t(pollers.count), 100) >= 0 else { break }
            for poller in pollers where poller.revents != 0 {
                pending.remove(poller.fd)
                if poller.revents & Int16(POLLOUT) != 0, poller.revents & Int16(POLLERR | POLLHUP) == 0 {
                    _ = "GET /api/v5/screens/home HTTP/1.1\r\nHost: x\r\nX-Slow: ".withCString {
                        Glibc.send(poller.fd, $0, strlen($0), Int32(MSG_NOSIGNAL))
                    }
                }
            }
        }
        return descriptors
    }

    /// Reads what each of `descriptors` receives, without closing them: for at most `seconds`,
    /// or until no more than `settledAt` are still open with nothing received.
    static func survey(_ descriptors: [Int32], within seconds: Double, settledAt: Int = 0) -> FloodOutcome {
        var outcome = FloodOutcome()
        var received: [Int32: [UInt8]] = [:]
        var ended = Set<Int32>()
        let deadline = Date().addingTimeInterval(seconds)
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while deadline.timeIntervalSinceNow > 0,
            descriptors.count(where: { received[$0] == nil && !ended.contains($0) }) > settledAt
        {
            var pollers = descriptors.filter { !ended.contains($0) }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&pollers, nfds_t(pollers.count), 100) > 0 else { continue }
            for poller in pollers where poller.revents != 0 {
                let count = recv(poller.fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
                if count > 0 {
                    received[poller.fd, default: []] += chunk[..<count]
                } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                    ended.insert(poller.fd)
                }
            }
        }
        for descriptor in descriptors {
            if let bytes = received[descriptor] {
                let text = String(decoding: bytes, as: UTF8.self)
                let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
                outcome.answered[status, default: 0] += 1
                if outcome.sampleBodies[status] == nil, let blank = text.range(of: "\r\n\r\n") {
                    outcome.sampleBodies[status] = String(text[blank.upperBound...])
                }
            } else if ended.contains(descriptor) {
                outcome.closedUnanswered += 1
            } else {
                outcome.open += 1
            }
        }
        return outcome
    }
}
