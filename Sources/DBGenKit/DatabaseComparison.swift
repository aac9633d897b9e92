import Foundation

/// Compares two databases by content, not bytes: schema objects (type, name, table, SQL),
/// every table's rows with their storage classes, `user_version` and `application_id`.
public enum DatabaseComparison {
    /// One difference, phrased for the user.
    public enum Difference: Equatable, CustomStringConvertible {
        case missing(type: String, name: String)
        case extra(type: String, name: String)
        case definitionDiffers(type: String, name: String)
        case rowsDiffer(table: String)
        case pragmaDiffers(name: String, expected: Int64, actual: Int64)

        public var description: String {
            switch self {
            case .missing(let type, let name): return "\(type) \(name) is missing"
            case .extra(let type, let name): return "\(type) \(name) should not be there"
            case .definitionDiffers(let type, let name): return "\(type) \(name) has a different definition"
            case .rowsDiffer(let table): return "table \(table) has different rows"
            case .pragmaDiffers(let name, let expected, let actual):
                return "\(name) is \(actual), expected \(expected)"
            }
        }

        /// The table (or other object) the difference is about.
        public var objectName: String {
            switch self {
            case .missing(_, let name), .extra(_, let name), .definitionDiffers(_, let name): return name
            case .rowsDiffer(let table): return table
            case .pragmaDiffers(let name, _, _): return name
            }
        }
    }

    struct SchemaObject: Hashable {
        var type: String
        var name: String
        var tableName: String
        var sql: String?
    }

    /// The differences of `actual` from `expected` (empty when they hold the same content).
    public static func differences(expected: SQLiteConnection, actual: SQLiteConnection) throws -> [Difference] {
        var result: [Difference] = []
        for pragma in ["user_version", "application_id"] {
            let e = try expected.scalarInt("PRAGMA \(pragma)"), a = try actual.scalarInt("PRAGMA \(pragma)")
            if e != a { result.append(.pragmaDiffers(name: pragma, expected: e, actual: a)) }
        }
        let expectedObjects = try objects(expected), actualObjects = try objects(actual)
        for (name, object) in expectedObjects.sorted(by: { $0.key < $1.key }) {
            guard let other = actualObjects[name] else {
                result.append(.missing(type: object.type, name: object.name))
                continue
            }
            if other != object {
                result.append(.definitionDiffers(type: object.type, name: object.name))
                continue
            }
            if object.type == "table", !(object.sql ?? "").uppercased().hasPrefix("CREATE VIRTUAL"),
               try !sameRows(table: object.name, expected, actual) {
                result.append(.rowsDiffer(table: object.name))
            }
        }
        for (name, object) in actualObjects.sorted(by: { $0.key < $1.key }) where expectedObjects[name] == nil {
            result.append(.extra(type: object.type, name: object.name))
        }
        return result
    }

    static func objects(_ connection: SQLiteConnection) throws -> [String: SchemaObject] {
        var objects: [String: SchemaObject] = [:]
        try connection.forEachRow("SELECT type, name, tbl_name, sql FROM sqlite_schema") { row in
            let object = SchemaObject(type: row[0].textValue ?? "", name: row[1].textValue ?? "",
                                      tableName: row[2].textValue ?? "", sql: row[3].textValue)
            objects[object.name] = object
        }
        return objects
    }

    /// Compares the rows of `table` in both databases, in storage order (rowid, or primary key for
    /// WITHOUT ROWID tables), values compared with their storage class.
    static func sameRows(table: String, _ expected: SQLiteConnection, _ actual: SQLiteConnection) throws -> Bool {
        let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let withRowid = (try? expected.query("SELECT rowid FROM \(quoted) LIMIT 0")) != nil
        // Rows in rowid order, but the implicit rowid itself is not content (VACUUM may renumber it);
        // an INTEGER PRIMARY KEY is a column and is compared.
        let sql = withRowid ? "SELECT * FROM \(quoted) ORDER BY rowid" : "SELECT * FROM \(quoted)"
        if try expected.scalarInt("SELECT count(*) FROM \(quoted)") != actual.scalarInt("SELECT count(*) FROM \(quoted)") {
            return false
        }
        // Step both in lockstep: memory stays flat whatever the table's size.
        let expectedRows = try SQLiteConnection.RowStream(expected, sql)
        let actualRows = try SQLiteConnection.RowStream(actual, sql)
        while true {
            let e = try expectedRows.next(), a = try actualRows.next()
            if e != a { return false }
            if e == nil { return true }
        }
    }
}

/// `dbgen check`: builds SCHEMA into a scratch file and compares it with OUTPUT.
public enum SchemaCheck {
    /// The outcome: no differences means OUTPUT is current.
    public struct Result {
        public var differences: [DatabaseComparison.Difference]
        public var isCurrent: Bool { differences.isEmpty }
    }

    /// Builds `schema` into a temporary directory and compares it with `output`.
    /// Throws a ``Diagnostic`` when the build fails or `output` cannot be opened.
    public static func run(schema: String, output: String, printWarnings: Bool) throws -> Result {
        let cwd = PathResolution.currentDirectory
        let schemaPath = PathResolution.absolute(schema, relativeTo: cwd)
        let outputPath = PathResolution.absolute(output, relativeTo: cwd)
        guard FileManager.default.fileExists(atPath: schemaPath) else {
            throw Diagnostic.error("cannot open schema \"\(schema)\": no such file")
        }
        guard FileManager.default.fileExists(atPath: outputPath) else {
            throw Diagnostic.error("cannot open \"\(output)\": no such file")
        }
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("dbgen-check-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let built = scratch.appendingPathComponent("expected.sqlite").path
        var warnings: [String] = []
        _ = try DatabaseBuilder.run(schema: schema, schemaPath: schemaPath, into: built, strict: false,
                                    printWarnings: printWarnings, warnings: &warnings)
        let expected = try SQLiteConnection(path: built, readOnly: true)
        defer { expected.close() }
        let actual: SQLiteConnection
        do {
            actual = try SQLiteConnection(path: outputPath, readOnly: true)
            _ = try actual.scalarInt("SELECT count(*) FROM sqlite_schema")
        } catch {
            throw Diagnostic.error("cannot read \"\(output)\" as a SQLite database: \(error)")
        }
        defer { actual.close() }
        return Result(differences: try DatabaseComparison.differences(expected: expected, actual: actual))
    }
}
