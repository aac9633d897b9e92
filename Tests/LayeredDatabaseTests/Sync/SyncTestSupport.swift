import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// The schema of docs/Sync.md's example, declarations included.
let syncedSchema = """
    CREATE TABLE list (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL DEFAULT '', owner TEXT);
    CREATE TABLE item (id TEXT PRIMARY KEY NOT NULL, list_id TEXT NOT NULL REFERENCES list(id) ON DELETE CASCADE,
                       name TEXT NOT NULL DEFAULT '', done INTEGER NOT NULL DEFAULT 0,
                       quantity INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE shipyard_sync (table_name TEXT NOT NULL, column_name TEXT, rule TEXT NOT NULL);
    INSERT INTO shipyard_sync VALUES ('list', NULL, 'last-edit-wins'), ('list', 'owner', 'keep-server'),
                                     ('item', NULL, 'last-edit-wins'), ('item', 'quantity', 'counter');
    """

/// A database made by the sqlite3 shell from `script` (the declarations as a developer writes
/// them), in a fresh directory.
func makeSyncDatabase(_ test: XCTestCase, _ script: String) throws -> String {
    let path = try makeScratchDirectory(test, name: "sync").appendingPathComponent("user.sqlite").path
    try sqlite3(path, script)
    return path
}

/// A database with the capture installed by ``SyncCapture`` over `script`.
func makeCapturedDatabase(_ test: XCTestCase, _ script: String = syncedSchema) throws -> String {
    let path = try makeSyncDatabase(test, script)
    let connection = try Connection(path: path)
    try SyncCapture.refresh(on: connection)
    connection.close()
    return path
}

/// One outbox entry as sqlite3 reads it.
struct OutboxEntry: Equatable, CustomStringConvertible {
    var table: String
    var key: String
    var column: String
    var op: Int
    var delta: String
    var hlc: Int64

    var description: String { "\(table)|\(key)|\(column)|\(op)|\(delta)" }
}

/// The outbox, read by the sqlite3 shell, ordered by key.
func outbox(_ path: String) throws -> [OutboxEntry] {
    try sqlite3(path, "SELECT tbl, pk, col, op, delta, hlc FROM shipyard_sync_outbox ORDER BY tbl, pk, col;")
        .split(separator: "\n").map { line in
            let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            return OutboxEntry(
                table: fields[0], key: fields[1], column: fields[2], op: Int(fields[3]) ?? -1, delta: fields[4],
                hlc: Int64(fields[5]) ?? -1)
        }
}

/// The outbox without HLCs: `table|key|column|op|delta` lines.
func outboxLines(_ path: String) throws -> [String] { try outbox(path).map(\.description) }

/// Milliseconds since 1970 now.
func nowMilliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
