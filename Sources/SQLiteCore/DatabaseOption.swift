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

    // The three below name options of `all` above, so named(_:) finds each.
    // swift-format-ignore: NeverForceUnwrap
    /// `SQLITE_DBCONFIG_DEFENSIVE`: writes to shadow tables and `writable_schema` tricks refused.
    package static var defensive: DatabaseOption { named("defensive")! }
    // swift-format-ignore: NeverForceUnwrap
    /// `SQLITE_DBCONFIG_WRITABLE_SCHEMA`.
    package static var writableSchema: DatabaseOption { named("writable_schema")! }
    // swift-format-ignore: NeverForceUnwrap
    /// `SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION`: the `load_extension()` SQL function and C API.
    package static var loadExtension: DatabaseOption { named("load_extension")! }
}
