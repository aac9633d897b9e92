import LayeredDatabase
import SyncProtocol

/// The outbox entries of one row: the local edits not yet frozen, which a value from the server
/// never overwrites (they are newer than anything the server had when it answered).
struct PendingEdits {
    /// By column name lowercased, `''` for the row cell: `op` and `delta`.
    var entries: [String: (op: Int64, delta: Int64)] = [:]

    /// The row cell's entry: 1 inserted again locally, 0 deleted locally; nil when none.
    var rowOp: Int64? { entries[""]?.op }

    /// The entry of `column`, if any.
    func entry(_ column: String) -> (op: Int64, delta: Int64)? { entries[column.lowercased()] }

    /// The column entries (not the row cell).
    var columnNames: [String] { entries.keys.filter { !$0.isEmpty }.sorted() }

    /// The entries of `table`'s row keyed `key`.
    static func of(_ table: String, key: DatabaseValue, in statements: StatementCache) throws -> PendingEdits {
        var edits = PendingEdits()
        for row in try statements.rows(
            "SELECT col, op, delta FROM main.shipyard_sync_outbox WHERE tbl = ? AND pk = ?", [.text(table), key])
        {
            edits.entries[row[0].shellText.lowercased()] = (row[1].integer ?? 2, row[2].integer ?? 0)
        }
        return edits
    }

    /// Removes the row's column entries (the row is gone: its edits can never apply).
    static func dropColumnEntries(_ table: String, key: DatabaseValue, in statements: StatementCache) throws {
        try statements.run(
            "DELETE FROM main.shipyard_sync_outbox WHERE tbl = ? AND pk = ? AND col <> ''", [.text(table), key])
    }
}

/// Writes rows into `shipyard_sync_conflicts`, and counts them.
final class ConflictLog {
    private let connection: Connection
    private let now: () -> Int64
    /// How many rows this log wrote.
    private(set) var count = 0

    init(_ connection: Connection, now: @escaping () -> Int64) {
        self.connection = connection
        self.now = now
    }

    /// One conflict of `kind` on `table`'s row `key` (`column` nil for the row).
    func record(
        _ kind: SyncConflictKind, table: String, key: DatabaseValue, column: String?,
        device: DatabaseValue, server: DatabaseValue
    ) throws {
        try connection.execute(
            """
            INSERT INTO main.shipyard_sync_conflicts
                (table_name, row_key, column_name, kind, device_value, server_value, detected_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(table), key, column.map { .text($0) } ?? .null, .text(kind.rawValue), device, server,
                .integer(now()),
            ])
        count += 1
    }
}
