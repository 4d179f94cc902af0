import Foundation

/// Where a PostgreSQL database is, from the URL an operator gives (`--database` or
/// `SCREENPLAY_DATABASE_URL`), in libpq's form:
///
/// - `postgres://USER:PASSWORD@HOST:PORT/DATABASE` (also `postgresql://`); the port defaults to
///   5432, the user to `postgres`, the database to the user's name;
/// - `?host=/run/postgresql` connects through the Unix socket in that folder instead;
/// - `?sslmode=disable|prefer|require` (default `prefer` over TCP; a socket never uses TLS);
/// - `?schema=NAME` puts every table in schema `NAME` (its `search_path`), so several
///   deployments, or test runs, share one database without seeing each other's rows.
///
/// A malformed URL is refused with what is wrong and which part.
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    /// How the connection is made.
    public enum Endpoint: Sendable, Hashable {
        /// TCP to a host and port.
        case tcp(host: String, port: Int)
        /// The server's Unix socket file (`DIRECTORY/.s.PGSQL.PORT`).
        case socket(path: String)
    }

    /// Whether TLS is used over TCP.
    public enum TLSMode: String, Sendable, Hashable {
        /// Never.
        case disable
        /// When the server offers it.
        case prefer
        /// Always; a server without TLS is refused.
        case require
    }

    /// How the connection is made.
    public var endpoint: Endpoint
    /// The role to connect as.
    public var username: String
    /// Its password, when the server asks for one.
    public var password: String?
    /// The database's name.
    public var database: String
    /// TLS over TCP.
    public var tls: TLSMode
    /// The schema every table lives in (`nil`: the server's default search path).
    public var schema: String?

    /// A location; prefer ``init(url:)`` for what operators type.
    public init(endpoint: Endpoint, username: String, password: String? = nil, database: String, tls: TLSMode = .prefer, schema: String? = nil) {
        self.endpoint = endpoint
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
        self.schema = schema
    }

    /// Why a URL names no PostgreSQL database.
    public struct InvalidURL: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, naming the part of the URL.
        public let message: String
        /// `invalid database URL: …`.
        public var description: String { "invalid database URL: \(message)" }
    }

    /// Parses `url`.
    ///
    /// - Throws: ``InvalidURL`` naming the part that is wrong (scheme, port, query parameter…).
    public init(url: String) throws(InvalidURL) {
        guard let components = URLComponents(string: url) else {
            throw InvalidURL(message: "'\(Self.redacted(url))' is not a URL (expected postgres://USER:PASSWORD@HOST:PORT/DATABASE)")
        }
        guard let scheme = components.scheme?.lowercased(), ["postgres", "postgresql"].contains(scheme) else {
            throw InvalidURL(message: "the scheme must be postgres:// or postgresql://, got '\(components.scheme ?? "")'")
        }
        let username = components.percentEncodedUser.flatMap { $0.removingPercentEncoding } ?? "postgres"
        guard !username.isEmpty else { throw InvalidURL(message: "the user name is empty") }
        let password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        var path = components.percentEncodedPath
        if path.hasPrefix("/") { path.removeFirst() }
        guard !path.contains("/") else { throw InvalidURL(message: "the path must be one database name, got '\(path)'") }
        let database = path.removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 } ?? username
        if let port = components.port, !(1...65_535).contains(port) {
            throw InvalidURL(message: "the port must be 1...65535, got \(port)")
        }
        let port = components.port ?? 5432
        var socketFolder: String?
        var tls = TLSMode.prefer
        var schema: String?
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "host":
                guard value.hasPrefix("/") else { throw InvalidURL(message: "?host= must be the socket's folder, an absolute path; got '\(value)'") }
                socketFolder = value
            case "sslmode":
                guard let mode = TLSMode(rawValue: value) else {
                    throw InvalidURL(message: "?sslmode= must be disable, prefer or require; got '\(value)'")
                }
                tls = mode
            case "schema":
                guard Self.isPlainIdentifier(value) else {
                    throw InvalidURL(message: "?schema= must be letters, digits and _ (not starting with a digit), at most 63; got '\(value)'")
                }
                schema = value
            default:
                throw InvalidURL(message: "unknown query parameter '\(item.name)' (known: host, sslmode, schema)")
            }
        }
        let endpoint: Endpoint
        if let socketFolder {
            endpoint = .socket(path: (socketFolder as NSString).appendingPathComponent(".s.PGSQL.\(port)"))
        } else {
            guard let host = components.host, !host.isEmpty else {
                throw InvalidURL(message: "no host (postgres://USER@HOST/DATABASE, or ?host=/socket/folder)")
            }
            endpoint = .tcp(host: host, port: port)
        }
        self.init(endpoint: endpoint, username: username, password: password, database: database, tls: tls, schema: schema)
    }

    /// Whether `name` can be a schema without quoting: what `?schema=` accepts.
    static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first), (1...63).contains(name.utf8.count) else {
            return false
        }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }

    /// `url` without its password, for messages.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? "(unprintable)"
    }

    /// For logs: `postgres://USER@HOST:PORT/DATABASE`, never the password.
    public var description: String {
        let place: String
        switch endpoint {
        case .tcp(let host, let port): place = "\(host):\(port)"
        case .socket(let path): place = path
        }
        return "postgres://\(username)@\(place)/\(database)" + (schema.map { " (schema \($0))" } ?? "")
    }
}
