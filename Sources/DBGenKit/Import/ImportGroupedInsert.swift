import SQLiteCore

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
    let statement: Statement
    /// Records per statement.
    let rows: Int

    /// At most this many records per statement.
    static let maximumRows = 64

    /// The statement for `qualifiedTable` (`"schema"."table"` or `"table"`) with `columnCount`
    /// columns, or nil when rows must go one statement each (including when the statement
    /// cannot be prepared: the one-row statement then reports the problem row by row).
    static func prepare(connection: Connection, table: String, schema: String?, qualifiedTable: String,
                        columnCount: Int) -> ImportGroupedInsert? {
        let variableLimit = connection.limit(.variableNumber)
        let rows = min(maximumRows, variableLimit / max(columnCount, 1))
        guard rows >= 2, isSafeTarget(connection: connection, table: table, schema: schema) else { return nil }
        let row = "(" + Array(repeating: "?", count: columnCount).joined(separator: ",") + ")"
        let sql = "INSERT INTO \(qualifiedTable) VALUES" + Array(repeating: row, count: rows).joined(separator: ",")
        do {
            return ImportGroupedInsert(statement: try connection.prepare(sql), rows: rows)
        } catch {
            return nil
        }
    }

    /// True when grouping cannot change the outcome of inserting into `table` (see the type).
    /// A query that fails here means "not known to be safe": rows then go one by one.
    static func isSafeTarget(connection: Connection, table: String, schema: String?) -> Bool {
        do {
            guard try texts(connection, "PRAGMA foreign_keys") == ["0"] else { return false }
            // Exactly one ordinary table of that name where the insert will look.
            let listing = schema == nil
                ? "SELECT schema, type FROM pragma_table_list WHERE name = ?1 COLLATE NOCASE"
                : "SELECT schema, type FROM pragma_table_list WHERE name = ?1 COLLATE NOCASE AND schema = ?2 COLLATE NOCASE"
            let found = try texts(connection, listing, [table] + (schema.map { [$0] } ?? []), columns: 2)
            guard found.count == 2, found[1] == "table" else { return false }
            let quotedSchema = SQLIdentifier.quote(found[0])
            guard try texts(connection, "SELECT count(*) FROM \(quotedSchema).sqlite_schema WHERE type = 'trigger'") == ["0"],
                  try texts(connection, "SELECT count(*) FROM temp.sqlite_schema WHERE type = 'trigger'") == ["0"]
            else { return false }
            let definition = try texts(
                connection, "SELECT sql FROM \(quotedSchema).sqlite_schema WHERE type = 'table' AND name = ?1 COLLATE NOCASE",
                [table])
            guard definition.count == 1 else { return false }
            let upper = definition[0].uppercased()
            return !upper.contains("FAIL") && !upper.contains("ROLLBACK")
        } catch {
            return false
        }
    }

    /// The first `columns` columns of every row of `sql`, as text (NULL as "").
    private static func texts(_ connection: Connection, _ sql: String, _ bindings: [String] = [],
                              columns: Int = 1) throws -> [String] {
        try connection.query(sql, bindings.map { .text($0) }).flatMap { row in
            row.values.prefix(columns).map { value -> String in
                switch value {
                case .null: return ""
                case .integer(let number): return String(number)
                case .real(let number): return String(number)
                case .text(let text): return text
                case .blob(let data): return String(decoding: data, as: UTF8.self)
                }
            }
        }
    }
}
