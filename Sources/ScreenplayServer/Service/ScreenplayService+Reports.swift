import Foundation
import HTTPTypes
import Logging
public import ScreenplayContract

/// Reports, `POST {prefix}/v{N}/reports` (v6): the events an app saw happen (``ClientEvent``), in
/// batches of at most ``ClientEvent/Limits/eventsPerBatch``.
///
/// The request: `{"events": [{"id": "…", "kind": "visible", "key": "shop/offer:12", "screen":
/// "shop", "at": "2026-11-28T05:40:12.345Z"}, …]}`. The answer, a ``ClientEventReceipt``:
/// `{"stored": 3, "repeated": 1, "refused": [{"path": "$.events[2].kind", "reason": "…"}]}`.
///
/// - A body that is not a batch (not JSON, not an object with an `events` array, more events
///   than a batch holds) is refused whole, naming where (`400`, `413`, `415`, `422`): a client
///   drops it.
/// - An event that breaks a rule is refused alone, at its path, and the rest are stored: one bad
///   event never costs its neighbours, and a client resending the batch would not fix it.
/// - Events are the sender's: a client without a token gets an identity (and its token), as a
///   command that creates one does, so a new listener's first plays count.
/// - Storing is idempotent per user and event id (the sink's promise): resent, nothing doubles.
extension ScreenplayService {
    /// Answers a batch of reports.
    func report(_ request: HTTPRequest, at endpoint: APIEndpoint, body: [UInt8]) async throws(ScreenplayError) -> Response {
        guard endpoint.version >= ClientEvent.introduced else {
            throw .notFound(
                "reports are part of API v\(ClientEvent.introduced.rawValue) and later; v\(endpoint.version.rawValue) has none",
                path: request.path)
        }
        guard let reports else { throw .notFound("this server keeps no reports", path: request.path) }
        let root = try JSONRequestBody.parse(body, contentType: request.headerFields[.contentType])
        let batch: (events: [ClientEvent], refused: [ClientEventBatch.Refusal], repeated: Int)
        do {
            batch = try ClientEventBatch.read(root, now: Date())
        } catch {
            throw ScreenplayError(status: .unprocessableContent, code: "invalidField", message: error.reason, path: error.path)
        }
        // Nothing to keep (an empty batch, or every event refused): answered without resolving
        // anyone, so no identity is made for it.
        guard !batch.events.isEmpty else {
            return try Self.receipt(ClientEventReceipt(stored: 0, repeated: batch.repeated, refused: batch.refused), token: nil, version: endpoint.version, versions: versions)
        }
        let resolved = try await identity(of: request, creating: true, doing: "reporting")
        let counts: (stored: Int, repeated: Int)
        do {
            counts = try await reports.store(batch.events, from: resolved.user, receivedAt: Date())
        } catch let error as any ScreenplayErrorConvertible {
            throw error.screenplayError
        } catch {
            logger.error("storing reports failed", metadata: ["error": "\(error)"])
            throw .unavailable(code: "reportsUnavailable", "the reports could not be stored now; send them again later", retryAfter: 5)
        }
        let receipt = ClientEventReceipt(stored: counts.stored, repeated: counts.repeated + batch.repeated, refused: batch.refused)
        return try Self.receipt(receipt, token: resolved.issuedToken, version: endpoint.version, versions: versions)
    }

    /// The answer carrying `receipt`, and `token` when this request made the identity.
    static func receipt(
        _ receipt: ClientEventReceipt, token: String?, version: APIVersion, versions: APIVersionPolicy
    ) throws(ScreenplayError) -> Response {
        let bytes: [UInt8]
        do {
            bytes = Array(try ScreenplayEncoder().encode(receipt))
        } catch {
            throw .internalError("the server could not write the receipt")
        }
        var head = jsonHead(cacheControl: "no-store")
        if let token { head.headerFields[tokenHeader] = token }
        versions.addDeprecation(to: &head, version: version)
        return Response(head: head, body: bytes)
    }

    /// The reports' own shapes (not part of the screen contract), for the OpenAPI description:
    /// `ReportBatch` and `ReportReceipt` (the web site's route sends the same).
    public static let reportSchemas: [String: JSONValue] = {
        let identifier = { (maximum: Int) -> JSONValue in ["type": "string", "pattern": .string("^[A-Za-z0-9._:/~-]{1,\(maximum)}$")] }
        return [
            // Each event is checked alone and one that breaks a rule is refused in the receipt, the
            // rest stored: so a batch's items are any value (a `ReportEvent` is what is stored).
            "ReportBatch": [
                "type": "object", "required": ["events"],
                "properties": [
                    "events": [
                        "type": "array", "maxItems": .integer(ClientEvent.Limits.eventsPerBatch),
                        "items": [
                            "anyOf": [["$ref": "#/$defs/ReportEvent"], [:]],
                            "description": "A ReportEvent; anything else is refused alone, at its path, in the receipt.",
                        ],
                    ]
                ],
            ],
            "ReportEvent": [
                "type": "object", "required": ["id", "kind", "key", "at"],
                "properties": [
                    "id": identifier(ClientEvent.Limits.idLength),
                    "kind": ["type": "string", "enum": .array(ClientEvent.Kind.allCases.map { .string($0.rawValue) })],
                    "key": identifier(ClientEvent.Limits.keyLength),
                    "screen": ["type": ["string", "null"], "maxLength": .integer(ClientEvent.Limits.screenLength)],
                    "at": ["type": "string", "format": "date-time", "description": "No more than 30 days before the server's time, nor a day after."],
                ],
            ],
            "ReportReceipt": [
                "type": "object", "required": ["stored", "repeated", "refused"],
                "properties": [
                    "stored": ["type": "integer", "minimum": 0],
                    "repeated": ["type": "integer", "minimum": 0],
                    "refused": [
                        "type": "array",
                        "items": ["type": "object", "required": ["path", "reason"], "properties": ["path": ["type": "string"], "reason": ["type": "string"]]],
                    ],
                ],
            ],
        ]
    }()
}
