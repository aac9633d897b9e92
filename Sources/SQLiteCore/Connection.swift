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

/// A SQLite connection: execute SQL, query rows, bind parameters. The one owner of a
/// `sqlite3*` in Shipyard: dbgen's builder and importer and the layered database all use it.
///
/// Every connection opens with `SQLITE_OPEN_URI`, so `file:` URIs given to `ATTACH`
/// (`file:PATH?mode=ro&immutable=1`) are honoured whatever SQLite's build options, with no
/// process-wide `sqlite3_config` call.
///
/// Not thread-safe: use one connection from one thread at a time (open one connection per
/// thread or process; SQLite's file locking coordinates them).
public final class Connection {
    /// The underlying `sqlite3*` handle; nil once closed.
    package private(set) var handle: OpaquePointer?

    /// The authorizer closure the C callback points to (see ``setAuthorizer(_:)``).
    var authorizerBox: AuthorizerBox?
    /// Rows written without SQLite's insert, which `total_changes()` counts too (see
    /// ``addUncountedChanges(_:)``).
    var uncountedChanges: UncountedChangesCounter?

    /// Opens a database file by path (never interpreted as a URI).
    ///
    /// - Parameters:
    ///   - path: The file path.
    ///   - readOnly: Open with `SQLITE_OPEN_READONLY` instead of read-write.
    ///   - create: Create the file if it does not exist (ignored when `readOnly`).
    ///   - busyTimeout: How long to wait for another connection's lock, in milliseconds.
    public convenience init(path: String, readOnly: Bool = false, create: Bool = false, busyTimeout: Int32 = 10_000)
        throws
    {
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
    package init(uri: String, busyTimeout: Int32 = 10_000) throws {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(uri, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            let code = db.map { sqlite3_extended_errcode($0) } ?? status
            sqlite3_close_v2(db)
            throw SQLiteError(extendedResultCode: ResultCode(rawValue: code), message: "\(message): \(uri)")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeout)
    }

    /// False for a connection that borrows another library's handle (``init(borrowing:)``).
    private var ownsHandle = true

    /// Wraps a handle opened and owned by someone else (another SQLite library, such as
    /// GRDB's `Database.sqliteConnection`), to run SQL through this API. Closing or releasing
    /// the wrapper does not close the handle.
    public init(borrowing handle: OpaquePointer) {
        self.handle = handle
        ownsHandle = false
    }

    deinit { close() }

    /// The open handle.
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_MISUSE`) when the connection is closed.
    package func openHandle() throws -> OpaquePointer {
        guard let handle else {
            throw SQLiteError(extendedResultCode: .SQLITE_MISUSE, message: "connection is closed")
        }
        return handle
    }

    /// Prepares the first statement of `sql`.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(self, sql)
    }

    /// Compiles the first statement of the `byteCount` bytes at `sql`, as the sqlite3 shell
    /// walks a script: the caller steps it, then goes on after ``PreparedPrefix/consumedBytes``.
    ///
    /// - Throws: ``SQLiteError`` with ``SQLiteError/offset`` (relative to `sql`) when the
    ///   statement does not compile.
    package func prepareFirst(of sql: UnsafePointer<CChar>, byteCount: Int) throws -> PreparedPrefix {
        let database = try openHandle()
        var raw: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        guard sqlite3_prepare_v2(database, sql, Int32(byteCount), &raw, &tail) == SQLITE_OK else {
            sqlite3_finalize(raw)
            throw SQLiteError(database: database, sql: nil)
        }
        let consumed = tail.map { $0 - sql } ?? byteCount
        guard let raw else { return PreparedPrefix(statement: nil, consumedBytes: consumed) }
        let text = String(decoding: UnsafeRawBufferPointer(start: sql, count: consumed), as: UTF8.self)
        return PreparedPrefix(
            statement: Statement(handle: raw, database: database, sql: text),
            consumedBytes: consumed)
    }

    /// The connection's current error message (`sqlite3_errmsg`).
    package var errorMessage: String {
        handle.map { String(cString: sqlite3_errmsg($0)) } ?? "connection is closed"
    }

    /// `PRAGMA user_version`.
    public func userVersion(schema: String = "main") throws -> Int64 {
        guard case .integer(let value)? = try scalar("PRAGMA \(SQLIdentifier.quote(schema)).user_version") else {
            return 0
        }
        return value
    }

    /// Closes the connection (also done when the object is released). Later calls throw.
    public func close() {
        if let handle {
            if ownsHandle { sqlite3_close_v2(handle) }
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
        guard handle != nil else {
            throw SQLiteError(extendedResultCode: .SQLITE_MISUSE, message: "connection is closed", sql: sql)
        }
        var bound = arguments.isEmpty
        try forEachStatement(sql) { statement, _ in
            if statement.parameterCount > 0 {
                guard statement.parameterCount == arguments.count else {
                    throw SQLiteError(
                        extendedResultCode: .SQLITE_RANGE,
                        message:
                            "statement has \(statement.parameterCount) parameter(s) but \(arguments.count) argument(s) were given",
                        sql: statement.sql)
                }
                try statement.bind(arguments)
                bound = true
            }
            try Self.readRows(of: statement, body)
        }
        if !bound {
            throw SQLiteError(
                extendedResultCode: .SQLITE_RANGE,
                message: "\(arguments.count) argument(s) given but the SQL has no parameters", sql: sql)
        }
    }

    /// Prepares the statements of `sql` one at a time and hands each to `body` unstepped
    /// (to inspect, step or skip), with the 1-based line of `sql` where it starts.
    package func forEachStatement(_ sql: String, _ body: (Statement, Int) throws -> Void) throws {
        let db = try openHandle()
        var utf8 = Array(sql.utf8CString)
        try utf8.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var cursor: UnsafePointer<CChar>? = UnsafePointer(base)
            var line = 1
            while let start = cursor, start.pointee != 0 {
                var raw: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let status = sqlite3_prepare_v2(db, start, -1, &raw, &tail)
                let end = tail ?? start.advanced(by: strlen(start))
                let text = String(decoding: UnsafeRawBufferPointer(start: start, count: end - start), as: UTF8.self)
                var leading = 0
                for char in text.utf8 { if char == 10 { leading += 1 } else if char > 32 { break } }
                guard status == SQLITE_OK else { throw SQLiteError(database: db, sql: text) }
                cursor = tail
                defer { line += text.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } }
                guard let raw else { continue }
                try body(Statement(handle: raw, database: db, sql: text), line + leading)
            }
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
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// True inside an explicit transaction (`sqlite3_get_autocommit` is 0); false when
    /// closed.
    public var isInTransaction: Bool {
        handle.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    /// True while a statement of this connection has started and not yet finished or been
    /// reset (`sqlite3_next_stmt`, `sqlite3_stmt_busy`): a SELECT whose rows are still being
    /// read, as inside ``forEachRow(_:_:_:)``'s body.
    package var hasRunningStatement: Bool {
        guard let handle else { return false }
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { return true }
            statement = sqlite3_next_stmt(handle, current)
        }
        return false
    }

    // MARK: - Private

    private static func readRows(of statement: Statement, _ body: (Row) throws -> Void) throws {
        var names: [String]?
        while try statement.step() {
            let count = statement.columnCount
            if names == nil { names = (0..<count).map { statement.columnName($0) } }
            try body(Row(columnNames: names ?? [], values: statement.row()))
        }
    }
}

extension Connection {
    /// Replaces the content of `schema` (`main`, `temp` or an attached name) with the main
    /// database of `source`, page for page, through SQLite's online backup API: what the
    /// sqlite3 shell's `.restore ?DB? FILE` does.
    ///
    /// - Throws: ``SQLiteError`` when the copy cannot start (an unknown schema, a transaction
    ///   writing to it) or fails; `schema` is then as it was.
    package func restore(_ schema: String = "main", from source: Connection) throws {
        let destination = try openHandle()
        guard let backup = sqlite3_backup_init(destination, schema, try source.openHandle(), "main") else {
            throw SQLiteError(database: destination, sql: nil)
        }
        let stepped = sqlite3_backup_step(backup, -1)
        // finish() leaves the copy's error (a busy source, a full disk) on the destination.
        let finished = sqlite3_backup_finish(backup)
        guard stepped == SQLITE_DONE, finished == SQLITE_OK else {
            throw SQLiteError(database: destination, sql: nil)
        }
    }
}

/// Questions about the schemas of a connection (`main`, `temp`, attached names) that SQLite's
/// C API answers, or that its catalog answers without matching error messages.
extension Connection {
    /// The file behind a schema as `sqlite3_db_filename` gives it: nil for an unknown schema,
    /// `""` for an in-memory or temporary database. Safe to call from an authorizer.
    package func filename(ofSchema schema: String) -> String? {
        guard let handle, let name = sqlite3_db_filename(handle, schema) else { return nil }
        return String(cString: name)
    }

    /// True when the schema is attached read-only (`sqlite3_db_readonly`), e.g. through a
    /// `file:…?mode=ro` URI; false for a writable or unknown schema.
    package func isReadOnly(schema: String) -> Bool {
        guard let handle else { return false }
        return sqlite3_db_readonly(handle, schema) == 1
    }

    /// True when a table or view named `name` exists in `schema`, or, with no schema, in any
    /// schema of the connection (`temp`, `main`, then the attached ones, as SQLite resolves an
    /// unqualified name); false for a schema that is not attached. Names compare as SQLite
    /// compares them (ASCII case-insensitively).
    package func tableExists(_ name: String, schema: String? = nil) throws -> Bool {
        var schemas = try query("SELECT name FROM pragma_database_list").map { $0[0].shellText }
        if !schemas.contains(where: { $0.lowercased() == "temp" }) { schemas.insert("temp", at: 1) }
        if let schema { schemas = schemas.filter { $0.lowercased() == schema.lowercased() } }
        for schema in schemas {
            let sql =
                "SELECT 1 FROM \(SQLIdentifier.quote(schema)).sqlite_master "
                + "WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE LIMIT 1"
            if try scalar(sql, [.text(name)]) != nil { return true }
        }
        return false
    }
}
