public import ScreenplayContract

/// Why loading a screen or performing a command failed, in words a screen can show.
public struct ClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: Sendable, Hashable {
        /// The request never got an answer (offline, refused, timed out).
        case transport
        /// The server answered with an error status; `body` is its JSON error when it sent one.
        case server(status: Int, body: ErrorBody?)
        /// The answer was not a screen (or result) this client can read.
        case decoding(ScreenplayDecodingError)
        /// The URL was refused by the link policy.
        case invalidURL
        /// The request could not be built (a payload that cannot take a prompt's text).
        case invalidRequest
        /// The app is offline (``ScreenLoader/setOffline(_:)``) and this needs the server: a
        /// command, or a screen with no offline copy. Nothing was sent.
        case offline
    }

    /// What kind of failure.
    public let kind: Kind
    /// What happened, for people.
    public let message: String

    /// Creates an error.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }

    /// The HTTP status when the server answered, else `nil`.
    public var status: Int? {
        if case .server(let status, _) = kind { return status }
        return nil
    }
}
