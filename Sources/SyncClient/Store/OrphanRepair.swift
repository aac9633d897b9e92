import LayeredDatabase
import SQLiteCore
import SyncProtocol

/// After the pull: rows of synced tables whose FOREIGN KEY names a parent row that no longer
/// exists are deleted as local writes (so the delete syncs and every device converges) and
/// recorded as `orphaned` conflicts. The sync's connection runs with `foreign_keys` off, so
/// nothing cascades behind the capture's back; the check runs over the tables the sync wrote
/// (as child or parent), until no orphan is left (a deleted orphan may orphan its own children).
struct OrphanRepair {
    let schema: SyncSchema
    let rows: LocalRows

    /// One foreign key of a child table: its columns and the parent's.
    private struct ForeignKey {
        var child: SyncSchema.Table
        var parent: String
        var childColumns: [String]
        var parentColumns: [String]
    }

    func run(touched: Set<String>) throws {
        var touched = touched
        for _ in 0..<64 {
            var deleted: Set<String> = []
            for key in try foreignKeys()
            where touched.contains(key.child.name.lowercased())
                || touched.contains(key.parent.lowercased())
            {
                for orphan in try orphans(of: key) {
                    try rows.deleteAsLocalWrite(key.child.name, keyColumn: key.child.keyColumn, key: orphan.key)
                    try rows.conflicts.record(
                        .orphaned, table: key.child.name, key: orphan.key,
                        column: key.childColumns.joined(separator: ", "), device: orphan.value, server: .null)
                    deleted.insert(key.child.name.lowercased())
                }
            }
            guard !deleted.isEmpty else { return }
            touched = deleted
        }
    }

    private func foreignKeys() throws -> [ForeignKey] {
        var keys: [ForeignKey] = []
        let connection = rows.connection
        for table in schema.tables {
            var byID: [Int64: ForeignKey] = [:]
            var order: [Int64] = []
            for row in try connection.query(
                "SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?, 'main') ORDER BY id, seq",
                [.text(table.name)])
            {
                let id = row[0].integer ?? 0
                if byID[id] == nil {
                    order.append(id)
                    byID[id] = ForeignKey(child: table, parent: row[1].shellText, childColumns: [], parentColumns: [])
                }
                byID[id]?.childColumns.append(row[2].shellText)
                if case .text(let to) = row[3] { byID[id]?.parentColumns.append(to) }
            }
            for id in order {
                guard var key = byID[id] else { continue }
                if key.parentColumns.isEmpty { // REFERENCES parent: its primary key
                    key.parentColumns = try connection.query(
                        "SELECT name FROM pragma_table_info(?, 'main') WHERE pk > 0 ORDER BY pk", [.text(key.parent)]
                    ).map { $0[0].shellText }
                }
                guard key.parentColumns.count == key.childColumns.count,
                    try connection.scalar(
                        "SELECT count(*) FROM main.sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE",
                        [.text(key.parent)]) == .integer(1)
                else { continue }
                keys.append(key)
            }
        }
        return keys
    }

    /// The child rows (key, first referring value) whose parent is missing.
    private func orphans(of key: ForeignKey) throws -> [(key: DatabaseValue, value: DatabaseValue)] {
        let quote = SQLIdentifier.quote
        let present = key.childColumns.map { "c.\(quote($0)) IS NOT NULL" }.joined(separator: " AND ")
        let match = zip(key.parentColumns, key.childColumns).map { "p.\(quote($0)) = c.\(quote($1))" }
            .joined(separator: " AND ")
        return try rows.connection.query(
            """
            SELECT c.\(quote(key.child.keyColumn)), c.\(quote(key.childColumns[0])) FROM main.\(quote(key.child.name)) AS c
            WHERE \(present) AND NOT EXISTS (SELECT 1 FROM main.\(quote(key.parent)) AS p WHERE \(match))
            """
        ).map { ($0[0], $0[1]) }
    }
}
