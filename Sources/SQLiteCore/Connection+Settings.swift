import CSQLite

extension Connection {
    /// Whether an on/off option is on (`sqlite3_db_config` asked with -1).
    package func isEnabled(_ option: DatabaseOption) throws -> Bool {
        try configure(option, -1)
    }

    /// Turns an on/off option on or off and returns the value now in effect.
    @discardableResult
    package func setEnabled(_ option: DatabaseOption, _ enabled: Bool) throws -> Bool {
        try configure(option, enabled ? 1 : 0)
    }

    private func configure(_ option: DatabaseOption, _ value: Int32) throws -> Bool {
        let database = try openHandle()
        var result: Int32 = 0
        let status = shipyard_sqlite3_db_config_flag(database, option.code, value, &result)
        guard status == SQLITE_OK else {
            throw SQLiteError(
                extendedResultCode: ResultCode(rawValue: status),
                message: "\(option.name): \(String(cString: sqlite3_errstr(status)))")
        }
        return result != 0
    }

    /// The current value of a run-time limit (`sqlite3_limit`).
    package func limit(_ limit: RuntimeLimit) -> Int {
        guard let handle else { return 0 }
        return Int(sqlite3_limit(handle, limit.code, -1))
    }

    /// Sets a run-time limit (SQLite caps it at the compiled-in maximum; a negative value
    /// leaves it as it is) and returns its previous value.
    @discardableResult
    package func setLimit(_ limit: RuntimeLimit, to value: Int32) -> Int {
        guard let handle else { return 0 }
        return Int(sqlite3_limit(handle, limit.code, value))
    }
}
