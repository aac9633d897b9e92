import SQLiteCore

/// Compares two databases by content, not bytes: schema objects (type, name, table, SQL),
/// every table's rows with their storage classes, `user_version` and `application_id`.
enum DatabaseComparison {
    /// The differences of `actual` from `expected` (empty when they hold the same content).
    static func differences(expected: Connection, actual: Connection) throws -> [DatabaseDifference] {
        var result: [DatabaseDifference] = []
        for pragma in ["user_version", "application_id"] {
            let e = try integer(expected, "PRAGMA \(pragma)"), a = try integer(actual, "PRAGMA \(pragma)")
            if e != a { result.append(.pragmaDiffers(name: pragma, expected: e, actual: a)) }
        }
        let expectedObjects = try SchemaCatalog(expected).objects, actualObjects = try SchemaCatalog(actual).objects
        for (name, object) in expectedObjects.sorted(by: { $0.key < $1.key }) {
            guard let other = actualObjects[name] else {
                result.append(.missing(type: object.type, name: object.name))
                continue
            }
            if other != object {
                result.append(.definitionDiffers(type: object.type, name: object.name))
                continue
            }
            if object.type == "table", !object.isVirtualTable,
                try !sameRows(table: object.name, expected, actual)
            {
                result.append(.rowsDiffer(table: object.name))
            }
        }
        for (name, object) in actualObjects.sorted(by: { $0.key < $1.key }) where expectedObjects[name] == nil {
            result.append(.extra(type: object.type, name: object.name))
        }
        return result
    }

    /// Compares the rows of `table` in both databases, in storage order (rowid, or primary key for
    /// WITHOUT ROWID tables), values compared with their storage class.
    static func sameRows(table: String, _ expected: Connection, _ actual: Connection) throws -> Bool {
        let quoted = SQLIdentifier.quote(table)
        let withoutRowid =
            try integer(
                expected, "SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?1",
                [.text(table)]) != 0
        // Rows in rowid order, but the implicit rowid itself is not content (VACUUM may renumber it);
        // an INTEGER PRIMARY KEY is a column and is compared.
        let sql = withoutRowid ? "SELECT * FROM \(quoted)" : "SELECT * FROM \(quoted) ORDER BY rowid"
        let countSQL = "SELECT count(*) FROM \(quoted)"
        if try integer(expected, countSQL) != integer(actual, countSQL) { return false }
        // Step both in lockstep: memory stays flat whatever the table's size.
        let expectedRows = try expected.prepare(sql)
        let actualRows = try actual.prepare(sql)
        while true {
            let e = try expectedRows.step(), a = try actualRows.step()
            if e != a { return false }
            if !e { return true }
            if expectedRows.row() != actualRows.row() { return false }
        }
    }

    private static func integer(_ connection: Connection, _ sql: String, _ arguments: [DatabaseValue] = []) throws
        -> Int64
    {
        if case .integer(let value)? = try connection.scalar(sql, arguments) { return value }
        return 0
    }
}
