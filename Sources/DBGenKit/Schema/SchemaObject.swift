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
import EssentialsSupport

/// One row of `sqlite_master`.
struct SchemaObject: Equatable {
    /// `table`, `index`, `view` or `trigger`.
    var type: String
    var name: String
    var tableName: String
    /// The CREATE statement; nil for automatic indexes (`sqlite_autoindex_…`).
    var sql: String?

    /// True for `CREATE VIRTUAL TABLE`.
    var isVirtualTable: Bool { type == "table" && Self.isVirtualTable(sql: sql) }

    /// True when `sql`, a table's `sqlite_master.sql`, creates a virtual table: SQLite stores
    /// it as `CREATE VIRTUAL TABLE …`.
    static func isVirtualTable(sql: String?) -> Bool {
        (sql ?? "").hasPrefixIgnoringASCIICase("CREATE VIRTUAL")
    }
}
