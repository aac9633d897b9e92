import CSQLite

extension Connection {
    /// Turns the `load_extension()` SQL function and C API on or off for this connection
    /// (`SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION`; off by default).
    public func setLoadExtensionEnabled(_ enabled: Bool) throws {
        try setFlag(SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, enabled)
    }

    /// Turns triggers on or off for this connection (`SQLITE_DBCONFIG_ENABLE_TRIGGER`).
    public func setTriggersEnabled(_ enabled: Bool) throws {
        try setFlag(SQLITE_DBCONFIG_ENABLE_TRIGGER, enabled)
    }

    /// Turns defensive mode on or off (`SQLITE_DBCONFIG_DEFENSIVE`): writes to shadow tables
    /// and `writable_schema` tricks are refused when on.
    public func setDefensive(_ enabled: Bool) throws {
        try setFlag(SQLITE_DBCONFIG_DEFENSIVE, enabled)
    }

    private func setFlag(_ option: Int32, _ enabled: Bool) throws {
        let database = try openHandle()
        var result: Int32 = 0
        guard shipyard_sqlite3_db_config_flag(database, option, enabled ? 1 : 0, &result) == SQLITE_OK else {
            throw SQLiteError(database: database, sql: nil)
        }
    }

    /// Whether the connection is inside an explicit transaction (`sqlite3_get_autocommit` is 0).
    public var isInTransaction: Bool {
        handle.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }
}
