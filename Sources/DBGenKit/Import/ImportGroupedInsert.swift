import SQLiteCore

/// A multi-row `INSERT INTO t VALUES(?,…),(?,…),…` that `.import` uses for runs of records
/// when that cannot change what the shell's one-row-per-statement loop would do.
///
/// One statement per row costs SQLite a reset, a cursor open and a root-to-leaf seek per row;
/// a group of rows pays them once (docs/Performance.md, "Multi-row INSERT").
/// Rows are still inserted one at a time, in order, with the same affinity conversions.
/// Grouping is used only when the target is an ordinary table with no trigger in its schema
/// or in `temp`, no `FAIL` or `ROLLBACK` conflict resolution in its constraints (so a failing
/// row undoes just its statement and the group can be replayed row by row for the exact
/// error; read from SQLite's program, ``TableInsertProgram``), and foreign keys are off
/// (immediate foreign keys are checked at the end of each statement).
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
    /// key costs a root-to-leaf search to check that it is free (docs/Performance.md, "Keys
    /// appended, not searched").
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

    /// The statement for `qualifiedTable` (`"schema"."table"` or `"table"`, which is `table`)
    /// with `columnCount` columns, or nil when rows must go one statement each (including when
    /// the statement cannot be prepared: the one-row statement then reports the problem row by
    /// row).
    static func prepare(
        connection: Connection, table: ImportTable?, qualifiedTable: String,
        columnCount: Int
    ) -> ImportGroupedInsert? {
        let variableLimit = connection.limit(.variableNumber)
        let rows = min(maximumRows, variableLimit / max(columnCount, 1))
        guard rows >= 2, let table, isSafe(table) else { return nil }
        let row = "(" + Array(repeating: "?", count: columnCount).joined(separator: ",") + ")"
        let sql = "INSERT INTO \(qualifiedTable) VALUES" + Array(repeating: row, count: rows).joined(separator: ",")
        guard let statement = try? connection.prepare(sql) else { return nil }
        let integerColumns = integerAffinityColumns(table, columnCount: columnCount)
        return ImportGroupedInsert(
            statement: statement, rows: rows, integerColumns: integerColumns,
            rowidAlias: rowidAlias(
                connection: connection, table: table,
                integerColumns: integerColumns))
    }

    /// Which of the `columnCount` values of `INSERT INTO table VALUES(…)` go to a column whose
    /// affinity turns a plain integer's text into that integer: INTEGER or NUMERIC affinity by
    /// SQLite's rules on the declared type (the first rule that matches: "INT" -> INTEGER;
    /// "CHAR", "CLOB", "TEXT" -> TEXT; "BLOB" or none -> BLOB; "REAL", "FLOA", "DOUB" -> REAL;
    /// else NUMERIC). `ANY` is left out: in a STRICT table it converts nothing. All false when
    /// the columns cannot be matched to the values.
    static func integerAffinityColumns(_ table: ImportTable, columnCount: Int) -> [Bool] {
        // Hidden (generated) columns take no value in `VALUES(…)`.
        let integer = table.columns.filter(\.takesValue).map { convertsIntegers(declaredType: $0.declaredType) }
        return integer.count == columnCount ? integer : Array(repeating: false, count: columnCount)
    }

    /// The table's rowid alias among the values of a record, when it has one that a NULL can
    /// stand for (see ``RowidAlias``); nil when it has none, or it cannot be told.
    static func rowidAlias(connection: Connection, table: ImportTable, integerColumns: [Bool]) -> RowidAlias? {
        // A table with a rowid (a WITHOUT ROWID table's key also has an index, see below).
        guard !table.withoutRowid, !table.insertProgram.isAutoincrement else { return nil }
        // Exactly one primary-key column, a value of the record.
        var key: (column: Int, name: String)?
        var keys = 0
        var value = 0
        for column in table.columns {
            if column.isPrimaryKey {
                keys += 1
                if column.takesValue { key = (value, column.name) }
            }
            if column.takesValue { value += 1 }
        }
        guard keys == 1, let key, key.column < integerColumns.count, integerColumns[key.column] else { return nil }
        // The rowid itself: any other primary key has an index of its own.
        guard !table.hasPrimaryKeyIndex else { return nil }
        let qualifiedTable = SQLIdentifier.quote(table.schema) + "." + SQLIdentifier.quote(table.name)
        let largest = try? connection.scalar("SELECT max(\(SQLIdentifier.quote(key.name))) FROM \(qualifiedTable)")
        switch largest {
        case .null?:
            return RowidAlias(column: key.column, next: 1)
        case .integer(let rowid)? where rowid < Int64.max: // at the largest rowid SQLite picks one at random
            return RowidAlias(column: key.column, next: rowid + 1)
        default:
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

    /// True when grouping cannot change the outcome of inserting into `table` (see the type):
    /// foreign keys off, no trigger in its schema or `temp`, no FAIL or ROLLBACK conflict
    /// resolution in its constraints.
    static func isSafe(_ table: ImportTable) -> Bool {
        !table.foreignKeys && !table.hasTriggers && !table.insertProgram.failsOrRollsBack
    }
}
