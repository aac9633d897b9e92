import CSQLite

/// One statement compiled from the front of a longer SQL text (see
/// ``Connection/prepareFirst(of:byteCount:)``).
public struct PreparedPrefix {
    /// The statement, or nil when the text held only whitespace or comments.
    public let statement: Statement?
    /// How many bytes of the text the statement (with its leading trivia) took.
    public let consumedBytes: Int
}

extension Connection {
    /// Compiles the first statement of the `byteCount` bytes at `sql`, as the sqlite3 shell
    /// walks a script: the caller steps it, then goes on after ``PreparedPrefix/consumedBytes``.
    ///
    /// - Throws: ``SQLiteError`` with ``SQLiteError/offset`` (relative to `sql`) when the
    ///   statement does not compile.
    public func prepareFirst(of sql: UnsafePointer<CChar>, byteCount: Int) throws -> PreparedPrefix {
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
        return PreparedPrefix(statement: Statement(handle: raw, database: database, sql: text),
                              consumedBytes: consumed)
    }

    /// True when no transaction is open (`sqlite3_get_autocommit`).
    public var isAutocommit: Bool {
        guard let handle else { return true }
        return sqlite3_get_autocommit(handle) != 0
    }

    /// The current value of a run-time limit (`sqlite3_limit`, e.g. `SQLITE_LIMIT_VARIABLE_NUMBER`).
    public func limit(_ category: Int32) -> Int {
        guard let handle else { return 0 }
        return Int(sqlite3_limit(handle, category, -1))
    }

    /// Sets a run-time limit and returns its previous value (SQLite caps it at the compiled-in maximum).
    @discardableResult
    public func setLimit(_ category: Int32, to value: Int32) -> Int {
        guard let handle else { return 0 }
        return Int(sqlite3_limit(handle, category, value))
    }

    /// Sets an on/off database option (`sqlite3_db_config` with `SQLITE_DBCONFIG_…`) and
    /// returns the value now in effect.
    @discardableResult
    public func setDatabaseOption(_ option: Int32, enabled: Bool) throws -> Bool {
        let database = try openHandle()
        var result: Int32 = 0
        let status = shipyard_sqlite3_db_config_flag(database, option, enabled ? 1 : 0, &result)
        guard status == SQLITE_OK else {
            throw SQLiteError(extendedResultCode: status, message: String(cString: sqlite3_errstr(status)))
        }
        return result != 0
    }
}
