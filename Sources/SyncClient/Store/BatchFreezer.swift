import LayeredDatabase
import SQLiteCore
import SyncProtocol

/// Freezes the next batch: in one transaction, up to `maximumRows` rows of outbox entries move
/// into `shipyard_sync_inflight` with their values read now, the next batch id is taken and
/// `hlc_max` is raised to the batch's greatest HLC. Writes made meanwhile by other connections
/// make new outbox entries: nothing is lost or counted twice.
///
/// Rows whose entries existed when the sync started (`temp.shipyard_sync_start`) go first, so a
/// sync ends once they are all acknowledged, however busy the app is writing.
struct BatchFreezer {
    let connection: Connection
    let schema: SyncSchema
    let maximumRows: Int

    /// The rows of the outbox now, remembered as those the sync must deliver before it ends.
    static func rememberStart(_ connection: Connection) throws {
        try connection.execute(
            """
            CREATE TEMP TABLE IF NOT EXISTS shipyard_sync_start (tbl, pk, PRIMARY KEY (tbl, pk)) WITHOUT ROWID;
            DELETE FROM temp.shipyard_sync_start;
            INSERT INTO temp.shipyard_sync_start SELECT DISTINCT tbl, pk FROM main.shipyard_sync_outbox;
            """)
    }

    /// True while rows that had outbox entries when the sync started are not yet frozen.
    static func startRowsRemain(_ connection: Connection) throws -> Bool {
        try connection.scalar(
            """
            SELECT EXISTS (SELECT 1 FROM temp.shipyard_sync_start s WHERE EXISTS (
                SELECT 1 FROM main.shipyard_sync_outbox o WHERE o.tbl = s.tbl AND o.pk = s.pk))
            """) == .integer(1)
    }

    /// The batch to send: the one in flight (unchanged), else a new one frozen from the outbox;
    /// nil when there is nothing to send.
    func freeze() throws -> FrozenBatch? {
        try connection.inTransaction {
            if let inflight = try FrozenBatch.load(connection) { return inflight }
            let keys = try chooseRows()
            guard !keys.isEmpty else { return nil }
            let state = try SyncState.read(connection)
            var rows: [FrozenBatch.Row] = []
            let remove = try connection.prepare("DELETE FROM main.shipyard_sync_outbox WHERE tbl = ? AND pk = ?")
            let forget = try connection.prepare("DELETE FROM temp.shipyard_sync_start WHERE tbl = ? AND pk = ?")
            var readers: [String: RowReader] = [:]
            for (table, key) in keys {
                if let synced = schema.table(named: table) {
                    let reader = try readers[synced.name] ?? RowReader(connection, synced)
                    readers[synced.name] = reader
                    if let row = try frozenRow(synced, key: key, reader: reader) { rows.append(row) }
                }
                for statement in [remove, forget] {
                    statement.reset()
                    try statement.bind([.text(table), key])
                    while try statement.step() {}
                }
            }
            guard !rows.isEmpty else { return nil }
            let frozen = FrozenBatch(id: state.nextBatch, rows: rows)
            try frozen.store(connection)
            let greatest = rows.flatMap(\.cells).map(\.hlc).max() ?? 0
            try connection.execute(
                "UPDATE main.shipyard_sync_state SET next_batch = next_batch + 1, hlc_max = max(hlc_max, ?)",
                [.integer(greatest)])
            return frozen
        }
    }

    /// Up to `maximumRows` `(table, key)` of the outbox: first those remembered at the start.
    private func chooseRows() throws -> [(String, DatabaseValue)] {
        var chosen: [(String, DatabaseValue)] = []
        var seen: Set<[DatabaseValue]> = []
        let sources = [
            """
            SELECT s.tbl, s.pk FROM temp.shipyard_sync_start s WHERE EXISTS (
                SELECT 1 FROM main.shipyard_sync_outbox o WHERE o.tbl = s.tbl AND o.pk = s.pk) LIMIT ?
            """,
            "SELECT DISTINCT tbl, pk FROM main.shipyard_sync_outbox LIMIT ?",
        ]
        for sql in sources where chosen.count < maximumRows {
            for row in try connection.query(sql, [.integer(Int64(maximumRows))]) {
                guard chosen.count < maximumRows, seen.insert([row[0], row[1]]).inserted else { continue }
                chosen.append((row[0].shellText, row[1]))
            }
        }
        return chosen
    }

    /// The cells of one row from its outbox entries, or nil when none is left to send (a row
    /// gone, entries of columns that no longer sync).
    private func frozenRow(_ table: SyncSchema.Table, key: DatabaseValue, reader: RowReader) throws
        -> FrozenBatch.Row?
    {
        var entries: [String: (op: Int64, delta: Int64, hlc: Int64)] = [:]
        for entry in try connection.query(
            "SELECT col, op, delta, hlc FROM main.shipyard_sync_outbox WHERE tbl = ? AND pk = ?",
            [.text(table.name), key])
        {
            entries[entry[0].shellText.lowercased()] = (
                entry[1].integer ?? 2, entry[2].integer ?? 0, entry[3].integer ?? 0
            )
        }
        var cells: [FrozenBatch.Cell] = []
        if let rowCell = entries[""], rowCell.op == 0 {
            return FrozenBatch.Row(
                table: table.name, key: key,
                cells: [FrozenBatch.Cell(column: "", op: 0, value: .null, delta: 0, hlc: rowCell.hlc)])
        }
        guard let values = try reader.values(of: key) else { return nil } // deleted meanwhile: its delete follows
        let rowCell = entries[""]
        if let rowCell {
            cells.append(FrozenBatch.Cell(column: "", op: 1, value: .null, delta: 0, hlc: rowCell.hlc))
        }
        for (index, column) in table.columns.enumerated() {
            let entry = entries[column.name.lowercased()]
            if column.rule == .counter {
                // A counter travels as the increments, never as its value.
                guard let entry, entry.op == 3, entry.delta != 0 || rowCell != nil else { continue }
                cells.append(
                    FrozenBatch.Cell(column: column.name, op: 3, value: .null, delta: entry.delta, hlc: entry.hlc))
            } else if let entry {
                cells.append(
                    FrozenBatch.Cell(column: column.name, op: 2, value: values[index], delta: 0, hlc: entry.hlc))
            } else if let rowCell {
                cells.append(
                    FrozenBatch.Cell(column: column.name, op: 2, value: values[index], delta: 0, hlc: rowCell.hlc))
            }
        }
        return cells.isEmpty ? nil : FrozenBatch.Row(table: table.name, key: key, cells: cells)
    }
}

/// Reads the synced columns of one row of a table by its key, through one prepared statement.
final class RowReader {
    private let statement: Statement

    init(_ connection: Connection, _ table: SyncSchema.Table) throws {
        let columns =
            table.columns.isEmpty ? "1" : table.columns.map { SQLIdentifierText.quote($0.name) }.joined(separator: ", ")
        statement = try connection.prepare(
            "SELECT \(columns) FROM main.\(SQLIdentifierText.quote(table.name)) WHERE \(SQLIdentifierText.quote(table.keyColumn)) = ?"
        )
    }

    /// The values of the synced columns, in the table's order; nil when there is no such row.
    func values(of key: DatabaseValue) throws -> [DatabaseValue]? {
        statement.reset()
        try statement.bind([key])
        guard try statement.step() else { return nil }
        let values = statement.row()
        statement.reset()
        return values
    }
}

/// Identifier quoting (SQLiteCore's is `package` to this package's targets).
enum SQLIdentifierText {
    /// `"name"` with inner quotes doubled.
    static func quote(_ name: String) -> String { SQLIdentifier.quote(name) }
}
