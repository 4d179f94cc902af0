import HTTPTypes
import Logging
import ScreenplayContract

/// Who may send a command now: the first step of every command, before its body is read.
///
/// - A command that authenticates with the browser's cookie (no `Authorization`) must say it came
///   from this site: a browser sends cookies with cross-site form posts.
/// - Each sender spends from a budget: commands per token; for a client without a token (whose
///   first command creates an identity), new identities per client address (when known) and for
///   the whole process; for a client without a token sending a command that creates none
///   (``ScreenplayRoutes/CommandIdentity/anonymous``), commands per client address (or, when the
///   host does not say it, one budget shared by every such client). Past it: a 429 with
///   `Retry-After`.
struct CommandAdmission: Sendable {
    let commands: RateLimiter
    let identities: RateLimiter
    let identitiesPerAddress: RateLimiter
    let logger: Logger

    init(configuration: ScreenplayService.Configuration, logger: Logger) {
        commands = RateLimiter(rate: configuration.commandRate.perSecond, burst: configuration.commandRate.burst)
        identities = RateLimiter(
            rate: configuration.identityCreationRate.perSecond, burst: configuration.identityCreationRate.burst, capacity: 1)
        identitiesPerAddress = RateLimiter(
            rate: configuration.identityCreationPerAddress.perSecond, burst: configuration.identityCreationPerAddress.burst)
        self.logger = logger
    }

    /// Spends one command from the sender's budget, or throws the 429 that says how long to wait.
    /// `createsIdentity`: whether the command makes an identity for a client without a token.
    func admit(from headers: HTTPFields, clientAddress: String?, createsIdentity: Bool = true) throws(ScreenplayError) {
        let wait: Duration?
        let what: String
        if let token = ScreenplayService.token(in: headers) {
            wait = commands.spend(ETag.strong(for: Array(token.utf8)))
            what = "commands from this client"
        } else if !createsIdentity {
            // Keys of their own: a token's key is a digest of the token, never one of these.
            wait = commands.spend(clientAddress.map { "address " + $0 } ?? "anonymous clients")
            what = clientAddress == nil ? "commands without a token" : "commands from this address"
        } else if let clientAddress, let addressWait = identitiesPerAddress.spend(clientAddress) {
            wait = addressWait
            what = "new identities from this address"
        } else {
            wait = identities.spend("new identities")
            what = "new identities"
        }
        guard let wait else { return }
        let seconds = max(1, Int((Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18).rounded(.up)))
        logger.notice("rate limited", metadata: ["what": "\(what)", "retryAfter": "\(seconds)"])
        throw .tooManyRequests("too many \(what); retry in \(seconds) s", retryAfter: seconds)
    }

    /// Why a command that authenticates with the browser's cookie (no `Authorization`) is
    /// refused for its media type, if it is: it must be JSON, which a cross-site form cannot send
    /// without a preflight, whatever its body (the cookie rule's second layer, after
    /// ``RequestPolicy/CrossSiteRule/cookieWrites``). Apps, which send `Authorization`, are not
    /// affected.
    static func jsonRefusal(_ request: HTTPRequest) -> ScreenplayError? {
        guard request.headerFields[.authorization] == nil,
            request.headerFields[values: .cookie].contains(where: { $0.contains(ScreenplayService.tokenCookie + "=") })
        else { return nil }
        let mediaType = request.headerFields[.contentType]?.split(separator: ";").first.map {
            $0.trimmingWhitespaceSubstring().lowercased()
        }
        guard mediaType == "application/json" else {
            return .crossSiteRequest("a command with this site's cookie must be sent as application/json, even when empty")
        }
        return nil
    }
}
