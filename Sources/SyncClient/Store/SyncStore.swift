#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LayeredDatabase
import SyncProtocol

/// The sync's own connection to the user database: opened for one sync, with the capture
/// checked against the declarations (refreshed when they differ), the database in WAL mode (so
/// the app keeps reading while an answer is applied), `foreign_keys` off (the sync repairs
/// orphans itself, as local writes) and `recursive_triggers` off.
final class SyncStore {
    let connection: Connection
    let declarations: SyncDeclarations
    let path: String

    /// Opens the user database at `path` for a sync.
    ///
    /// - Throws: ``SyncClientError``: the file cannot be opened, declares nothing that syncs, or
    ///   its declarations are refused.
    init(path: String) throws {
        self.path = path
        let connection: Connection
        do {
            connection = try Connection(path: path)
            try connection.execute("PRAGMA foreign_keys = OFF; PRAGMA recursive_triggers = OFF")
            _ = try connection.scalar("SELECT count(*) FROM main.sqlite_master")
        } catch let error as SQLiteError {
            throw SyncClientError.database("\(path): \(error.message)")
        }
        self.connection = connection
        do {
            declarations =
                try SyncCapture.isCurrent(on: connection)
                ? try SyncDeclarations.read(from: connection)
                : try connection.inTransaction { try SyncCapture.refresh(on: connection) }
        } catch let problem as SyncDeclarationProblem {
            throw SyncClientError.declarations("\(path): \(problem)")
        } catch let error as SQLiteError {
            throw SyncClientError.database("\(path): \(error.message)")
        }
        guard declarations.declaresSync else {
            throw SyncClientError.declarations(
                "\(path): declares no synced table (shipyard_sync is missing or empty); see docs/Sync.md")
        }
        try Self.database(path) {
            if case .text(let mode)? = try connection.scalar("PRAGMA main.journal_mode"), mode.lowercased() != "wal" {
                _ = try connection.scalar("PRAGMA main.journal_mode = WAL")
            }
        }
    }

    /// Runs `body`, turning SQLite's errors into ``SyncClientError/database(_:)`` naming `path`.
    static func database<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw SyncClientError.database("\(path): \(error.message)")
        }
    }

    /// Runs `body` with SQLite's errors named after this database.
    func run<T>(_ body: () throws -> T) throws -> T { try Self.database(path, body) }

    var schema: SyncSchema { declarations.schema }

    func state() throws -> SyncState { try run { try SyncState.read(connection) } }

    /// The device id, made (16 random bytes) and stored when there is none yet, or when `renew`
    /// (the server refused the id as another device's).
    func deviceID(renew: Bool = false) throws -> SyncDeviceID {
        try run {
            if !renew, let id = try SyncState.read(connection).deviceID { return id }
            let id = SyncDeviceID.random()
            try connection.execute(
                "UPDATE main.shipyard_sync_state SET device_id = ?", [.blob(Data(id.bytes))])
            return id
        }
    }

    /// When the synced columns changed since the cursor was reached (an app update added a
    /// column), the cursor goes back to 0 once, so the device receives the values it ignored.
    func resetCursorIfSchemaChanged() throws {
        try run {
            let state = try SyncState.read(connection)
            guard !state.schema.isEmpty, state.schema != schema.fingerprint else { return }
            try connection.execute(
                "UPDATE main.shipyard_sync_state SET cursor = 0, schema = ?", [.text(schema.fingerprint)])
        }
    }

    /// After the server refused the device's clock: the offset becomes `serverMilliseconds` minus
    /// the device's clock, and every queued edit (outbox and batch in flight) and `hlc_max` are
    /// brought down to at most the server's now.
    func correctClock(serverMilliseconds: Int64, localMilliseconds: Int64) throws {
        let ceiling = HLC.ceiling(ofMilliseconds: serverMilliseconds).rawValue
        try run {
            try connection.inTransaction {
                try connection.execute("UPDATE main.shipyard_sync_outbox SET hlc = min(hlc, ?)", [.integer(ceiling)])
                try connection.execute("UPDATE main.shipyard_sync_inflight SET hlc = min(hlc, ?)", [.integer(ceiling)])
                try connection.execute(
                    "UPDATE main.shipyard_sync_state SET hlc_max = min(hlc_max, ?), offset_ms = ?",
                    [.integer(ceiling), .integer(serverMilliseconds - localMilliseconds)])
            }
        }
    }
}
