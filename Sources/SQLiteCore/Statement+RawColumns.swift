import CSQLite

extension Statement {
    /// The storage class of a column of the current row, read without making a value.
    @inlinable
    package func storageClass(_ index: Int32) -> StorageClass {
        StorageClass(rawValue: sqlite3_column_type(handle, index)) ?? .null
    }

    /// The column as a 64-bit integer (`sqlite3_column_int64`).
    @inlinable
    package func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// The column as a double (`sqlite3_column_double`).
    @inlinable
    package func double(_ index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// The bytes of a TEXT (UTF-8, without the terminating NUL, invalid sequences kept as
    /// they are) or BLOB column, valid until the statement steps, resets or reads the column
    /// in another form. Call after ``storageClass(_:)`` says `.text` or `.blob`: the bytes
    /// are then read in that class without conversion.
    @inlinable
    package func bytes(_ index: Int32, of storageClass: StorageClass) -> UnsafeRawBufferPointer {
        let base: UnsafeRawPointer?
        if storageClass == .text {
            base = sqlite3_column_text(handle, index).map { UnsafeRawPointer($0) }
        } else {
            base = sqlite3_column_blob(handle, index)
        }
        let count = Int(sqlite3_column_bytes(handle, index))
        return UnsafeRawBufferPointer(start: count > 0 ? base : nil, count: count)
    }
}

extension Statement {
    /// Column `index` of the current row as a ``ColumnValue`` (`sqlite3_column_value`).
    @inlinable
    package func value(_ index: Int32) -> ColumnValue {
        // Sqlite3_column_value is not NULL for a column of the current row (the caller's index is in range).
        // swift-format-ignore: NeverForceUnwrap
        ColumnValue(sqlite3_column_value(handle, index)!)
    }
}
