import SQLiteCore

/// What SQLite's program for inserting a row into a table does, read from the program itself
/// (`EXPLAIN INSERT INTO table VALUES(?, …)`) rather than from the table's `CREATE TABLE`
/// text, where the words `FAIL`, `ROLLBACK` and `AUTOINCREMENT` can also be a column's name,
/// a default value or a comment.
///
/// Every constraint check of an INSERT of values is compiled into its program, whatever the
/// values turn out to be, so one program tells them all (with `DEFAULT VALUES` SQLite would
/// leave out the rowid's uniqueness check, since it picks a new rowid):
/// - a failed check stops the program with `Halt` (UNIQUE, PRIMARY KEY, CHECK) or
///   `HaltIfNull` (NOT NULL), whose P1 is the constraint's error code and P2 the conflict
///   resolution: `OE_Rollback` (1), `OE_Abort` (2, the default) or `OE_Fail` (3);
/// - an AUTOINCREMENT table's new rowid comes from `NewRowid` with P3, the register that holds
///   the largest rowid `sqlite_sequence` has seen (0 for any other table).
struct TableInsertProgram: Equatable {
    /// A constraint check resolves a conflict with FAIL or ROLLBACK.
    var failsOrRollsBack: Bool
    /// The table is AUTOINCREMENT: SQLite keeps its largest rowid in `sqlite_sequence`.
    var isAutoincrement: Bool

    /// `OE_Rollback` and `OE_Fail`, as sqliteInt.h numbers them.
    private static let rollbackOrFail: Set<Int64> = [1, 3]

    /// Reads the program of an insert into `table` of `schema`, an ordinary table that takes
    /// `valueCount` values (its columns but the generated ones).
    ///
    /// - Throws: ``SQLiteError`` when SQLite refuses the insert (a shadow table in defensive
    ///   mode).
    init(connection: Connection, table: String, schema: String, valueCount: Int) throws {
        let values = Array(repeating: "?", count: max(valueCount, 1)).joined(separator: ", ")
        let program = try connection.program(
            of: "INSERT INTO \(SQLIdentifier.quote(schema)).\(SQLIdentifier.quote(table)) VALUES(\(values))")
        failsOrRollsBack = program.contains { instruction in
            (instruction.opcode == "Halt" || instruction.opcode == "HaltIfNull") && instruction.p1 != 0
                && Self.rollbackOrFail.contains(instruction.p2)
        }
        isAutoincrement = program.contains { $0.opcode == "NewRowid" && $0.p3 != 0 }
    }
}
