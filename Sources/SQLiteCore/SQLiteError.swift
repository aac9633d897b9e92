import CSQLite
import Foundation

/// An error reported by SQLite, with its result code, message and the SQL that failed.
public struct SQLiteError: Error, Equatable, CustomStringConvertible {
    /// The extended result code (`sqlite3_extended_errcode`), e.g. 1032 (`SQLITE_READONLY_DBMOVED`)
    /// or 8 (`SQLITE_READONLY`).
    public let extendedResultCode: Int32
    /// SQLite's message (`sqlite3_errmsg`).
    public let message: String
    /// The SQL statement that failed, when there was one.
    public let sql: String?
    /// The byte offset into `sql` that SQLite's error points at (`sqlite3_error_offset`), if known.
    public var offset: Int?

    /// Creates an error.
    public init(extendedResultCode: Int32, message: String, sql: String? = nil) {
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
    }

    /// The connection's current error (`sqlite3_extended_errcode`, `sqlite3_errmsg`),
    /// attributed to `sql` (trimmed of surrounding whitespace).
    public init(database: OpaquePointer, sql: String?) {
        self.init(
            extendedResultCode: sqlite3_extended_errcode(database),
            message: String(cString: sqlite3_errmsg(database)),
            sql: sql.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        offset = sqlite3_error_offset(database) >= 0 ? Int(sqlite3_error_offset(database)) : nil
    }

    /// The primary result code (the low 8 bits of the extended code), e.g. `SQLITE_READONLY` (8).
    public var resultCode: Int32 { extendedResultCode & 0xFF }

    /// True when SQLite refused a write because the database is read-only (`SQLITE_READONLY`).
    public var isReadOnly: Bool { resultCode == SQLITE_READONLY }

    /// `MESSAGE (SQLite result code CODE) in "SQL"`; a read-only refusal says so explicitly.
    public var description: String {
        var text = message
        if isReadOnly && !message.contains("read-only") {
            text += " (the database is read-only)"
        }
        text += " (SQLite result code \(extendedResultCode))"
        if let sql { text += " in \"\(sql)\"" }
        return text
    }
}
