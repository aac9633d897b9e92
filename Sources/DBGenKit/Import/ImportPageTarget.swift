import SQLiteCore

/// A table `.import` may fill by writing its B-tree pages itself (``ImportPageWriter``), and what
/// SQLite's insert into it would do to each value, read from SQLite's own program for that
/// insert (`EXPLAIN INSERT INTO main.t VALUES(?, …)`), never from the table's SQL text.
///
/// The program must be exactly the plain insert of a rowid table of `main`: open the table,
/// load the parameters, take a new rowid (or check the INTEGER PRIMARY KEY's), stop on a NULL
/// in a NOT NULL column, make the record with the columns' affinities, insert it. Any other
/// instruction means SQLite does more than that (an index, a trigger, a CHECK or foreign-key
/// constraint, a generated or STRICT column, AUTOINCREMENT, a virtual table, another schema),
/// and the import takes SQLite's insert path, as before.
struct ImportPageTarget: Equatable {
    /// What SQLite does with one value of a record.
    enum Column: Equatable {
        /// The INTEGER PRIMARY KEY: the row's rowid (the record holds NULL there). A NULL gives
        /// the next rowid; a value must be an integer under NUMERIC affinity.
        case rowid
        /// TEXT or BLOB affinity: the text is stored as it is.
        case text
        /// INTEGER or NUMERIC affinity (``ImportNumericAffinity``).
        case numeric
        /// REAL affinity: as numeric, an integer stored as an integer and read as a real.
        case real
    }

    /// One per value of `INSERT INTO t VALUES(…)`, in order.
    var columns: [Column]
    /// The values SQLite refuses to be NULL (`HaltIfNull`).
    var notNull: [Bool]
    /// The table's root page.
    var rootPage: UInt32

    /// The opcodes of a plain insert (see the type).
    private static let plainInsertOpcodes: Set<String> = [
        "Init", "OpenWrite", "SoftNull", "Variable", "NotNull", "NewRowid", "MustBeInt", "NotExists",
        "Halt", "HaltIfNull", "MakeRecord", "Insert", "Transaction", "Goto",
    ]

    /// `SQLITE_CONSTRAINT_PRIMARYKEY`, `SQLITE_CONSTRAINT_NOTNULL`: the checks a plain insert makes.
    private static let primaryKeyConstraint: Int64 = 1555
    private static let notNullConstraint: Int64 = 1299

    /// The target for an import of `columnCount` values per record into `table`, or nil when it
    /// must take SQLite's insert path.
    static func read(connection: Connection, table: ImportTable, columnCount: Int) -> ImportPageTarget? {
        guard table.schema.lowercased() == "main", !table.withoutRowid, columnCount > 0 else { return nil }
        let values = Array(repeating: "?", count: columnCount).joined(separator: ",")
        let sql = "INSERT INTO main.\(SQLIdentifier.quote(table.name)) VALUES(\(values))"
        guard let program = try? connection.program(of: sql) else { return nil }
        return parse(program, columnCount: columnCount)
    }

    /// Reads a program (see the type); nil for anything but a plain insert of `columnCount` values.
    static func parse(_ program: [ProgramInstruction], columnCount: Int) -> ImportPageTarget? {
        guard program.allSatisfy({ plainInsertOpcodes.contains($0.opcode) }) else { return nil }
        func only(_ opcode: String) -> ProgramInstruction? {
            let found = program.filter { $0.opcode == opcode }
            return found.count == 1 ? found[0] : nil
        }
        // One table of `main` (database 0), written through cursor 0.
        guard let open = only("OpenWrite"), open.p1 == 0, open.p3 == 0, open.p2 > 1, open.p2 <= Int64(UInt32.max),
            let transaction = only("Transaction"), transaction.p1 == 0,
            let record = only("MakeRecord"), record.p2 == Int64(columnCount),
            let insert = only("Insert"), insert.p1 == 0, insert.p2 == record.p3,
            let newRowid = only("NewRowid"), newRowid.p1 == 0, newRowid.p3 == 0 // not AUTOINCREMENT
        else { return nil }
        let base = record.p1
        let affinities = Array((record.p4 ?? "").utf8)
        var columns: [Column] = (0..<columnCount).map { index in
            switch index < affinities.count ? affinities[index] : UInt8(ascii: "A") {
            case UInt8(ascii: "C"), UInt8(ascii: "D"): return .numeric
            case UInt8(ascii: "E"): return .real
            default: return .text // "A" (BLOB) and "B" (TEXT): text stays text
            }
        }
        guard affinities.count <= columnCount,
            affinities.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "E") })
        else { return nil }
        // The INTEGER PRIMARY KEY: its record slot is NULL, its parameter goes to the rowid.
        let softNulls = program.filter { $0.opcode == "SoftNull" }
        var rowidColumn: Int?
        if let softNull = softNulls.first {
            guard softNulls.count == 1, softNull.p1 >= base, softNull.p1 < base + Int64(columnCount) else { return nil }
            rowidColumn = Int(softNull.p1 - base)
            columns[Int(softNull.p1 - base)] = .rowid
        }
        // Each parameter ?N to its column's register (or, for the key, the rowid's).
        let variables = program.filter { $0.opcode == "Variable" }
        guard variables.count == columnCount else { return nil }
        for variable in variables {
            let column = Int(variable.p1) - 1
            guard column >= 0, column < columnCount else { return nil }
            let register = column == rowidColumn ? insert.p3 : base + Int64(column)
            guard variable.p2 == register else { return nil }
        }
        var notNull = Array(repeating: false, count: columnCount)
        for halt in program where halt.opcode == "HaltIfNull" {
            guard halt.p1 == notNullConstraint, halt.p3 >= base, halt.p3 < base + Int64(columnCount) else { return nil }
            notNull[Int(halt.p3 - base)] = true
        }
        // Halt: the end (P1 0), or the key's uniqueness check.
        let checks = program.filter { $0.opcode == "Halt" && $0.p1 != 0 }
        let keyChecks = ["NotNull", "MustBeInt", "NotExists"].map { opcode in program.filter { $0.opcode == opcode } }
        if rowidColumn == nil {
            guard checks.isEmpty, keyChecks.allSatisfy(\.isEmpty), newRowid.p2 == insert.p3 else { return nil }
        } else {
            guard checks.count == 1, checks[0].p1 == primaryKeyConstraint, keyChecks.allSatisfy({ $0.count == 1 })
            else { return nil }
        }
        return ImportPageTarget(columns: columns, notNull: notNull, rootPage: UInt32(open.p2))
    }
}
