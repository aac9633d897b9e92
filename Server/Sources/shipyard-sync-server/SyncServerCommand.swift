import ArgumentParser
import Foundation
import Hummingbird
import Logging
import SyncServer

/// `shipyard-sync-server`: the sync server (docs/Sync.md, "The server"). Argument parsing only;
/// SyncServer does the work.
@main
struct SyncServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shipyard-sync-server",
        abstract: "Sync user databases through PostgreSQL, deciding conflicts by the rules the schema declares.",
        discussion: """
            Serves POST /v1/sync (the wire format of docs/Sync.md) and GET /v1/health. It creates and \
            migrates its own tables in each database at start. Requests carry a bearer JWT (EdDSA, \
            ES256 or RS256) verified against --jwks; the token's sub is the user, its optional space \
            claim a shared space. Several --postgres URLs spread spaces across databases by a hash of \
            the space's name: give every server process the same list, in the same order. \
            --postgres-replica names a streaming replica of each --postgres database, in the same \
            order: a request with nothing to send is read from it once it has replayed the device's \
            cursor (else, or when it fails, from the primary); answers then trail the primary by \
            the replica's lag.
            """,
        version: "1.0")

    @Option(
        name: .customLong("postgres"),
        help: ArgumentHelp(
            "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require] (?host=/DIR: a unix socket). Repeat to partition spaces.",
            valueName: "URL"))
    var postgres: [String]

    @Option(
        name: .customLong("postgres-replica"),
        help: ArgumentHelp(
            "A streaming replica of the --postgres database at the same position, for requests that only pull. Repeat once per --postgres, or leave out.",
            valueName: "URL"))
    var postgresReplica: [String] = []

    @Option(
        help: ArgumentHelp(
            "Where to listen: HOST:PORT (port 0: a free port, printed at start).", valueName: "HOST:PORT"))
    var listen: String

    @Option(
        help: ArgumentHelp(
            "The user database's schema script (what syncs: its shipyard_sync declarations).", valueName: "USER_SCHEMA")
    )
    var schema: String

    @Option(help: ArgumentHelp("A JSON Web Key Set: the public keys tokens are verified with.", valueName: "FILE"))
    var jwks: String

    @Option(help: "How far ahead of the server's clock a device's clock may be, in seconds.")
    var maxClockSkew: Int = 300

    @Option(help: "The most bytes of a request body as sent.")
    var maxBodyBytes: Int = 8 << 20

    @Option(help: "The most bytes a compressed request may inflate to.")
    var maxInflatedBytes: Int = 32 << 20

    @Option(help: "The most rows in one batch.")
    var maxBatchRows: Int = 5_000

    @Option(help: "The most cells an answer pulls when the device asks for no limit.")
    var pullLimit: Int = 10_000

    @Option(help: "Seconds a request may wait for the database before it is answered 503.")
    var databaseTimeout: Double = 15

    @Option(help: "Connections per database in the pool.")
    var connections: Int = 20

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "notice"

    func validate() throws {
        guard !postgres.isEmpty else { throw ValidationError("--postgres is required") }
        guard postgresReplica.isEmpty || postgresReplica.count == postgres.count else {
            throw ValidationError(
                "--postgres-replica: \(postgresReplica.count) replicas for \(postgres.count) databases; give one per --postgres, in the same order"
            )
        }
        guard maxClockSkew >= 0 else { throw ValidationError("--max-clock-skew must be 0 or more") }
        for (name, value) in [
            ("--max-body-bytes", maxBodyBytes), ("--max-inflated-bytes", maxInflatedBytes),
            ("--max-batch-rows", maxBatchRows), ("--pull-limit", pullLimit), ("--connections", connections),
        ] where value < 1 {
            throw ValidationError("\(name) must be at least 1")
        }
        guard databaseTimeout > 0 else { throw ValidationError("--database-timeout must be more than 0") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level: unknown level '\(logLevel)'")
        }
    }

    func run() async throws {
        var logger = Logger(label: "shipyard-sync-server")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .notice
        do {
            let (host, port) = try Self.address(listen)
            let databases = try postgres.map { try PostgresURL($0).configuration }
            let replicas = try postgresReplica.map { try PostgresURL($0, flag: "--postgres-replica").configuration }
            var configuration = SyncServerConfiguration(
                schema: try UserSchemaScript.read(scriptAt: schema), verifier: try await TokenVerifier(jwksFile: jwks))
            configuration.maximumClockSkewMilliseconds = Int64(maxClockSkew) * 1000
            configuration.limits = .init(
                bodyBytes: maxBodyBytes, inflatedBytes: maxInflatedBytes, batchRows: maxBatchRows)
            configuration.defaultPullLimit = pullLimit
            configuration.databaseTimeoutSeconds = databaseTimeout
            configuration.maximumPullLimit = max(pullLimit, 100_000)
            let application = SyncServerApplication.make(
                configuration: configuration, databases: databases, replicas: replicas, host: host, port: port,
                connectionsPerDatabase: connections, logger: logger
            ) { port in
                FileHandle.standardOutput.write(Data("shipyard-sync-server: listening on \(host):\(port)\n".utf8))
            }
            try await application.runService()
        } catch let error as SyncServerError {
            FileHandle.standardError.write(Data("shipyard-sync-server: error: \(error.reason)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// HOST:PORT (IPv6 hosts in brackets).
    static func address(_ text: String) throws -> (String, Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port)
        else {
            throw SyncServerError(status: 0, "--listen: '\(text)' is not HOST:PORT")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw SyncServerError(status: 0, "--listen: '\(text)' names no host") }
        return (host, port)
    }
}
