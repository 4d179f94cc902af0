public import Foundation
public import HTTPTypes

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport over Foundation's `URLSession`: the default on Apple platforms, and on Linux a
/// client with no HTTP stack to build (the command line uses it).
///
/// The session has no URL cache: the client core owns caching and revalidation, and a 304 must
/// reach it as a 304.
public struct URLSessionTransport: ScreenTransport {
    let session: URLSession
    let maximumResponseSize: Int

    /// Creates a transport with an ephemeral, cache-free session.
    ///
    /// - Parameters:
    ///   - timeout: Per-request deadline, in seconds.
    ///   - maximumResponseSize: Responses larger than this fail instead of being handed on.
    public init(timeout: TimeInterval = 30, maximumResponseSize: Int = 32 * 1024 * 1024) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // The request timeout is an idle timeout; the resource timeout bounds the whole exchange,
        // so a server that drips bytes cannot hold a caller forever.
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 2
        self.session = URLSession(configuration: configuration)
        self.maximumResponseSize = maximumResponseSize
    }

    /// Sends the request and returns the response with its whole body. The size limit is checked
    /// once the body is in (Foundation's completion API buffers it); a streaming check is left
    /// for a delegate-based version.
    public func send(_ request: HTTPRequest, body: [UInt8]?) async throws -> (HTTPResponse, [UInt8]) {
        let scheme = request.scheme ?? "http"
        guard let url = URL(string: "\(scheme)://\(request.authority ?? "localhost")\(request.path ?? "/")") else {
            throw URLError(.badURL)
        }
        var outgoing = URLRequest(url: url)
        outgoing.httpMethod = request.method.rawValue
        for field in request.headerFields { outgoing.addValue(field.value, forHTTPHeaderField: field.name.rawName) }
        if let body { outgoing.httpBody = Data(body) }
        let limit = maximumResponseSize
        let (data, response): (Data, URLResponse) = try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: outgoing) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let response {
                    continuation.resume(returning: (data ?? Data(), response))
                } else {
                    continuation.resume(throwing: URLError(.badServerResponse))
                }
            }.resume()
        }
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        guard data.count <= limit else { throw URLError(.dataLengthExceedsMaximum) }
        var fields = HTTPFields()
        for (name, value) in http.allHeaderFields {
            if let text = name as? String, let name = HTTPField.Name(text), let value = value as? String {
                fields.append(HTTPField(name: name, value: value))
            }
        }
        return (HTTPResponse(status: .init(code: http.statusCode), headerFields: fields), Array(data))
    }
}
