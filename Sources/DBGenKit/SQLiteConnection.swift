import CSQLite
import Foundation

/// `SQLITE_TRANSIENT`: tells sqlite3 to copy bound text at once.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A small owner of one `sqlite3*` handle: open, run SQL, read rows, close.
public final class SQLiteConnection {
    /// The raw handle, for code (such as the importer) that talks to sqlite3 directly.
    public private(set) var handle: OpaquePointer?

    /// An error from sqlite3, with the byte offset into the SQL it points at when known.
    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var code: Int32
        /// `sqlite3_error_offset`: byte offset into the statement text, or nil.
        public var offset: Int?
        public var description: String { message }
    }

    /// Process-wide settings made once, before the first connection initializes SQLite:
    /// memory statistics off (no global mutex around every allocation; nothing here reads them).
    private static let libraryConfigured: Void = {
        _ = shipyard_sqlite3_disable_memory_statistics()
    }()

    /// Opens (creating unless `readOnly`) the database at `path`.
    public init(path: String, readOnly: Bool = false) throws {
        _ = Self.libraryConfigured
        var db: OpaquePointer?
        let flags = readOnly
            ? SQLITE_OPEN_READONLY
            : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        if rc != SQLITE_OK {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw Failure(message: message, code: rc, offset: nil)
        }
        handle = db
    }

    deinit { close() }

    /// Closes the handle (idempotent).
    public func close() {
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// The current error message of the connection.
    public var errorMessage: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "database is closed" }

    /// Runs every statement of `sql` (no rows expected, or ignored).
    public func execute(_ sql: String) throws {
        var errmsg: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errmsg)
        if rc != SQLITE_OK {
            let message = errmsg.map { String(cString: $0) } ?? errorMessage
            sqlite3_free(errmsg)
            throw Failure(message: message, code: rc, offset: nil)
        }
    }

    /// Runs one query and returns its rows, each column as (typeof, text) pairs rendered by `render`.
    public func query(_ sql: String, _ bindings: [String] = []) throws -> [[SQLiteValue]] {
        var rows: [[SQLiteValue]] = []
        try forEachRow(sql, bindings) { rows.append($0) }
        return rows
    }

    /// Runs one query and calls `body` for every row.
    public func forEachRow(_ sql: String, _ bindings: [String] = [], _ body: ([SQLiteValue]) throws -> Void) throws {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else {
            throw Failure(message: errorMessage, code: sqlite3_errcode(handle), offset: nil)
        }
        defer { sqlite3_finalize(stmt) }
        for (index, value) in bindings.enumerated() {
            sqlite3_bind_text(stmt, Int32(index + 1), value, -1, sqliteTransient)
        }
        let count = sqlite3_column_count(stmt)
        while true {
            let rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else {
                throw Failure(message: errorMessage, code: rc, offset: nil)
            }
            var row: [SQLiteValue] = []
            row.reserveCapacity(Int(count))
            for column in 0..<count { row.append(SQLiteValue(stmt, column)) }
            try body(row)
        }
    }

    /// A prepared query read one row at a time.
    public final class RowStream {
        private var statement: OpaquePointer?
        private let connection: SQLiteConnection

        public init(_ connection: SQLiteConnection, _ sql: String) throws {
            self.connection = connection
            guard sqlite3_prepare_v2(connection.handle, sql, -1, &statement, nil) == SQLITE_OK else {
                throw Failure(message: connection.errorMessage, code: sqlite3_errcode(connection.handle), offset: nil)
            }
        }

        deinit { sqlite3_finalize(statement) }

        /// The next row, or nil at the end.
        public func next() throws -> [SQLiteValue]? {
            guard let statement else { return nil }
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return nil }
            guard rc == SQLITE_ROW else {
                throw Failure(message: connection.errorMessage, code: rc, offset: nil)
            }
            return (0..<sqlite3_column_count(statement)).map { SQLiteValue(statement, $0) }
        }
    }

    /// The first column of the first row of `sql` as an integer.
    public func scalarInt(_ sql: String) throws -> Int64 {
        let rows = try query(sql)
        if case .integer(let value)? = rows.first?.first { return value }
        return 0
    }
}

/// One value read from sqlite3, keeping its storage class.
public enum SQLiteValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    init(_ stmt: OpaquePointer, _ column: Int32) {
        switch sqlite3_column_type(stmt, column) {
        case SQLITE_INTEGER: self = .integer(sqlite3_column_int64(stmt, column))
        case SQLITE_FLOAT: self = .real(sqlite3_column_double(stmt, column))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(stmt, column))
            if let bytes = sqlite3_column_text(stmt, column) {
                self = .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
            } else {
                self = .text("")
            }
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(stmt, column))
            if let bytes = sqlite3_column_blob(stmt, column) {
                self = .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
            } else {
                self = .blob([])
            }
        default: self = .null
        }
    }

    /// The text of a `.text` value, else nil.
    public var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}
