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
///
/// For the same kind of target it also knows which columns have INTEGER or NUMERIC affinity: a field
/// there that is a plain decimal integer (see ``plainInteger(_:count:)``) is bound as that
/// integer rather than as text, sparing SQLite its text-to-number conversion, which would
/// store exactly that integer. And it knows the table's rowid alias (``RowidAlias``), if any.
struct ImportGroupedInsert {
    let statement: Statement
    /// Records per statement.
    let rows: Int
    /// Per parameter of a record: true when the column has INTEGER or NUMERIC affinity.
    let integerColumns: [Bool]
    /// The table's INTEGER PRIMARY KEY, when a NULL there gives a row the rowid SQLite's
    /// `max(rowid) + 1` rule gives it.
    let rowidAlias: RowidAlias?

    /// The parameter of a record that is the table's rowid (its INTEGER PRIMARY KEY), and the
    /// rowid a row inserted with NULL there gets first: one more than the largest in the table
    /// (1 when it is empty).
    ///
    /// A row whose key is that very number is inserted with NULL in its place: SQLite then takes
    /// the rowid from the end of the table (`OP_NewRowid`) and appends the row, where an explicit
    /// key costs a root-to-leaf search to check that it is free (about a tenth of the food build).
    /// The row, its rowid, `last_insert_rowid()` and the file's bytes are the same. Only for a
    /// rowid table whose one primary-key column is the rowid (no index was made for it: `INT
    /// PRIMARY KEY` and `INTEGER PRIMARY KEY DESC` have one) and that is not `AUTOINCREMENT`
    /// (there SQLite also looks at `sqlite_sequence`, which may be ahead of the table).
    struct RowidAlias {
        /// Index of the parameter in a record.
        let column: Int
        /// The rowid SQLite gives the next row inserted without one.
        let next: Int64
    }

    /// At most this many records per statement.
    static let maximumRows = 64

    /// The statement for `qualifiedTable` (`"schema"."table"` or `"table"`) with `columnCount`
    /// columns, or nil when rows must go one statement each (including when the statement
    /// cannot be prepared: the one-row statement then reports the problem row by row).
    static func prepare(connection: Connection, table: String, schema: String?, qualifiedTable: String,
                        columnCount: Int) -> ImportGroupedInsert? {
        let variableLimit = connection.limit(.variableNumber)
        let rows = min(maximumRows, variableLimit / max(columnCount, 1))
        guard rows >= 2, let target = safeTarget(connection: connection, table: table, schema: schema) else { return nil }
        let row = "(" + Array(repeating: "?", count: columnCount).joined(separator: ",") + ")"
        let sql = "INSERT INTO \(qualifiedTable) VALUES" + Array(repeating: row, count: rows).joined(separator: ",")
        do {
            let statement = try connection.prepare(sql)
            let integerColumns = integerAffinityColumns(connection: connection, table: table, schema: schema,
                                                        columnCount: columnCount)
            return ImportGroupedInsert(statement: statement, rows: rows, integerColumns: integerColumns,
                                       rowidAlias: rowidAlias(connection: connection, table: table, target: target,
                                                              integerColumns: integerColumns))
        } catch {
            return nil
        }
    }

    /// Which of the `columnCount` values of `INSERT INTO table VALUES(…)` go to a column whose
    /// affinity turns a plain integer's text into that integer: INTEGER or NUMERIC affinity by
    /// SQLite's rules on the declared type (the first rule that matches: "INT" -> INTEGER;
    /// "CHAR", "CLOB", "TEXT" -> TEXT; "BLOB" or none -> BLOB; "REAL", "FLOA", "DOUB" -> REAL;
    /// else NUMERIC). `ANY` is left out: in a STRICT table it converts nothing. All false when
    /// the columns cannot be matched to the values.
    static func integerAffinityColumns(connection: Connection, table: String, schema: String?,
                                       columnCount: Int) -> [Bool] {
        let none = Array(repeating: false, count: columnCount)
        let sql = schema == nil ? "SELECT type, hidden FROM pragma_table_xinfo(?1)"
                                : "SELECT type, hidden FROM pragma_table_xinfo(?1, ?2)"
        guard let columns = try? texts(connection, sql, [table] + (schema.map { [$0] } ?? []), columns: 2) else {
            return none
        }
        var integer: [Bool] = []
        var index = 0
        while index + 1 < columns.count {
            // Hidden (generated) columns take no value in `VALUES(…)`.
            if columns[index + 1] == "0" { integer.append(convertsIntegers(declaredType: columns[index])) }
            index += 2
        }
        return integer.count == columnCount ? integer : none
    }

    /// The table's rowid alias among the values of a record, when it has one that a NULL can
    /// stand for (see ``RowidAlias``); nil when it has none, or it cannot be told.
    static func rowidAlias(connection: Connection, table: String, target: Target,
                           integerColumns: [Bool]) -> RowidAlias? {
        do {
            // A table with a rowid (a WITHOUT ROWID table's key also has an index, see below).
            guard !target.withoutRowid, !target.definition.uppercased().contains("AUTOINCREMENT") else { return nil }
            let schemaName = target.schema
            // Exactly one primary-key column, a value of the record.
            let columns = try texts(connection, "SELECT name, pk, hidden FROM pragma_table_xinfo(?1, ?2)",
                                    [table, schemaName], columns: 3)
            var key: (column: Int, name: String)?
            var keys = 0
            var value = 0
            var index = 0
            while index + 2 < columns.count {
                let (name, pk, hidden) = (columns[index], columns[index + 1], columns[index + 2])
                if pk != "0" {
                    keys += 1
                    if hidden == "0" { key = (value, name) }
                }
                if hidden == "0" { value += 1 }
                index += 3
            }
            guard keys == 1, let key, key.column < integerColumns.count, integerColumns[key.column] else { return nil }
            // The rowid itself: any other primary key has an index of its own.
            guard try texts(connection, "SELECT count(*) FROM pragma_index_list(?1, ?2) WHERE origin = 'pk'",
                            [table, schemaName]) == ["0"] else { return nil }
            let largest = try connection.query(
                "SELECT max(\(SQLIdentifier.quote(key.name))) FROM \(SQLIdentifier.quote(schemaName)).\(SQLIdentifier.quote(table))")
            switch largest.first?.values.first {
            case .null?:
                return RowidAlias(column: key.column, next: 1)
            case .integer(let rowid)? where rowid < Int64.max:  // at the largest rowid SQLite picks one at random
                return RowidAlias(column: key.column, next: rowid + 1)
            default:
                return nil
            }
        } catch {
            return nil
        }
    }

    /// True for a declared type of INTEGER or NUMERIC affinity other than `ANY` (see above).
    private static func convertsIntegers(declaredType: String) -> Bool {
        let type = declaredType.uppercased()
        if type.contains("INT") { return true }
        if type.isEmpty || type == "ANY" { return false }
        return !["CHAR", "CLOB", "TEXT", "BLOB", "REAL", "FLOA", "DOUB"].contains { type.contains($0) }
    }

    /// The value of a field of `count` bytes when it is a plain decimal integer: an optional
    /// `-`, then 1 to 18 digits without a leading zero (or just `0`). SQLite's INTEGER affinity
    /// turns such text into exactly this integer; anything else (spaces, `+`, leading zeros,
    /// `-0`, decimals, exponents, larger numbers) is left to SQLite as text. (NUMERIC affinity
    /// converts text exactly as INTEGER affinity does.)
    @inline(__always)
    static func plainInteger(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int64? {
        var index = 0
        var negative = false
        if count > 0, bytes[0] == UInt8(ascii: "-") {
            negative = true
            index = 1
        }
        let digits = count - index
        guard digits >= 1, digits <= 18 else { return nil }
        let first = bytes[index]
        if first == UInt8(ascii: "0") {
            return digits == 1 && !negative ? 0 : nil
        }
        var value: Int64 = 0
        while index < count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit <= 9 else { return nil }
            value = value &* 10 &+ Int64(digit)
            index += 1
        }
        return negative ? -value : value
    }

    /// True when grouping cannot change the outcome of inserting into `table` (see the type).
    /// A query that fails here means "not known to be safe": rows then go one by one.
    static func isSafeTarget(connection: Connection, table: String, schema: String?) -> Bool {
        safeTarget(connection: connection, table: table, schema: schema) != nil
    }

    /// The table an insert goes to, as ``safeTarget(connection:table:schema:)`` found it.
    struct Target {
        /// The name of its schema (`main`, `temp`, or an attached database's).
        let schema: String
        let withoutRowid: Bool
        /// Its `CREATE TABLE` statement.
        let definition: String
    }

    /// The one ordinary table named `table` where the insert will look (in `schema`, or the
    /// first schema that has it) when grouping is safe for it (see ``isSafeTarget(connection:table:schema:)``);
    /// nil otherwise, including when another object has that name.
    static func safeTarget(connection: Connection, table: String, schema: String?) -> Target? {
        do {
            guard try texts(connection, "PRAGMA foreign_keys") == ["0"] else { return nil }
            let listing = schema == nil
                ? "SELECT schema, type, wr FROM pragma_table_list WHERE name = ?1 COLLATE NOCASE"
                : "SELECT schema, type, wr FROM pragma_table_list WHERE name = ?1 COLLATE NOCASE AND schema = ?2 COLLATE NOCASE"
            let found = try texts(connection, listing, [table] + (schema.map { [$0] } ?? []), columns: 3)
            guard found.count == 3, found[1] == "table" else { return nil }
            let quotedSchema = SQLIdentifier.quote(found[0])
            guard try texts(connection, "SELECT count(*) FROM \(quotedSchema).sqlite_schema WHERE type = 'trigger'") == ["0"],
                  try texts(connection, "SELECT count(*) FROM temp.sqlite_schema WHERE type = 'trigger'") == ["0"]
            else { return nil }
            let definition = try texts(
                connection, "SELECT sql FROM \(quotedSchema).sqlite_schema WHERE type = 'table' AND name = ?1 COLLATE NOCASE",
                [table])
            guard definition.count == 1 else { return nil }
            let upper = definition[0].uppercased()
            guard !upper.contains("FAIL"), !upper.contains("ROLLBACK") else { return nil }
            return Target(schema: found[0], withoutRowid: found[2] != "0", definition: definition[0])
        } catch {
            return nil
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
