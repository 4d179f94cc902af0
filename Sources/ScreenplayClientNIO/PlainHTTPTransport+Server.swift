import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PlainHTTPTransport {
    /// Where a request goes: the host and port of its authority, and how errors name it.
    struct Server: Sendable, CustomStringConvertible {
        let host: String
        let port: Int
        /// The authority as the request gave it (`127.0.0.1:8080`), for messages.
        let description: String

        /// The server `request` names; refuses `https://` (no TLS here) and anything that is not
        /// an `http://` request with a host and a path.
        init(of request: HTTPRequest) throws {
            let scheme = request.scheme?.lowercased() ?? "http"
            guard let authority = request.authority, !authority.isEmpty, request.path != nil else {
                throw PlainHTTPError(.badRequest, "the request has no host or path to send to")
            }
            guard scheme == "http" else {
                if scheme == "https" {
                    throw PlainHTTPError(
                        .tlsRequired,
                        "https://\(authority) needs TLS, which this plain HTTP transport does not have; "
                            + "use a TLS transport such as AsyncHTTPClientTransport (ScreenplayClientAsyncHTTPClient)")
                }
                throw PlainHTTPError(.badRequest, "'\(scheme)://\(authority)' is not an http:// address")
            }
            guard let (host, port) = Self.hostAndPort(authority) else {
                throw PlainHTTPError(.badRequest, "'\(authority)' is not a host with an optional port")
            }
            self.host = host
            self.port = port
            self.description = authority
        }

        /// `host`, `host:port`, `[v6]` or `[v6]:port` (any `user@` dropped); port 80 when absent.
        static func hostAndPort(_ authority: String) -> (String, Int)? {
            let hostPort = authority.split(separator: "@", omittingEmptySubsequences: false).last.map(String.init) ?? authority
            var host = hostPort
            var portText: Substring?
            if hostPort.hasPrefix("[") {
                guard let close = hostPort.firstIndex(of: "]") else { return nil }
                host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
                let rest = hostPort[hostPort.index(after: close)...]
                if !rest.isEmpty {
                    guard rest.hasPrefix(":") else { return nil }
                    portText = rest.dropFirst()
                }
            } else if let colon = hostPort.lastIndex(of: ":") {
                host = String(hostPort[..<colon])
                portText = hostPort[hostPort.index(after: colon)...]
            }
            guard !host.isEmpty else { return nil }
            guard let portText else { return (host, 80) }
            guard let port = Int(portText), (1...65_535).contains(port) else { return nil }
            return (host, port)
        }

        /// Runs `body`, turning what NIO throws mid-exchange into ``PlainHTTPError``s that name
        /// this server; the transport's own errors and cancellation pass through.
        func translatingErrors<Result>(_ body: () async throws -> Result) async throws -> Result {
            do {
                return try await body()
            } catch let error as PlainHTTPError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch HTTPParserError.invalidEOFState {
                // The parser's word for a connection that ended mid-answer.
                throw PlainHTTPError(.closedEarly, "\(self) closed the connection before its answer ended")
            } catch let error as HTTPParserError {
                throw PlainHTTPError(.malformedResponse, "\(self) sent an answer that is not HTTP/1.1 (\(error))")
            } catch let error as HTTP1TypeConversionError {
                throw PlainHTTPError(.malformedResponse, "\(self) sent a response head that cannot be read (\(error))")
            } catch let error as ChannelError where error == .eof || error == .ioOnClosedChannel || error == .alreadyClosed {
                throw PlainHTTPError(.closedEarly, "\(self) closed the connection before its answer ended")
            } catch let error as IOError {
                throw PlainHTTPError(.closedEarly, "the connection to \(self) failed: \(Self.reason(error))")
            }
        }

        /// A short reason for a failed connection: "connection refused", not NIO's whole record.
        static func reason(_ error: any Error) -> String {
            switch error {
            case let error as NIOConnectionError:
                if let dns = error.dnsAError ?? error.dnsAAAAError { return "no address for \(error.host) (\(dns))" }
                if let first = error.connectionErrors.first { return reason(first.error) }
                return "no address to connect to"
            case let error as IOError:
                return String(cString: strerror(error.errnoCode)).lowercased()
            case let error as ChannelError:
                if case .connectTimeout = error { return "no connection in time" }
                return "\(error)"
            default:
                return "\(error)"
            }
        }
    }
}
