import CSQLite

/// The storage class of a result column in the current row (`sqlite3_column_type`).
@usableFromInline package enum StorageClass: Int32, Sendable {
    /// `SQLITE_INTEGER`
    case integer = 1
    /// `SQLITE_FLOAT`
    case real = 2
    /// `SQLITE_TEXT`
    case text = 3
    /// `SQLITE_BLOB`
    case blob = 4
    /// `SQLITE_NULL`
    case null = 5
}
