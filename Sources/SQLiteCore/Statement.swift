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

/// `SQLITE_TRANSIENT`: SQLite copies bound text and blobs before the bind call returns.
@usableFromInline
let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One prepared statement of a ``Connection``: bind, step, read columns, reset.
///
/// The binding and stepping methods are `@inlinable` thin calls into SQLite, so that a hot
/// loop (dbgen's CSV import binds millions of values) pays nothing for the wrapper.
public final class Statement {
    /// The raw `sqlite3_stmt*`.
    @usableFromInline package let handle: OpaquePointer
    /// The connection's raw handle, for error messages.
    @usableFromInline let database: OpaquePointer
    /// The statement's SQL text.
    public let sql: String

    /// Prepares the first statement of `sql` on `connection`.
    ///
    /// - Throws: ``SQLiteError`` when `sql` does not compile, or holds no statement
    ///   (only whitespace or comments).
    package convenience init(_ connection: Connection, _ sql: String) throws {
        let database = try connection.openHandle()
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else {
            throw SQLiteError(database: database, sql: sql)
        }
        guard let statement else {
            throw SQLiteError(extendedResultCode: .SQLITE_MISUSE, message: "no SQL statement", sql: sql)
        }
        self.init(handle: statement, database: database, sql: sql)
    }

    /// Takes ownership of an already prepared statement (finalized when released).
    package init(handle: OpaquePointer, database: OpaquePointer, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// The number of parameters (`?`, `?NNN`, `:name`, `@name`, `$name`).
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// The name of the parameter at a 1-based index (`:name` with its prefix), or nil.
    package func parameterName(at index: Int32) -> String? {
        sqlite3_bind_parameter_name(handle, index).map { String(cString: $0) }
    }

    /// The number of result columns.
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The name of a result column.
    public func columnName(_ index: Int32) -> String {
        sqlite3_column_name(handle, index).map { String(cString: $0) } ?? ""
    }

    /// True when the statement cannot change the database (`sqlite3_stmt_readonly`).
    package var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// Binds `value` to the parameter at a 1-based index.
    public func bind(_ value: DatabaseValue, at index: Int32) throws {
        let status: Int32
        switch value {
        case .null:
            status = sqlite3_bind_null(handle, index)
        case .integer(let value):
            status = sqlite3_bind_int64(handle, index, value)
        case .real(let value):
            status = sqlite3_bind_double(handle, index, value)
        case .text(let value):
            let count = Int32(value.utf8.count)
            status = value.withCString { sqlite3_bind_text(handle, index, $0, count, transientDestructor) }
        case .blob(let data) where data.isEmpty:
            status = sqlite3_bind_zeroblob(handle, index, 0)
        case .blob(let data):
            status = data.withUnsafeBytes { raw in
                sqlite3_bind_blob(handle, index, raw.baseAddress, Int32(data.count), transientDestructor)
            }
        }
        guard status == SQLITE_OK else { throw SQLiteError(database: database, sql: sql) }
    }

    /// Binds `values` to parameters 1, 2, …
    public func bind(_ values: [DatabaseValue]) throws {
        for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
    }

    /// Binds `count` bytes of UTF-8 text at `bytes`, copied by SQLite (the hot-path bind:
    /// no Swift string is made). Returns SQLite's result code.
    @inlinable @discardableResult
    package func bindText(_ bytes: UnsafePointer<CChar>?, count: Int32, at index: Int32) -> ResultCode {
        ResultCode(rawValue: sqlite3_bind_text(handle, index, bytes, count, transientDestructor))
    }

    /// Binds `count` bytes of UTF-8 text at `bytes` without copying them (`SQLITE_STATIC`): the
    /// bytes must stay valid and unchanged until the statement is stepped for the last time with
    /// this binding (rebound, cleared or finalized). The fastest bind, for bulk loads whose
    /// buffers outlive the step. Returns SQLite's result code.
    @inlinable @discardableResult
    package func bindTextNoCopy(_ bytes: UnsafePointer<CChar>?, count: Int32, at index: Int32) -> ResultCode {
        ResultCode(rawValue: sqlite3_bind_text(handle, index, bytes, count, nil)) // nil is SQLITE_STATIC
    }

    /// Binds a 64-bit integer at a 1-based index (the hot-path bind). Returns SQLite's result code.
    @inlinable @discardableResult
    package func bindInt64(_ value: Int64, at index: Int32) -> ResultCode {
        ResultCode(rawValue: sqlite3_bind_int64(handle, index, value))
    }

    /// Binds NULL at a 1-based index. Returns SQLite's result code.
    @inlinable @discardableResult
    package func bindNull(at index: Int32) -> ResultCode { ResultCode(rawValue: sqlite3_bind_null(handle, index)) }

    /// One step: `SQLITE_ROW`, `SQLITE_DONE`, or an error code (see ``error``).
    @inlinable
    package func stepStatus() -> ResultCode { ResultCode(rawValue: sqlite3_step(handle)) }

    /// One step: true when a row is available, false when done.
    ///
    /// - Throws: ``SQLiteError`` on any other result.
    @inlinable
    public func step() throws -> Bool {
        let status = sqlite3_step(handle)
        if status == SQLITE_ROW { return true }
        if status == SQLITE_DONE { return false }
        throw SQLiteError(database: database, sql: sql)
    }

    /// Resets the statement to run again (bindings are kept). Returns SQLite's result code:
    /// that of the last step when it failed, else `SQLITE_OK`.
    @inlinable @discardableResult
    public func reset() -> ResultCode { ResultCode(rawValue: sqlite3_reset(handle)) }

    /// Sets every parameter back to NULL.
    @inlinable
    public func clearBindings() { sqlite3_clear_bindings(handle) }

    /// The connection's current error, attributed to this statement.
    package var error: SQLiteError { SQLiteError(database: database, sql: sql) }

    /// The value of a result column of the current row, with its storage class.
    public func column(_ index: Int32) -> DatabaseValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let text = sqlite3_column_text(handle, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default:
            return .null
        }
    }

    /// Every column of the current row.
    public func row() -> [DatabaseValue] {
        (0..<columnCount).map { column($0) }
    }
}
