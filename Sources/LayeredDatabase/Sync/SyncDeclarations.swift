import SQLiteCore
import SyncProtocol

/// What a user database declares about sync: the synced tables with their rules
/// (`shipyard_sync`) and the columns that refer to shipped rows (`shipyard_references`), read
/// from the database and validated against its schema (docs/Sync.md, "Declaring what syncs").
///
/// ```swift
/// let declarations = try SyncDeclarations.read(from: connection)
/// for table in declarations.schema.tables { print(table.name, table.keyColumn, table.rule) }
/// ```
public struct SyncDeclarations: Hashable, Sendable {
    /// The synced tables, in the order of their `(T, NULL, RULE)` rows; empty when the database
    /// declares nothing (no `shipyard_sync` table, or an empty one).
    public var schema: SyncSchema
    /// The declared references to shipped rows, in the order of their rows.
    public var references: [ShippedReference]

    /// Declarations of `schema` and `references`.
    public init(schema: SyncSchema, references: [ShippedReference] = []) {
        self.schema = schema
        self.references = references
    }

    /// True when at least one table syncs.
    public var declaresSync: Bool { !schema.tables.isEmpty }

    /// The names of the declaration tables.
    public static let syncCatalog = "shipyard_sync"
    public static let referencesCatalog = "shipyard_references"

    /// Reads and validates the declarations of `connection`'s main database.
    ///
    /// - Throws: ``SyncDeclarationProblem`` for the first declaration refused (in `rowid`
    ///   order), naming its table and column and how to fix it; `SQLiteError` when reading fails.
    public static func read(from connection: Connection) throws -> SyncDeclarations {
        let rows = try DeclarationRows.read(syncCatalog, columns: ["table_name", "column_name", "rule"], connection)
        let schema = try SyncSchemaValidator(rows: rows ?? [], connection: connection).validate()
        let referenceRows = try DeclarationRows.read(
            referencesCatalog, columns: ["table_name", "column_name", "shipped_table", "shipped_column"], connection)
        let references = try (referenceRows ?? []).map { try ShippedReference.validated($0, connection) }
        return SyncDeclarations(schema: schema, references: references)
    }
}

/// The rows of a declaration table, with their `rowid` (nil for a WITHOUT ROWID table).
enum DeclarationRows {
    struct Row {
        var rowID: Int64?
        var values: [DatabaseValue]
    }

    /// The rows of `catalog`'s `columns`, in `rowid` order; nil when the table does not exist.
    ///
    /// - Throws: ``SyncDeclarationProblem`` when a column is missing.
    static func read(_ catalog: String, columns: [String], _ connection: Connection) throws -> [Row]? {
        guard let shape = try TableShape.read(catalog, on: connection) else { return nil }
        for name in columns where shape.column(named: name) == nil {
            throw SyncDeclarationProblem(
                catalog: catalog, table: nil, column: name, reason: "the table has no such column",
                fix: "create it as docs/Sync.md shows: CREATE TABLE \(catalog) (\(columns.joined(separator: ", ")))")
        }
        let list = columns.map(SQLIdentifier.quote).joined(separator: ", ")
        let sql =
            !shape.isWithoutRowID
            ? "SELECT rowid, \(list) FROM main.\(SQLIdentifier.quote(shape.name)) ORDER BY rowid"
            : "SELECT NULL, \(list) FROM main.\(SQLIdentifier.quote(shape.name))"
        return try connection.query(sql).map { Row(rowID: $0[0].integerValue, values: Array($0.values.dropFirst())) }
    }
}

extension DatabaseValue {
    /// What kind of value this is, for messages: `NULL`, `an integer`, …
    var kindName: String {
        switch self {
        case .null: return "NULL"
        case .integer: return "an integer"
        case .real: return "a real"
        case .text: return "text"
        case .blob: return "a blob"
        }
    }
}
