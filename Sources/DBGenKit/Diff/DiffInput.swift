import Foundation
import SQLiteCore

/// One side of a diff: a database opened read-only, its schema read (so a file that is not
/// a database fails here, naming the file).
struct DiffInput {
    let path: String
    let connection: Connection
    let catalog: SchemaCatalog

    init(path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { throw DBGenError.fileNotFound(path: path) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw DBGenError.notADatabase(path: path, reason: "not a regular file")
        }
        self.path = path
        do {
            connection = try Connection(uri: SQLiteURI.fileURI(path: path, parameters: [("mode", "ro")]))
            catalog = try SchemaCatalog(connection)
        } catch let error as SQLiteError {
            if error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
                throw DBGenError.notADatabase(path: path, reason: error.message)
            }
            throw DBGenError.sqlite(path: path, error)
        }
    }

    /// The layout of `table`, read from this database.
    func layout(_ table: String) throws -> TableLayout {
        do {
            return try TableLayout(table: table, connection: connection, createSQL: catalog.objects[table]?.sql)
        } catch let error as SQLiteError {
            throw DBGenError.sqlite(path: path, error)
        }
    }

    /// The rows of `layout`'s table in key order.
    func rows(_ layout: TableLayout) throws -> Statement {
        do {
            return try connection.prepare(layout.selectSQL())
        } catch let error as SQLiteError {
            throw DBGenError.sqlite(path: path, error)
        }
    }

    /// `PRAGMA name` as an integer.
    func pragma(_ name: String) throws -> Int64 {
        if case .integer(let value)? = try connection.scalar("PRAGMA main.\(name)") { return value }
        return 0
    }
}

/// One row of `sqlite_schema`.
struct SchemaObject: Equatable {
    /// `table`, `index`, `view` or `trigger`.
    var type: String
    var name: String
    var tableName: String
    /// The CREATE statement; nil for automatic indexes (`sqlite_autoindex_…`).
    var sql: String?

    /// True for `CREATE VIRTUAL TABLE`.
    var isVirtualTable: Bool {
        type == "table" && (sql ?? "").range(of: "CREATE VIRTUAL", options: [.caseInsensitive, .anchored]) != nil
    }
}

/// The schema of one database: its objects by name, and which tables are the shadow tables
/// of which virtual table.
struct SchemaCatalog {
    /// Every object, by name.
    var objects: [String: SchemaObject] = [:]
    /// Shadow table name → its virtual table's name.
    var shadowParent: [String: String] = [:]

    /// Reads the schema of `connection`'s main database.
    init(_ connection: Connection) throws {
        try connection.forEachRow("SELECT type, name, tbl_name, sql FROM main.sqlite_schema") { row in
            guard case .text(let type) = row[0], case .text(let name) = row[1] else { return }
            let tableName: String
            if case .text(let text) = row[2] { tableName = text } else { tableName = name }
            var sql: String?
            if case .text(let text) = row[3] { sql = text }
            objects[name] = SchemaObject(type: type, name: name, tableName: tableName, sql: sql)
        }
        var shadows: [String] = []
        try connection.forEachRow("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow'") { row in
            if case .text(let name) = row[0] { shadows.append(name) }
        }
        let virtualNames = objects.values.filter(\.isVirtualTable).map(\.name).sorted { $0.count > $1.count }
        for shadow in shadows {
            if let parent = virtualNames.first(where: { shadow.hasPrefix($0 + "_") }) { shadowParent[shadow] = parent }
        }
    }

    /// The objects of one type, sorted by name (byte order, like SQLite's BINARY collation).
    func objects(ofType type: String) -> [SchemaObject] {
        objects.values.filter { $0.type == type }.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
    }

    /// Ordinary tables (not virtual), including shadow tables and `sqlite_` tables.
    var ordinaryTables: [SchemaObject] { objects(ofType: "table").filter { !$0.isVirtualTable } }
}

extension String {
    /// Byte-order comparison (SQLite's BINARY collation), the order names are listed in.
    func binaryPrecedes(_ other: String) -> Bool {
        Array(utf8).lexicographicallyPrecedes(Array(other.utf8))
    }
}
