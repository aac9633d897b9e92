import SQLiteCore

/// What `.import` knows of the table it inserts into, read once per import: whether multi-row
/// inserts are safe for it (``ImportGroupedInsert``), which columns convert integers, and
/// where its rowid is.
struct ImportTable {
    /// One column, in `pragma table_xinfo` order.
    struct Column {
        var name: String
        /// The declared type, as written (`""` when none).
        var declaredType: String
        /// Part of the declared PRIMARY KEY.
        var isPrimaryKey: Bool
        /// False for a generated (or hidden) column, which takes no value in `VALUES(…)`.
        var takesValue: Bool
    }

    /// The name of its schema (`main`, `temp`, or an attached database's).
    var schema: String
    var name: String
    var withoutRowid: Bool
    var columns: [Column]
    /// True when the primary key has an index of its own (any key but a rowid alias).
    var hasPrimaryKeyIndex: Bool
    /// True when its schema or `temp` has a trigger.
    var hasTriggers: Bool
    /// `PRAGMA foreign_keys` of the connection.
    var foreignKeys: Bool
    /// What an insert into it does, read from SQLite's program.
    var insertProgram: TableInsertProgram

    /// The one ordinary table named `name` where an insert will look (in `schema`, or the first
    /// schema that has it); nil when there is none, when another object has that name, or when
    /// a query fails (rows then go one statement each).
    static func read(connection: Connection, name: String, schema: String?) -> ImportTable? {
        do {
            let listing =
                schema == nil
                ? "SELECT schema, type, wr FROM pragma_table_list WHERE name = ?1 COLLATE NOCASE"
                : "SELECT schema, type, wr FROM pragma_table_list"
                    + " WHERE name = ?1 COLLATE NOCASE AND schema = ?2 COLLATE NOCASE"
            let found = try connection.query(listing, ([name] + (schema.map { [$0] } ?? [])).map { .text($0) })
            guard found.count == 1, case .text(let schemaName) = found[0][0], case .text("table") = found[0][1],
                case .integer(let withoutRowid) = found[0][2]
            else { return nil }
            let quotedSchema = SQLIdentifier.quote(schemaName)
            let arguments: [DatabaseValue] = [.text(name), .text(schemaName)]
            var columns: [Column] = []
            let xinfo = "SELECT name, type, pk, hidden FROM pragma_table_xinfo(?1, ?2)"
            try connection.forEachRow(xinfo, arguments) { row in
                guard case .text(let column) = row[0], case .integer(let pk) = row[2],
                    case .integer(let hidden) = row[3]
                else { return }
                var declaredType = ""
                if case .text(let type) = row[1] { declaredType = type }
                columns.append(
                    Column(
                        name: column, declaredType: declaredType, isPrimaryKey: pk != 0,
                        takesValue: hidden == 0))
            }
            let keyIndexes = try connection.scalar(
                "SELECT count(*) FROM pragma_index_list(?1, ?2) WHERE origin = 'pk'", arguments)
            let triggers = try connection.scalar(
                "SELECT (SELECT count(*) FROM \(quotedSchema).sqlite_master WHERE type = 'trigger')"
                    + " + (SELECT count(*) FROM temp.sqlite_master WHERE type = 'trigger')")
            let foreignKeys = try connection.scalar("PRAGMA foreign_keys")
            return ImportTable(
                schema: schemaName, name: name, withoutRowid: withoutRowid != 0, columns: columns,
                hasPrimaryKeyIndex: keyIndexes != .integer(0), hasTriggers: triggers != .integer(0),
                foreignKeys: foreignKeys != .integer(0),
                insertProgram: try TableInsertProgram(
                    connection: connection, table: name, schema: schemaName,
                    valueCount: columns.filter(\.takesValue).count))
        } catch {
            return nil
        }
    }
}
