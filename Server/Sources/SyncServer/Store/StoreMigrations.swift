import Logging
import PostgresNIO

/// The server's own tables (docs/Sync.md, "The server"), created and migrated at start, one
/// version at a time, under an advisory lock so that processes starting together take turns.
enum StoreMigrations {
    /// Each version's statements, in order; version N is `steps[N - 1]`.
    static let steps: [[PostgresQuery]] = [
        [
            """
            CREATE TABLE shipyard_spaces (space text PRIMARY KEY, seq bigint NOT NULL DEFAULT 0)
            """,
            """
            CREATE TABLE shipyard_devices (space text, device bytea, last_batch bigint NOT NULL,
                batch_hash bytea NOT NULL, results bytea NOT NULL, seen timestamptz,
                PRIMARY KEY (space, device))
            """,
            """
            CREATE TABLE shipyard_cells (space text, tbl text, pk bytea, col text, value bytea,
                hlc bigint NOT NULL, device bytea NOT NULL, seq bigint NOT NULL,
                PRIMARY KEY (space, tbl, pk, col))
            """,
            "CREATE INDEX shipyard_cells_by_seq ON shipyard_cells (space, seq)",
        ]
    ]

    /// The lock key every server process takes while migrating ("shipyard" in ASCII).
    static let lockKey: Int64 = 0x7368_6970_7961_7264

    /// Brings the database to the newest version; returns the version it was at.
    @discardableResult
    static func migrate(_ client: PostgresClient, logger: Logger) async throws -> Int {
        try await SyncStore.unwrapping { try await steps(client, logger: logger) }
    }

    private static func steps(_ client: PostgresClient, logger: Logger) async throws -> Int {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS shipyard_server_version (version integer NOT NULL)", logger: logger)
            var version = 0
            for try await (found) in try await connection.query(
                "SELECT version FROM shipyard_server_version", logger: logger
            ).decode(Int.self) {
                version = found
            }
            guard version <= steps.count else {
                throw SyncServerError(
                    status: 0,
                    "the database is at version \(version) of the server's tables; this server knows \(steps.count)")
            }
            for step in steps.dropFirst(version) {
                for statement in step { try await connection.query(statement, logger: logger) }
            }
            if version == 0 {
                try await connection.query(
                    "INSERT INTO shipyard_server_version VALUES (\(steps.count))", logger: logger)
            } else if version < steps.count {
                try await connection.query(
                    "UPDATE shipyard_server_version SET version = \(steps.count)", logger: logger)
            }
            return version
        }
    }
}
