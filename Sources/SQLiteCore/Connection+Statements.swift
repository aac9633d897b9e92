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

    /// The file behind a schema (`main`, `temp`, an attached name) as `sqlite3_db_filename`
    /// gives it: nil for an unknown schema, `""` for an in-memory or temporary database.
    /// Safe to call from an authorizer.
    public func filename(ofSchema schema: String) -> String? {
        guard let handle, let name = sqlite3_db_filename(handle, schema) else { return nil }
        return String(cString: name)
    }

    /// True when no transaction is open (`sqlite3_get_autocommit`).
    public var isAutocommit: Bool {
        guard let handle else { return true }
        return sqlite3_get_autocommit(handle) != 0
    }

    /// The current value of a run-time limit (`sqlite3_limit`).
    public func limit(_ limit: RuntimeLimit) -> Int {
        guard let handle else { return 0 }
        return Int(sqlite3_limit(handle, limit.code, -1))
    }

    /// Sets a run-time limit (SQLite caps it at the compiled-in maximum; a negative value
    /// leaves it as it is) and returns its previous value.
    @discardableResult
    public func setLimit(_ limit: RuntimeLimit, to value: Int32) -> Int {
        guard let handle else { return 0 }
        return Int(sqlite3_limit(handle, limit.code, value))
    }

    /// Whether an on/off option is on (`sqlite3_db_config` asked with -1).
    public func isEnabled(_ option: DatabaseOption) throws -> Bool {
        try configure(option, -1)
    }

    /// Turns an on/off option on or off and returns the value now in effect.
    @discardableResult
    public func setEnabled(_ option: DatabaseOption, _ enabled: Bool) throws -> Bool {
        try configure(option, enabled ? 1 : 0)
    }

    private func configure(_ option: DatabaseOption, _ value: Int32) throws -> Bool {
        let database = try openHandle()
        var result: Int32 = 0
        let status = shipyard_sqlite3_db_config_flag(database, option.code, value, &result)
        guard status == SQLITE_OK else {
            throw SQLiteError(extendedResultCode: status,
                              message: "\(option.name): \(String(cString: sqlite3_errstr(status)))")
        }
        return result != 0
    }
}
