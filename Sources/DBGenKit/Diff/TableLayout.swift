#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SQLiteCore

/// How one key column of a WITHOUT ROWID table is ordered in its primary-key index.
struct KeyColumnOrder: Equatable {
    /// The collation of a text key.
    enum Collation: Equatable { case binary, nocase, rtrim }
    var collation: Collation
    var descending: Bool
}

/// How a table's rows are identified and which columns carry its content: the key first
/// (the rowid, its INTEGER PRIMARY KEY alias, or a WITHOUT ROWID table's primary key),
/// then the other visible columns (generated columns follow from them and are left out).
/// This is the order sqldiff lists columns in.
struct TableLayout: Equatable {
    var table: String
    /// The key columns as SQL names (`rowid`, `_rowid_` or `oid` for a rowid table without an alias).
    var keyColumns: [String]
    /// The other visible, non-generated columns.
    var dataColumns: [String]
    /// True when the key is the rowid (a single INTEGER, compared as such).
    var isRowidKey: Bool
    /// The ordering of each key column (WITHOUT ROWID tables).
    var keyOrder: [KeyColumnOrder]
    /// True when the table declares a PRIMARY KEY (the session extension needs one).
    var hasDeclaredPrimaryKey: Bool
    /// True when the table was created WITH AUTOINCREMENT (SQLite keeps sqlite_sequence for it).
    var isAutoincrement: Bool

    /// False when rows cannot be matched by key (a rowid table whose rowid is hidden by
    /// columns named rowid, _rowid_ and oid).
    var hasKey: Bool { !keyColumns.isEmpty }

    /// Every column, key first, as listed in an INSERT.
    var allColumns: [String] { keyColumns + dataColumns }

    /// Reads the layout of `table` in `connection`'s main database; `isShadowTable` when it
    /// belongs to a virtual table (whose module writes it: never AUTOINCREMENT).
    init(table: String, connection: Connection, isShadowTable: Bool = false) throws {
        self.table = table
        let quotedTable = SQLIdentifier.quoteLiteral(table)
        var visible: [(name: String, pk: Int64)] = []
        try connection.forEachRow(
            "SELECT name, pk, hidden FROM pragma_table_xinfo(\(quotedTable), 'main') ORDER BY cid"
        ) { row in
            guard case .text(let name) = row[0], case .integer(let pk) = row[1], case .integer(let hidden) = row[2]
            else { return }
            if hidden == 0 { visible.append((name, pk)) }
        }
        let withoutRowid =
            try connection.scalar(
                "SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = \(quotedTable)") == .integer(1)
        let pkIndex = try connection.scalar(
            "SELECT name FROM pragma_index_list(\(quotedTable), 'main') WHERE origin = 'pk'")
        let declared = visible.filter { $0.pk > 0 }.sorted { $0.pk < $1.pk }.map(\.name)
        hasDeclaredPrimaryKey = !declared.isEmpty
        keyOrder = []
        isAutoincrement = false
        if withoutRowid {
            isRowidKey = false
            keyColumns = declared
            guard case .text(let index)? = pkIndex else {
                throw DBGenError.unsupportedTable(table: table, reason: "WITHOUT ROWID table has no primary-key index")
            }
            keyOrder = try Self.keyOrder(index: index, count: declared.count, connection: connection, table: table)
        } else if declared.count == 1, pkIndex == nil {
            isRowidKey = true
            keyColumns = declared // INTEGER PRIMARY KEY: an alias of the rowid
            // AUTOINCREMENT is allowed on such a key only.
            if !isShadowTable {
                let program = try TableInsertProgram(
                    connection: connection, table: table, schema: "main",
                    valueCount: visible.count)
                isAutoincrement = program.isAutoincrement
            }
        } else {
            isRowidKey = true
            let taken = Set(visible.map { $0.name.lowercased() })
            // Columns named rowid, _rowid_ and oid hide the rowid: then there is no key to
            // match rows by (the table is compared and rewritten whole, as sqldiff does).
            keyColumns = ["rowid", "_rowid_", "oid"].first(where: { !taken.contains($0) }).map { [$0] } ?? []
        }
        let keys = Set(keyColumns)
        dataColumns = visible.map(\.name).filter { !keys.contains($0) }
    }

    private static func keyOrder(index: String, count: Int, connection: Connection, table: String) throws
        -> [KeyColumnOrder]
    {
        var order: [KeyColumnOrder] = []
        try connection.forEachRow(
            "SELECT coll, desc FROM pragma_index_xinfo(\(SQLIdentifier.quoteLiteral(index)), 'main') WHERE key = 1 ORDER BY seqno"
        ) { row in
            guard case .text(let name) = row[0], case .integer(let descending) = row[1] else { return }
            let collation: KeyColumnOrder.Collation
            switch name.uppercased() {
            case "BINARY": collation = .binary
            case "NOCASE": collation = .nocase
            case "RTRIM": collation = .rtrim
            default:
                throw DBGenError.unsupportedTable(table: table, reason: "its primary key uses the collation \(name)")
            }
            order.append(KeyColumnOrder(collation: collation, descending: descending != 0))
        }
        return Array(order.prefix(count))
    }

    /// `SELECT key…, data… FROM schema.table ORDER BY key…`: the rows in key order, which is
    /// the table's storage order (no sort is needed).
    func selectSQL(schema: String = "main") -> String {
        let columns = allColumns.map(SQLIdentifier.quote).joined(separator: ", ")
        let order: String
        if !hasKey {
            return "SELECT \(columns) FROM \(SQLIdentifier.quote(schema)).\(SQLIdentifier.quote(table))"
        } else if isRowidKey {
            order = SQLIdentifier.quote(keyColumns[0])
        } else {
            order = zip(keyColumns, keyOrder).map { column, key in
                let collation = key.collation == .binary ? "BINARY" : (key.collation == .nocase ? "NOCASE" : "RTRIM")
                return SQLIdentifier.quote(column) + " COLLATE " + collation + (key.descending ? " DESC" : "")
            }.joined(separator: ", ")
        }
        return "SELECT \(columns) FROM \(SQLIdentifier.quote(schema)).\(SQLIdentifier.quote(table)) ORDER BY \(order)"
    }

    /// For a table keyed by rowid: `SELECT key, data… FROM schema.table WHERE key >= ?1
    /// ORDER BY key` (`>` when not `inclusive`), the rows from a rowid on, in key order.
    func selectSQL(fromRowid inclusive: Bool, schema: String = "main") -> String {
        let columns = allColumns.map(SQLIdentifier.quote).joined(separator: ", ")
        let key = SQLIdentifier.quote(keyColumns[0])
        return "SELECT \(columns) FROM \(SQLIdentifier.quote(schema)).\(SQLIdentifier.quote(table)) "
            + "WHERE \(key) \(inclusive ? ">=" : ">") ?1 ORDER BY \(key)"
    }
}
