import CSQLite

/// SQLite's primary result codes that callers of ``Statement/stepStatus()`` and
/// ``Statement/reset()`` compare with, so they need not import the C module.
public enum SQLiteResultCode {
    /// `SQLITE_OK`: success.
    @inlinable public static var ok: Int32 { SQLITE_OK }
    /// `SQLITE_ROW`: a step produced a row.
    @inlinable public static var row: Int32 { SQLITE_ROW }
    /// `SQLITE_DONE`: a step finished the statement.
    @inlinable public static var done: Int32 { SQLITE_DONE }
}
