import CSQLite
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

/// An error reported by SQLite, with its result code, message and the SQL that failed.
///
/// Recognise an error by its code, never by its message:
///
/// ```swift
/// do {
///     try db.execute("DELETE FROM bundle.food")
/// } catch let error as SQLiteError where error.resultCode == .SQLITE_READONLY {
///     // the shipped database is read-only
/// } catch ResultCode.SQLITE_CONSTRAINT {
///     // any constraint failure
/// }
/// ```
public struct SQLiteError: Error, Equatable, CustomStringConvertible {
    /// The extended result code (`sqlite3_extended_errcode`), e.g. `SQLITE_READONLY_DBMOVED`,
    /// or a primary code when SQLite has no more precise one.
    public let extendedResultCode: ResultCode
    /// SQLite's message (`sqlite3_errmsg`).
    public let message: String
    /// The SQL statement that failed, when there was one.
    public let sql: String?
    /// The byte offset into the SQL that SQLite's error points at (`sqlite3_error_offset`), when
    /// known. Always nil on Apple systems older than macOS 13, iOS 16, tvOS 16 and watchOS 9,
    /// whose SQLite lacks the function.
    public let offset: Int?

    /// An error with this code and message.
    package init(extendedResultCode: ResultCode, message: String, sql: String? = nil, offset: Int? = nil) {
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
        self.offset = offset
    }

    /// The connection's current error (`sqlite3_extended_errcode`, `sqlite3_errmsg`,
    /// `sqlite3_error_offset`), attributed to `sql` (trimmed of surrounding whitespace).
    @usableFromInline package init(database: OpaquePointer, sql: String?) {
        self.init(
            extendedResultCode: ResultCode(rawValue: sqlite3_extended_errcode(database)),
            message: String(cString: sqlite3_errmsg(database)),
            sql: sql.map { $0.trimmingWhitespaceAndNewlines() },
            offset: Self.errorOffset(database))
    }

    /// `sqlite3_error_offset`, where the system's SQLite has it (3.38; Apple: macOS 13, iOS 16,
    /// tvOS 16, watchOS 9); nil before, and when the error points at no token.
    static func errorOffset(_ database: OpaquePointer) -> Int? {
        guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else { return nil }
        let offset = sqlite3_error_offset(database)
        return offset >= 0 ? Int(offset) : nil
    }

    /// The primary result code, e.g. `SQLITE_READONLY` for `SQLITE_READONLY_DBMOVED`.
    public var resultCode: ResultCode { extendedResultCode.primaryResultCode }

    /// True when SQLite refused a write because the database is read-only (`SQLITE_READONLY`).
    public var isReadOnly: Bool { resultCode == .SQLITE_READONLY }

    /// `MESSAGE (SQLite result code CODE) in "SQL"`; a read-only refusal says so once, in plain
    /// words, in place of SQLite's "attempt to write a readonly database" (the extended code
    /// still tells which refusal it was).
    public var description: String {
        var text = isReadOnly ? "cannot write: the database is read-only" : message
        text += " (SQLite result code \(extendedResultCode.rawValue))"
        if let sql { text += " in \"\(sql)\"" }
        return text
    }
}
