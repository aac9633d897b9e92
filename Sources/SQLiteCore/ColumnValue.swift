import CSQLite

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
