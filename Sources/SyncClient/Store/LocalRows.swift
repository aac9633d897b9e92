import LayeredDatabase
import SQLiteCore
import SyncProtocol

/// The sync's writes into the user's synced tables, inside the apply transaction (where
/// `applying` = 1, so the capture skips them), and the few it makes as local writes (`applying`
/// set to 0 around them, so they are captured and sync like the user's own): deleting a row that
/// blocks a UNIQUE constraint of a row from the server, or a row left orphaned.
final class LocalRows {
    let connection: Connection
    let conflicts: ConflictLog
    /// The statements run per row, prepared once.
    let statements: StatementCache
    /// The tables the apply wrote (lowercased names), for the orphan check.
    private(set) var touched: Set<String> = []

    init(_ connection: Connection, conflicts: ConflictLog) {
        self.connection = connection
        self.conflicts = conflicts
        statements = StatementCache(connection)
    }

    private func quote(_ name: String) -> String { SQLIdentifier.quote(name) }

    /// The values of `table`'s row `key` for `columns`, or nil when there is no such row.
    func values(_ table: SyncSchema.Table, key: DatabaseValue, columns: [String]) throws -> [DatabaseValue]? {
        let list = columns.isEmpty ? "1" : columns.map(quote).joined(separator: ", ")
        return try statements.rows(
            "SELECT \(list) FROM main.\(quote(table.name)) WHERE \(quote(table.keyColumn)) = ?", [key]
        ).first
    }

    /// True when `table` has a row keyed `key`.
    func exists(_ table: SyncSchema.Table, key: DatabaseValue) throws -> Bool {
        try values(table, key: key, columns: []) != nil
    }

    /// Deletes the row as the server says (not captured).
    func delete(_ table: SyncSchema.Table, key: DatabaseValue) throws {
        try statements.run("DELETE FROM main.\(quote(table.name)) WHERE \(quote(table.keyColumn)) = ?", [key])
        touched.insert(table.name.lowercased())
    }

    /// Deletes the row as a local write: captured, so the delete syncs and every device converges.
    func deleteAsLocalWrite(_ table: String, keyColumn: String, key: DatabaseValue) throws {
        try connection.execute("UPDATE main.shipyard_sync_state SET applying = 0")
        try connection.execute("DELETE FROM main.\(quote(table)) WHERE \(quote(keyColumn)) = ?", [key])
        try connection.execute("UPDATE main.shipyard_sync_state SET applying = 1")
        touched.insert(table.lowercased())
    }

    /// Sets `assignments` on the row (updating it when it exists, inserting it with its key when
    /// not); a local row that blocks a UNIQUE constraint is deleted as a local write and recorded
    /// (`unique-conflict`), then the write is tried again.
    func write(_ table: SyncSchema.Table, key: DatabaseValue, assignments: [(String, DatabaseValue)]) throws {
        let exists = try exists(table, key: key)
        guard !exists || !assignments.isEmpty else { return }
        let sql: String
        let arguments: [DatabaseValue]
        if exists {
            sql =
                "UPDATE main.\(quote(table.name)) SET \(assignments.map { quote($0.0) + " = ?" }.joined(separator: ", ")) "
                + "WHERE \(quote(table.keyColumn)) = ?"
            arguments = assignments.map(\.1) + [key]
        } else {
            let columns = [table.keyColumn] + assignments.map(\.0)
            sql =
                "INSERT INTO main.\(quote(table.name)) (\(columns.map(quote).joined(separator: ", "))) "
                + "VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
            arguments = [key] + assignments.map(\.1)
        }
        touched.insert(table.name.lowercased())
        var attempts = 0
        while true {
            do {
                try statements.run(sql, arguments)
                return
            } catch let error as SQLiteError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                attempts += 1
                guard attempts <= 8,
                    try removeBlockingRows(table, key: key, assignments: assignments, existed: exists)
                else { throw error }
            }
        }
    }

    /// Deletes (as local writes) the other rows that hold the values the write gives a UNIQUE
    /// index's columns; returns whether it deleted any.
    private func removeBlockingRows(
        _ table: SyncSchema.Table, key: DatabaseValue, assignments: [(String, DatabaseValue)], existed: Bool
    ) throws -> Bool {
        var removed = false
        for index in try UniqueIndex.all(of: table.name, on: connection) {
            var wanted: [DatabaseValue] = []
            let current = existed ? try values(table, key: key, columns: index.columns) : nil
            for (position, column) in index.columns.enumerated() {
                if column.lowercased() == table.keyColumn.lowercased() {
                    wanted.append(key)
                } else if let assigned = assignments.first(where: { $0.0.lowercased() == column.lowercased() }) {
                    wanted.append(assigned.1)
                } else {
                    wanted.append(current?[position] ?? .null)
                }
            }
            // NULLs never collide in a UNIQUE index.
            guard !wanted.contains(.null) else { continue }
            let condition = index.columns.map { "\(quote($0)) = ?" }.joined(separator: " AND ")
            let blocking = try connection.query(
                "SELECT \(quote(table.keyColumn)) FROM main.\(quote(table.name)) WHERE \(condition) "
                    + "AND \(quote(table.keyColumn)) IS NOT ?",
                wanted + [key]
            ).map { $0[0] }
            for other in blocking {
                try deleteAsLocalWrite(table.name, keyColumn: table.keyColumn, key: other)
                try conflicts.record(
                    .uniqueConflict, table: table.name, key: other, column: index.columns.joined(separator: ", "),
                    device: wanted.count == 1 ? wanted[0] : .null, server: key)
                removed = true
            }
        }
        return removed
    }
}

/// A UNIQUE index of a table (a UNIQUE constraint or CREATE UNIQUE INDEX), other than its
/// primary key's, on plain columns.
struct UniqueIndex {
    var name: String
    var columns: [String]

    static func all(of table: String, on connection: Connection) throws -> [UniqueIndex] {
        var indexes: [UniqueIndex] = []
        for index in try connection.query(
            "SELECT name FROM pragma_index_list(?, 'main') WHERE \"unique\" = 1 AND origin <> 'pk'", [.text(table)])
        {
            let name = index[0].shellText
            let columns = try connection.query(
                "SELECT name FROM pragma_index_info(?, 'main') ORDER BY seqno", [.text(name)]
            ).map { $0[0] }
            // An index on an expression has a NULL name for that column: not matched here.
            guard !columns.contains(.null) else { continue }
            indexes.append(UniqueIndex(name: name, columns: columns.map(\.shellText)))
        }
        return indexes
    }
}
