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

/// One column of a statement's current row as SQLite's own value (`sqlite3_column_value`),
/// read in place: valid until the statement steps, resets or is finalized. Reading a value's
/// type, number or bytes costs less than the `sqlite3_column_*` calls (one lookup per column
/// instead of one per call), which matters in a loop that compares millions of columns.
@frozen @usableFromInline
package struct ColumnValue {
    /// The `sqlite3_value*`.
    @usableFromInline package let handle: OpaquePointer

    @inlinable
    init(_ handle: OpaquePointer) { self.handle = handle }

    /// Its storage class.
    @inlinable
    package var storageClass: StorageClass { StorageClass(rawValue: sqlite3_value_type(handle)) ?? .null }

    /// As a 64-bit integer.
    @inlinable
    package var int64: Int64 { sqlite3_value_int64(handle) }

    /// As a double.
    @inlinable
    package var double: Double { sqlite3_value_double(handle) }

    /// The bytes of a TEXT (UTF-8) or BLOB value, read in that class without conversion.
    @inlinable
    package func bytes(as storageClass: StorageClass) -> UnsafeRawBufferPointer {
        let base: UnsafeRawPointer?
        if storageClass == .text {
            base = sqlite3_value_text(handle).map { UnsafeRawPointer($0) }
        } else {
            base = sqlite3_value_blob(handle)
        }
        let count = Int(sqlite3_value_bytes(handle))
        return UnsafeRawBufferPointer(start: count > 0 ? base : nil, count: count)
    }
}

extension Statement {
    /// Column `index` of the current row as a ``ColumnValue`` (`sqlite3_column_value`).
    @inlinable
    package func value(_ index: Int32) -> ColumnValue {
        ColumnValue(sqlite3_column_value(handle, index)!)
    }
}
