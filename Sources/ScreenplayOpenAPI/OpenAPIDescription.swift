import Foundation
import HTTPTypes
public import ScreenplayContract
import ScreenplayContractTools
public import ScreenplayServer

/// An OpenAPI 3.1 description of the routes a host serves, generated from their route tables
/// (``RouteTable``), so what is documented is what is served.
///
/// Bodies refer to the contract's JSON Schemas for one API version (OpenAPI 3.1 schemas are JSON
/// Schema 2020-12, the contract's dialect): `Screen`, `CommandResult`, the command request and
/// `ErrorBody`, with every definition they use, under `components/schemas`; shapes a site defines
/// itself (``RouteTable/schemas``) join them. Each operation carries its policy as
/// `x-screenplay-policy` (callers, the cross-site rule, the admission budget, the body limit) and
/// its callers as `security`.
public enum OpenAPIDescription {
    /// The path of the description itself (under the API's prefix): `api/openapi.json`.
    public static func route(prefix: String = "/api") -> SiteRoute {
        let path = (prefix.split(separator: "/").map(String.init) + ["openapi.json"]).joined(separator: "/")
        return SiteRoute(
            .get, path, operation: "openAPIDescription", summary: "This description (OpenAPI 3.1, JSON).",
            policy: RequestPolicy(callers: [.anonymous]),
            answers: [RouteAnswer(.ok, "The description.", body: .bytes(mediaType: "application/json"))])
    }

    /// The description of `tables` for API `version`, titled `title`. `appKinds` are the app's
    /// own component kinds, added to the contract's schemas as ``ContractSchema`` adds them.
    ///
    /// - Throws: what ``ContractSchema/document(for:appKinds:)`` throws.
    public static func document(
        tables: [RouteTable], version: APIVersion, title: String, summary: String = "", appKinds: [AppDefinedKind] = []
    ) throws -> JSONValue {
        var schemas: [String: JSONValue] = [:]
        let contract = try ContractSchema.document(for: version, appKinds: appKinds)
        for (name, schema) in contract.objectValue?["$defs"]?.objectValue ?? [:] { schemas[name] = referencingComponents(schema) }
        for table in tables {
            for (name, schema) in table.schemas { schemas[name] = referencingComponents(schema) }
        }

        var paths: [String: JSONValue] = [:]
        var order: [String] = []
        for table in tables {
            for route in table.routes {
                let path = "/" + route.path.templateSegments.joined(separator: "/")
                if paths[path] == nil { order.append(path) }
                var item = paths[path]?.objectValue ?? [:]
                item[route.method.rawValue.lowercased()] = operation(route, site: table.site)
                paths[path] = .object(item)
            }
        }

        return [
            "openapi": "3.1.0",
            "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
            "info": [
                "title": .string(title),
                "version": .string("v\(version.rawValue)"),
                "description": .string(
                    (summary.isEmpty ? "" : summary + "\n\n")
                        + "Generated from the server's route tables. Bodies are those of API v\(version.rawValue); "
                        + "every error is JSON with a `code` (`ErrorBody`)."),
            ],
            "tags": .array(tables.map { ["name": .string($0.site)] }),
            "paths": .object(paths),
            "components": [
                "schemas": .object(schemas),
                "securitySchemes": .object(securitySchemes(used: Set(tables.flatMap { $0.routes.flatMap(\.policy.callers) }))),
            ],
        ]
    }

    /// ``document(tables:version:title:summary:appKinds:)`` as key-sorted JSON bytes.
    public static func json(
        tables: [RouteTable], version: APIVersion, title: String, summary: String = "", appKinds: [AppDefinedKind] = [], pretty: Bool = false
    ) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        let document = try document(tables: tables, version: version, title: title, summary: summary, appKinds: appKinds)
        return Array(try encoder.encode(document)) + (pretty ? [UInt8(ascii: "\n")] : [])
    }

    /// One route as an operation.
    static func operation(_ route: SiteRoute, site: String) -> JSONValue {
        var operation: [String: JSONValue] = [
            "operationId": .string(route.operation),
            "summary": .string(route.summary),
            "tags": [.string(site)],
            "security": .array(security(route.policy.callers)),
            "x-screenplay-policy": [
                "callers": .array(route.policy.callers.sorted().map { .string($0.rawValue) }),
                "crossSite": .string(route.policy.crossSite.rawValue),
                "admission": .string(route.policy.admission.rawValue),
                "bodyLimit": .integer(route.policy.bodyLimit),
            ],
        ]
        if !route.parameters.isEmpty {
            operation["parameters"] = .array(
                route.parameters.map { parameter in
                    [
                        "name": .string(parameter.name), "in": .string(parameter.location.rawValue), "required": .bool(parameter.required),
                        "description": .string(parameter.summary), "schema": parameter.schema,
                    ]
                })
        }
        if let content = content(route.request) {
            operation["requestBody"] = ["required": .bool(!route.requestIsOptional), "content": content]
        }
        var responses: [String: JSONValue] = [:]
        for answer in route.answers {
            var response: [String: JSONValue] = ["description": .string(answer.summary)]
            if let content = content(answer.body) { response["content"] = content }
            if !answer.headers.isEmpty {
                response["headers"] = .object(
                    Dictionary(uniqueKeysWithValues: answer.headers.map { ($0, ["schema": ["type": "string"]] as JSONValue) }))
            }
            responses[String(answer.status.code)] = .object(response)
        }
        // Whatever else a route answers is an error in the one shape (a handler's own 4xx, a 500).
        if route.method != .head {
            responses["default"] = ["description": "Any other error.", "content": ["application/json": ["schema": reference(.error)]]]
        } else {
            responses["default"] = ["description": "Any other error (no body: HEAD)."]
        }
        operation["responses"] = .object(responses)
        return .object(operation)
    }

    /// The `content` of a body, or `nil` for none.
    static func content(_ body: RouteBody) -> JSONValue? {
        switch body {
        case .none: nil
        case .json(let schema): ["application/json": ["schema": reference(schema)]]
        case .eventStream: ["text/event-stream": ["schema": ["type": "string"]]]
        case .html: ["text/html": ["schema": ["type": "string"]]]
        case .form: ["application/x-www-form-urlencoded": ["schema": ["type": "object", "additionalProperties": ["type": "string"]]]]
        case .bytes(let mediaType): .object([mediaType: ["schema": ["type": "string"]]])
        }
    }

    /// A reference to a component schema.
    static func reference(_ schema: RouteSchema) -> JSONValue {
        ["$ref": .string("#/components/schemas/" + schema.rawValue)]
    }

    /// The security schemes of the callers the tables name.
    static func securitySchemes(used callers: Set<RequestPolicy.Caller>) -> [String: JSONValue] {
        var schemes: [String: JSONValue] = [:]
        if callers.contains(.user) {
            schemes["userToken"] = ["type": "http", "scheme": "bearer", "description": "An identity's token (the Screenplay-Token of its first command)."]
            schemes["userCookie"] = ["type": "apiKey", "in": "cookie", "name": .string(ScreenplayService.tokenCookie)]
        }
        if callers.contains(.adminToken) {
            schemes["adminToken"] = ["type": "http", "scheme": "bearer", "description": "An admin API token."]
        }
        if callers.contains(.adminSession) {
            schemes["adminSession"] = ["type": "apiKey", "in": "cookie", "name": "screenplay_admin_session"]
        }
        return schemes
    }

    /// The `security` requirements of a route's callers: `{}` (none) for anonymous callers.
    static func security(_ callers: Set<RequestPolicy.Caller>) -> [JSONValue] {
        callers.sorted().flatMap { caller -> [JSONValue] in
            switch caller {
            case .anonymous: [[:]]
            case .user: [["userToken": []], ["userCookie": []]]
            case .adminSession: [["adminSession": []]]
            case .adminToken: [["adminToken": []]]
            }
        }
    }

    /// `schema` with its references to the contract's `#/$defs/…` pointing at `#/components/schemas/…`.
    static func referencingComponents(_ schema: JSONValue) -> JSONValue {
        switch schema {
        case .object(let members):
            var rewritten: [String: JSONValue] = [:]
            for (key, value) in members {
                if key == "$ref", case .string(let target) = value, target.hasPrefix("#/$defs/") {
                    rewritten[key] = .string("#/components/schemas/" + target.dropFirst("#/$defs/".count))
                } else {
                    rewritten[key] = referencingComponents(value)
                }
            }
            return .object(rewritten)
        case .array(let values): return .array(values.map(referencingComponents))
        default: return schema
        }
    }
}
