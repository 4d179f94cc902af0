import Hummingbird
import NIOCore
import ScreenplayAdmin
public import ScreenplayContract
import ScreenplayHummingbird
import ScreenplayOpenAPI
public import ScreenplayServer
import Synchronization

extension DemoApp {
    /// The API's route table and the description's own route: with `version`, the paths name it
    /// (what the description of one version lists); without, the version is a parameter.
    public func apiRoutes(version: APIVersion? = nil) -> RouteTable {
        var table = service.routeTable(version: version)
        table.add(OpenAPIDescription.route(prefix: service.configuration.pathPrefix))
        return table
    }

    /// The OpenAPI 3.1 description of the demo's API at `version` (JSON; `pretty` for files):
    /// what `GET /api/openapi.json` answers and `screenplay openapi` writes.
    public func openAPIDescription(version: APIVersion = .latest, pretty: Bool = false) throws -> [UInt8] {
        try OpenAPIDescription.json(
            tables: [apiRoutes(version: version)], version: version, title: "Screenplay demo",
            summary: "The demo's public API: screens, commands, the screen event stream and the offline sync.",
            appKinds: Self.appDefinedKinds, pretty: pretty)
    }

    /// The OpenAPI 3.1 description of the layout admin's JSON API (``AdminAPI/routeTable(prefix:)``):
    /// what `screenplay openapi --site admin` writes. Every operation needs an admin API token.
    public func adminAPIDescription(pretty: Bool = false) throws -> [UInt8] {
        try Self.adminAPIDescription(adminAPI.routes, pretty: pretty)
    }

    /// ``adminAPIDescription(pretty:)`` for the admin API whose routes are `table`: what it
    /// answers at `GET {prefix}/openapi.json` (made once, then kept: the table does not change).
    static func adminAPIDescription(_ table: RouteTable, pretty: Bool = false) throws -> [UInt8] {
        try OpenAPIDescription.json(
            tables: [table], version: .latest, title: "Screenplay layout admin API",
            summary: "Pages, drafts and their edits, publish, rollback, widget switches, previews, experiments, the audit log and tokens. "
                + "Every request carries an admin API token (`screenplay admin create-token NAME`).",
            appKinds: Self.appDefinedKinds, pretty: pretty)
    }

    /// Registers `GET {prefix}/openapi.json`: the description of the latest version, made on the
    /// first request and kept (the tables do not change while the server runs).
    func addOpenAPIRoute(to router: Router<ScreenplayRequestContext>) {
        let made = Mutex<ByteBuffer?>(nil)
        let demo = self
        router.get(RouterPath(OpenAPIDescription.route(prefix: service.configuration.pathPrefix).path.description)) { _, _ in
            let body = try made.withLock { made in
                if let made { return made }
                let bytes = ByteBuffer(bytes: try demo.openAPIDescription())
                made = bytes
                return bytes
            }
            return Response(
                status: .ok,
                headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache", ScreenplayService.contentTypeOptions: "nosniff"],
                body: .init(byteBuffer: body))
        }
    }
}
