import CSQLite
import Foundation

/// `SQLITE_TRANSIENT`: SQLite copies bound text and blobs before the call returns.
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A SQLite connection: execute SQL, query rows, bind parameters.
///
/// Not thread-safe: use one connection from one thread at a time (open one connection per
/// thread or process; SQLite's file locking coordinates them).
public final class Connection {
    /// The underlying `sqlite3*` handle, for calls this type does not wrap.
    public private(set) var handle: OpaquePointer?

    /// Objects that C callbacks registered on this connection point to.
    var callbackContexts: [AnyObject] = []

    /// Opens a database file by path (never interpreted as a URI).
    ///
    /// - Parameters:
    ///   - path: The file path.
    ///   - readOnly: Open with `SQLITE_OPEN_READONLY` instead of read-write.
    ///   - create: Create the file if it does not exist (ignored when `readOnly`).
    ///   - busyTimeout: How long to wait for another connection's lock, in milliseconds.
    public convenience init(path: String, readOnly: Bool = false, create: Bool = false, busyTimeout: Int32 = 10_000) throws {
        let mode = readOnly ? "ro" : (create ? "rwc" : "rw")
        try self.init(uri: SQLiteURI.fileURI(path: path, parameters: [("mode", mode)]), busyTimeout: busyTimeout)
    }

    /// Opens a database through a SQLite URI filename (`file:…`), with `SQLITE_OPEN_URI`
    /// so that query parameters such as `mode=ro` and `immutable=1` are honoured. The
    /// access mode comes from the URI's `mode` parameter (`ro`, `rw`, `rwc`); without one,
    /// the file is opened read-write and created if missing.
    ///
    /// - Parameters:
    ///   - uri: A SQLite URI filename, e.g. from ``SQLiteURI/fileURI(path:parameters:)``.
    ///   - busyTimeout: How long to wait for another connection's lock, in milliseconds.
    public init(uri: String, busyTimeout: Int32 = 10_000) throws {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(uri, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            let code = db.map { sqlite3_extended_errcode($0) } ?? status
            sqlite3_close_v2(db)
            throw SQLiteError(extendedResultCode: code, message: "\(message): \(uri)")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeout)
    }

    deinit { close() }

    /// Closes the connection (also done when the object is released). Later calls throw.
    public func close() {
        if let handle {
            sqlite3_close_v2(handle)
            self.handle = nil
        }
    }

    /// Runs every statement in `sql`, discarding any rows.
    ///
    /// `arguments` are bound to the `?` parameters of each statement that has parameters;
    /// a statement's parameter count must equal `arguments.count`.
    public func execute(_ sql: String, _ arguments: [DatabaseValue] = []) throws {
        try forEachRow(sql, arguments) { _ in }
    }

    /// Runs every statement in `sql` and returns the rows of all of them, in order.
    ///
    /// `arguments` are bound as for ``execute(_:_:)``.
    public func query(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> [Row] {
        var rows: [Row] = []
        try forEachRow(sql, arguments) { rows.append($0) }
        return rows
    }

    /// The first column of the first row, or nil when there is no row.
    public func scalar(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> DatabaseValue? {
        try query(sql, arguments).first?.values.first
    }

    /// Runs every statement in `sql`, calling `body` for each result row as it is stepped
    /// (rows are not buffered).
    public func forEachRow(_ sql: String, _ arguments: [DatabaseValue] = [], _ body: (Row) throws -> Void) throws {
        guard let db = handle else {
            throw SQLiteError(extendedResultCode: SQLITE_MISUSE, message: "connection is closed", sql: sql)
        }
        var bound = arguments.isEmpty
        var utf8 = Array(sql.utf8CString)
        try utf8.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var cursor: UnsafePointer<CChar>? = UnsafePointer(base)
            while let start = cursor, start.pointee != 0 {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let status = sqlite3_prepare_v2(db, start, -1, &statement, &tail)
                let statementText = tail.map { statementSQL(from: start, to: $0) } ?? String(cString: start)
                guard status == SQLITE_OK else {
                    throw error(db, sql: statementText)
                }
                cursor = tail
                guard let statement else { continue } // whitespace or a comment
                defer { sqlite3_finalize(statement) }
                let parameterCount = Int(sqlite3_bind_parameter_count(statement))
                if parameterCount > 0 {
                    guard parameterCount == arguments.count else {
                        throw SQLiteError(
                            extendedResultCode: SQLITE_RANGE,
                            message: "statement has \(parameterCount) parameter(s) but \(arguments.count) argument(s) were given",
                            sql: statementText)
                    }
                    for (offset, value) in arguments.enumerated() {
                        try bind(value, at: Int32(offset + 1), in: statement, db: db, sql: statementText)
                    }
                    bound = true
                }
                try step(statement, db: db, sql: statementText, body)
            }
        }
        if !bound {
            throw SQLiteError(
                extendedResultCode: SQLITE_RANGE,
                message: "\(arguments.count) argument(s) given but the SQL has no parameters", sql: sql)
        }
    }

    /// Runs `body` inside `BEGIN IMMEDIATE` … `COMMIT`; rolls back and rethrows if it throws.
    public func inTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if let handle, sqlite3_get_autocommit(handle) == 0 {
                try? execute("ROLLBACK")
            }
            throw error
        }
    }

    // MARK: - Private

    private func step(_ statement: OpaquePointer, db: OpaquePointer, sql: String, _ body: (Row) throws -> Void) throws {
        var names: [String]?
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw error(db, sql: sql) }
            let count = sqlite3_column_count(statement)
            if names == nil {
                names = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
            }
            let values = (0..<count).map { column(statement, $0) }
            try body(Row(columnNames: names ?? [], values: values))
        }
    }

    private func column(_ statement: OpaquePointer, _ index: Int32) -> DatabaseValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard let text = sqlite3_column_text(statement, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default:
            return .null
        }
    }

    private func bind(_ value: DatabaseValue, at index: Int32, in statement: OpaquePointer, db: OpaquePointer, sql: String) throws {
        let status: Int32
        switch value {
        case .null:
            status = sqlite3_bind_null(statement, index)
        case .integer(let value):
            status = sqlite3_bind_int64(statement, index, value)
        case .real(let value):
            status = sqlite3_bind_double(statement, index, value)
        case .text(let value):
            let count = Int32(value.utf8.count)
            status = value.withCString { sqlite3_bind_text(statement, index, $0, count, transientDestructor) }
        case .blob(let data) where data.isEmpty:
            status = sqlite3_bind_zeroblob(statement, index, 0)
        case .blob(let data):
            status = data.withUnsafeBytes { raw in
                sqlite3_bind_blob(statement, index, raw.baseAddress, Int32(data.count), transientDestructor)
            }
        }
        guard status == SQLITE_OK else { throw error(db, sql: sql) }
    }

    private func error(_ db: OpaquePointer, sql: String?) -> SQLiteError {
        SQLiteError(
            extendedResultCode: sqlite3_extended_errcode(db),
            message: String(cString: sqlite3_errmsg(db)),
            sql: sql?.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private func statementSQL(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>) -> String {
        let count = end - start
        return start.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }
}
