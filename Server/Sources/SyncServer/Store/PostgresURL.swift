import Foundation
import NIOSSL
import PostgresNIO

/// A PostgreSQL connection URL, `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE]`
/// (also `postgresql://`; `?host=/DIR` connects through the unix socket in DIR), as the
/// PostgresNIO client's configuration.
public struct PostgresURL: Sendable, CustomStringConvertible {
    /// The client configuration the URL stands for.
    public var configuration: PostgresClient.Configuration
    /// The URL with its password hidden, for messages.
    public var description: String

    /// Parses `text`; throws a message naming what is wrong (and `flag`, the option it came from).
    public init(_ text: String, flag: String = "--postgres") throws {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
            scheme == "postgres" || scheme == "postgresql"
        else {
            throw SyncServerError(status: 0, "\(flag): '\(text)' is not a postgres://USER@HOST:PORT/DATABASE URL")
        }
        let user = components.user.flatMap { $0.removingPercentEncoding } ?? "postgres"
        let password = components.password.flatMap { $0.removingPercentEncoding }
        var database = String(components.path.drop { $0 == "/" })
        database = database.removingPercentEncoding ?? database
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { _, last in last }
        if let socketDirectory = query["host"], socketDirectory.hasPrefix("/") {
            let port = components.port ?? 5432
            configuration = .init(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: user, password: password,
                database: database.isEmpty ? nil : database)
        } else {
            guard let host = components.host, !host.isEmpty else {
                throw SyncServerError(status: 0, "\(flag): '\(text)' names no host")
            }
            let tls: PostgresClient.Configuration.TLS
            switch query["sslmode"] ?? "prefer" {
            case "disable": tls = .disable
            case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
            case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
            case let mode: throw SyncServerError(status: 0, "\(flag): unknown sslmode '\(mode)'")
            }
            configuration = .init(
                host: host, port: components.port ?? 5432, username: user, password: password,
                database: database.isEmpty ? nil : database, tls: tls)
        }
        var shown = components
        if shown.password != nil { shown.password = "***" }
        description = shown.string ?? text
    }
}
