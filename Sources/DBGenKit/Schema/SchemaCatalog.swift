import SQLiteCore

/// The schema of one database: its objects by name, and which tables are the shadow tables
/// of which virtual table.
struct SchemaCatalog {
    /// Every object, by name.
    var objects: [String: SchemaObject] = [:]
    /// Shadow table name → its virtual table's name.
    var shadowParent: [String: String] = [:]

    /// Reads the schema of `connection`'s main database.
    init(_ connection: Connection) throws {
        try connection.forEachRow("SELECT type, name, tbl_name, sql FROM main.sqlite_master") { row in
            guard case .text(let type) = row[0], case .text(let name) = row[1] else { return }
            let tableName: String
            if case .text(let text) = row[2] { tableName = text } else { tableName = name }
            var sql: String?
            if case .text(let text) = row[3] { sql = text }
            objects[name] = SchemaObject(type: type, name: name, tableName: tableName, sql: sql)
        }
        var shadows: [String] = []
        try connection.forEachRow("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow'") {
            row in
            if case .text(let name) = row[0] { shadows.append(name) }
        }
        let virtualNames = objects.values.filter(\.isVirtualTable).map(\.name).sorted { $0.count > $1.count }
        for shadow in shadows {
            if let parent = virtualNames.first(where: { shadow.hasPrefix($0 + "_") }) { shadowParent[shadow] = parent }
        }
    }

    /// The objects of one type, sorted by name (byte order, like SQLite's BINARY collation).
    func objects(ofType type: String) -> [SchemaObject] {
        objects.values.filter { $0.type == type }.sorted { $0.name.binaryPrecedes($1.name) }
    }

    /// Ordinary tables (not virtual), including shadow tables and `sqlite_` tables.
    var ordinaryTables: [SchemaObject] { objects(ofType: "table").filter { !$0.isVirtualTable } }
}
