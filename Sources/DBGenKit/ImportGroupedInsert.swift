import CSQLite

/// A multi-row `INSERT INTO t VALUES(?,…),(?,…),…` that `.import` uses for runs of records
/// when that cannot change what the shell's one-row-per-statement loop would do.
///
/// One statement per row costs SQLite a reset, a cursor open and a root-to-leaf seek per row;
/// a group of rows pays them once (about a quarter of the insert time on the food benchmark).
/// Rows are still inserted one at a time, in order, with the same affinity conversions.
/// Grouping is used only when the target is an ordinary table with no trigger in its schema
/// or in `temp`, no `FAIL` or `ROLLBACK` conflict clause (so a failing row undoes just its
/// statement and the group can be replayed row by row for the exact error), and foreign keys
/// are off (immediate foreign keys are checked at the end of each statement).
struct ImportGroupedInsert {
    let statement: OpaquePointer
    /// Records per statement.
    let rows: Int

    /// At most this many records per statement.
    static let maximumRows = 64

    /// The statement for `qualifiedTable` (`"schema"."table"` or `"table"`) with `columnCount`
    /// columns, or nil when rows must go one statement each.
    static func prepare(db: OpaquePointer, table: String, schema: String?, qualifiedTable: String,
                        columnCount: Int) -> ImportGroupedInsert? {
        let variableLimit = Int(sqlite3_limit(db, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
        let rows = min(maximumRows, variableLimit / max(columnCount, 1))
        guard rows >= 2, isSafeTarget(db: db, table: table, schema: schema) else { return nil }
        let row = "(" + Array(repeating: "?", count: columnCount).joined(separator: ",") + ")"
        let sql = "INSERT INTO \(qualifiedTable) VALUES" + Array(repeating: row, count: rows).joined(separator: ",")
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            return nil
        }
        return ImportGroupedInsert(statement: statement, rows: rows)
    }

    func finalize() {
        sqlite3_finalize(statement)
    }

    /// True when grouping cannot change the outcome of inserting into `table` (see the type).
    static func isSafeTarget(db: OpaquePointer, table: String, schema: String?) -> Bool {
        guard let foreignKeys = texts(db, "PRAGMA foreign_keys"), foreignKeys == ["0"] else { return false }
        // Exactly one ordinary table of that name where the insert will look.
        let listing = schema == nil
            ? "SELECT schema, type FROM pragma_table_list WHERE name = ?1 COLLATE NOCASE"
            : "SELECT schema, type FROM pragma_table_list WHERE name = ?1 COLLATE NOCASE AND schema = ?2 COLLATE NOCASE"
        guard let found = texts(db, listing, [table] + (schema.map { [$0] } ?? []), columns: 2),
              found.count == 2, found[1] == "table" else { return false }
        let quotedSchema = "\"" + found[0].replacingOccurrences(of: "\"", with: "\"\"") + "\""
        guard let triggers = texts(db, "SELECT count(*) FROM \(quotedSchema).sqlite_schema WHERE type = 'trigger'"),
              let temporaryTriggers = texts(db, "SELECT count(*) FROM temp.sqlite_schema WHERE type = 'trigger'"),
              triggers == ["0"], temporaryTriggers == ["0"] else { return false }
        guard let definition = texts(db, "SELECT sql FROM \(quotedSchema).sqlite_schema WHERE type = 'table' AND name = ?1 COLLATE NOCASE", [table]),
              definition.count == 1 else { return false }
        let upper = definition[0].uppercased()
        return !upper.contains("FAIL") && !upper.contains("ROLLBACK")
    }

    /// The first `columns` columns of every row of `sql`, as text (NULL as ""); nil on error.
    private static func texts(_ db: OpaquePointer, _ sql: String, _ bindings: [String] = [], columns: Int32 = 1) -> [String]? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            return nil
        }
        defer { sqlite3_finalize(statement) }
        for (index, value) in bindings.enumerated() {
            sqlite3_bind_text(statement, Int32(index + 1), value, -1, sqliteTransient)
        }
        var result: [String] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return result }
            guard rc == SQLITE_ROW else { return nil }
            for column in 0..<columns {
                result.append(sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "")
            }
        }
    }
}
