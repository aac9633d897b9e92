import CSQLite

/// An on/off option of a connection set with `sqlite3_db_config` (`SQLITE_DBCONFIG_…`), named
/// as the sqlite3 shell's `.dbconfig` names it. The one way Shipyard changes such an option
/// (``Connection/setEnabled(_:_:)``).
package struct DatabaseOption: Hashable, Sendable {
    /// The shell's name for the option (`enable_fkey`, `defensive`, …).
    package let name: String
    /// The `SQLITE_DBCONFIG_…` code.
    package let code: Int32

    /// Every option the sqlite3 3.40 shell's `.dbconfig` knows, in its order.
    package static let all: [DatabaseOption] = [
        DatabaseOption(name: "defensive", code: SQLITE_DBCONFIG_DEFENSIVE),
        DatabaseOption(name: "dqs_ddl", code: SQLITE_DBCONFIG_DQS_DDL),
        DatabaseOption(name: "dqs_dml", code: SQLITE_DBCONFIG_DQS_DML),
        DatabaseOption(name: "enable_fkey", code: SQLITE_DBCONFIG_ENABLE_FKEY),
        DatabaseOption(name: "enable_qpsg", code: SQLITE_DBCONFIG_ENABLE_QPSG),
        DatabaseOption(name: "enable_trigger", code: SQLITE_DBCONFIG_ENABLE_TRIGGER),
        DatabaseOption(name: "enable_view", code: SQLITE_DBCONFIG_ENABLE_VIEW),
        DatabaseOption(name: "fts3_tokenizer", code: SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER),
        DatabaseOption(name: "legacy_alter_table", code: SQLITE_DBCONFIG_LEGACY_ALTER_TABLE),
        DatabaseOption(name: "legacy_file_format", code: SQLITE_DBCONFIG_LEGACY_FILE_FORMAT),
        DatabaseOption(name: "load_extension", code: SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION),
        DatabaseOption(name: "no_ckpt_on_close", code: SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE),
        DatabaseOption(name: "reset_database", code: SQLITE_DBCONFIG_RESET_DATABASE),
        DatabaseOption(name: "trigger_eqp", code: SQLITE_DBCONFIG_TRIGGER_EQP),
        DatabaseOption(name: "trusted_schema", code: SQLITE_DBCONFIG_TRUSTED_SCHEMA),
        DatabaseOption(name: "writable_schema", code: SQLITE_DBCONFIG_WRITABLE_SCHEMA),
    ]

    /// The option with the shell's `name`, or nil.
    package static func named(_ name: String) -> DatabaseOption? {
        all.first { $0.name == name }
    }

    /// `SQLITE_DBCONFIG_DEFENSIVE`: writes to shadow tables and `writable_schema` tricks refused.
    package static var defensive: DatabaseOption { named("defensive")! }
    /// `SQLITE_DBCONFIG_WRITABLE_SCHEMA`.
    package static var writableSchema: DatabaseOption { named("writable_schema")! }
    /// `SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION`: the `load_extension()` SQL function and C API.
    package static var loadExtension: DatabaseOption { named("load_extension")! }
}

/// A run-time limit of a connection (`sqlite3_limit`, `SQLITE_LIMIT_…`), named as the sqlite3
/// shell's `.limit` names it.
package struct RuntimeLimit: Hashable, Sendable {
    /// The shell's name for the limit (`length`, `variable_number`, …).
    package let name: String
    /// The `SQLITE_LIMIT_…` code.
    package let code: Int32

    /// Every limit the sqlite3 3.40 shell's `.limit` knows, in its order.
    package static let all: [RuntimeLimit] = [
        RuntimeLimit(name: "length", code: SQLITE_LIMIT_LENGTH),
        RuntimeLimit(name: "sql_length", code: SQLITE_LIMIT_SQL_LENGTH),
        RuntimeLimit(name: "column", code: SQLITE_LIMIT_COLUMN),
        RuntimeLimit(name: "expr_depth", code: SQLITE_LIMIT_EXPR_DEPTH),
        RuntimeLimit(name: "compound_select", code: SQLITE_LIMIT_COMPOUND_SELECT),
        RuntimeLimit(name: "vdbe_op", code: SQLITE_LIMIT_VDBE_OP),
        RuntimeLimit(name: "function_arg", code: SQLITE_LIMIT_FUNCTION_ARG),
        RuntimeLimit(name: "attached", code: SQLITE_LIMIT_ATTACHED),
        RuntimeLimit(name: "like_pattern_length", code: SQLITE_LIMIT_LIKE_PATTERN_LENGTH),
        RuntimeLimit(name: "variable_number", code: SQLITE_LIMIT_VARIABLE_NUMBER),
        RuntimeLimit(name: "trigger_depth", code: SQLITE_LIMIT_TRIGGER_DEPTH),
        RuntimeLimit(name: "worker_threads", code: SQLITE_LIMIT_WORKER_THREADS),
    ]

    /// `SQLITE_LIMIT_LENGTH`: the most bytes a text, a blob or a row may have.
    package static var length: RuntimeLimit { all[0] }

    /// `SQLITE_LIMIT_VARIABLE_NUMBER`: the most `?` parameters one statement may have.
    package static var variableNumber: RuntimeLimit { all[9] }
}

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
