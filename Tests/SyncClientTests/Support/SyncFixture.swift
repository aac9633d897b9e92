import Foundation
import LayeredDatabase
import ShipyardTestSupport
import SyncProtocol
import XCTest
@testable import SyncClient

/// The schema of docs/Sync.md's example, declarations included.
let listSchema = """
    CREATE TABLE list (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL DEFAULT '', owner TEXT);
    CREATE TABLE item (id TEXT PRIMARY KEY NOT NULL, list_id TEXT NOT NULL REFERENCES list(id) ON DELETE CASCADE,
                       name TEXT NOT NULL DEFAULT '', done INTEGER NOT NULL DEFAULT 0,
                       quantity INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE note (id TEXT PRIMARY KEY NOT NULL, body TEXT);
    CREATE TABLE shipyard_sync (table_name TEXT NOT NULL, column_name TEXT, rule TEXT NOT NULL);
    INSERT INTO shipyard_sync VALUES ('list', NULL, 'last-edit-wins'), ('list', 'owner', 'keep-server'),
                                     ('item', NULL, 'last-edit-wins'), ('item', 'quantity', 'counter'),
                                     ('note', NULL, 'reject');
    """

/// A user database with the capture, a scripted server and the sync between them.
final class SyncFixture {
    let directory: TemporaryDirectory
    let path: String
    let server: ScriptedSyncServer
    /// The device's clock, in milliseconds: the server's by default.
    var deviceClock: Int64 = 1_800_000_000_000
    var configuration = SyncConfiguration()

    init(_ test: XCTestCase, schema: String = listSchema, server: ScriptedSyncServer? = nil) throws {
        directory = try TemporaryDirectory("sync-client", removedAfter: test)
        path = directory.url("user.sqlite").path
        _ = try Oracle.sqlite3Script(path, schema)
        let connection = try Connection(path: path)
        try SyncCapture.refresh(on: connection)
        connection.close()
        self.server = server ?? ScriptedSyncServer { request, _ in .answer(.acknowledging(request)) }
    }

    /// A sync of the fixture's database through its server, at its clock.
    func sync(token: @escaping @Sendable () async throws -> String = { "token" }) -> UserDatabaseSync {
        let clock = deviceClock
        return UserDatabaseSync(
            databasePath: path, serverURL: URL(string: "http://127.0.0.1:9/")!, configuration: configuration,
            token: token, transport: server, clock: { clock })
    }

    /// Runs one sync.
    @discardableResult
    func run() async throws -> SyncReport { try await sync().sync() }

    /// Runs SQL on the database through a connection of its own (an app's).
    @discardableResult
    func sql(_ text: String, _ arguments: [DatabaseValue] = []) throws -> [Row] {
        let connection = try Connection(path: path)
        defer { connection.close() }
        return try connection.query(text, arguments)
    }

    /// The rows of a query as `a|b|c` lines (NULL as empty).
    func lines(_ text: String) throws -> [String] {
        try sql(text).map { $0.values.map(\.shellText).joined(separator: "|") }
    }

    /// The outbox as `table|key|column|op|delta` lines.
    func outbox() throws -> [String] {
        try lines("SELECT tbl, pk, col, op, delta FROM shipyard_sync_outbox ORDER BY tbl, pk, col")
    }

    /// The conflicts as `table|key|column|kind|device|server` lines.
    func conflicts() throws -> [String] {
        try lines(
            "SELECT table_name, row_key, column_name, kind, device_value, server_value FROM shipyard_sync_conflicts ORDER BY id"
        )
    }

    /// The number of cells in flight.
    func inflightCount() throws -> Int {
        Int(try sql("SELECT count(*) FROM shipyard_sync_inflight")[0][0].integer ?? -1)
    }

    /// A state column.
    func state(_ column: String) throws -> DatabaseValue {
        try sql("SELECT \(column) FROM shipyard_sync_state")[0][0]
    }
}

/// Building answers.
enum Pull {
    /// A pulled row of table index `table`: a row cell when `exists` is given, then values.
    static func row(_ table: Int, _ key: String, exists: Bool? = nil, _ values: [(Int, SyncValue)] = [])
        -> SyncPulledRow
    {
        var cells: [SyncPulledCell] = []
        if let exists { cells.append(SyncPulledCell(column: 0, content: .row(exists: exists))) }
        cells += values.map { SyncPulledCell(column: $0.0, content: .value($0.1)) }
        return SyncPulledRow(table: table, key: .text(key), cells: cells)
    }
}

extension SyncBatch {
    /// The column names of each row's cells, as `table key: column=change` strings.
    var summary: [String] {
        rows.map { row in
            let table = tables[row.table]
            let cells = row.cells.map { cell -> String in
                let name = cell.column == 0 ? "row" : table.columns[cell.column - 1]
                switch cell.change {
                case .row(let exists): return "\(name)=\(exists ? "exists" : "deleted")"
                case .value(let value): return "\(name)=\(value)"
                case .increment(let delta): return "\(name)+=\(delta)"
                }
            }
            return "\(table.name) \(row.key): " + cells.joined(separator: " ")
        }
    }
}
