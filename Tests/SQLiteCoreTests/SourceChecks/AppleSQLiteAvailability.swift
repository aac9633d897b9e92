import ShipyardTestSupport

/// Apple's availability of every `sqlite3_*` function Shipyard's SQLite layer calls, as data.
///
/// Source: the `SQLITE_AVAILABLE(...)` annotations of the SDK's `usr/include/sqlite3.h`
/// (iPhoneOS 17.0 SDK, SQLite 3.39.5; Apple's header defines `SQLITE_AVAILABLE` as
/// `__API_AVAILABLE`, so the compiler enforces them against the deployment target). A function
/// without an annotation there predates every platform release Shipyard supports and is listed
/// as `.unannotated`. The session extension (`sqlite3session_*`, `sqlite3changeset_*`) is not in
/// Apple's header at all (`.notInAppleHeader`), though the SDK's `libsqlite3.tbd` exports it.
///
/// Add a row, read from that header, before calling a function that is not here:
/// `AppleAvailabilityTests` fails on a call it cannot find in this table.
enum AppleSQLiteAvailability {
    /// What the header says of one function.
    enum Entry {
        /// No `SQLITE_AVAILABLE` annotation: available on every supported release.
        case unannotated
        /// `SQLITE_AVAILABLE(...)`: the first release of each platform named (an omitted
        /// platform, such as tvOS and watchOS in annotations written before they existed, has
        /// the function from its first release).
        case introduced(SwiftSourceScanner.Versions)
        /// Not declared by Apple's `sqlite3.h` (CSQLite's shim may declare it for Apple platforms).
        case notInAppleHeader
    }

    static let functions: [String: Entry] = [
        // Library and connections
        "sqlite3_libversion": .unannotated,
        "sqlite3_libversion_number": .unannotated,
        "sqlite3_sourceid": .introduced(["macOS": [10, 7], "iOS": [4, 0]]),
        "sqlite3_open_v2": .unannotated,
        "sqlite3_close_v2": .introduced(["macOS": [10, 10], "iOS": [8, 2]]),
        "sqlite3_config": .unannotated,
        "sqlite3_db_config": .unannotated,
        "sqlite3_extended_result_codes": .unannotated,
        "sqlite3_busy_timeout": .unannotated,
        "sqlite3_limit": .unannotated,
        "sqlite3_get_autocommit": .unannotated,
        "sqlite3_db_filename": .introduced(["macOS": [10, 8], "iOS": [6, 0]]),
        "sqlite3_db_readonly": .introduced(["macOS": [10, 8], "iOS": [6, 0]]),
        "sqlite3_set_authorizer": .unannotated,
        "sqlite3_complete": .unannotated,
        "sqlite3_keyword_check": .introduced([
            "macOS": [10, 14], "iOS": [12, 0], "watchOS": [5, 0], "tvOS": [12, 0],
        ]),
        "sqlite3_free": .unannotated,
        // Errors
        "sqlite3_errmsg": .unannotated,
        "sqlite3_extended_errcode": .unannotated,
        "sqlite3_errstr": .introduced(["macOS": [10, 10], "iOS": [8, 2]]),
        "sqlite3_error_offset": .introduced(["macOS": [13, 0], "iOS": [16, 0], "tvOS": [16, 0], "watchOS": [9, 0]]),
        // Statements
        "sqlite3_prepare_v2": .unannotated,
        "sqlite3_step": .unannotated,
        "sqlite3_reset": .unannotated,
        "sqlite3_finalize": .unannotated,
        "sqlite3_clear_bindings": .unannotated,
        "sqlite3_stmt_readonly": .introduced(["macOS": [10, 7], "iOS": [5, 0]]),
        // Added in SQLite 3.6.0 (2008), before Apple's annotations begin (SQLite 3.6.18's
        // sqlite3_sourceid is the first, macOS 10.7).
        "sqlite3_next_stmt": .unannotated,
        // Added in SQLite 3.7.10 with sqlite3_db_filename, annotated as it is.
        "sqlite3_stmt_busy": .introduced(["macOS": [10, 8], "iOS": [6, 0]]),
        "sqlite3_bind_blob": .unannotated,
        "sqlite3_bind_double": .unannotated,
        "sqlite3_bind_int64": .unannotated,
        "sqlite3_bind_null": .unannotated,
        "sqlite3_bind_text": .unannotated,
        "sqlite3_bind_zeroblob": .unannotated,
        "sqlite3_bind_parameter_count": .unannotated,
        "sqlite3_bind_parameter_name": .unannotated,
        "sqlite3_column_count": .unannotated,
        "sqlite3_column_name": .unannotated,
        "sqlite3_column_type": .unannotated,
        "sqlite3_column_int64": .unannotated,
        "sqlite3_column_double": .unannotated,
        "sqlite3_column_text": .unannotated,
        "sqlite3_column_blob": .unannotated,
        "sqlite3_column_bytes": .unannotated,
        "sqlite3_column_value": .unannotated,
        "sqlite3_value_type": .unannotated,
        "sqlite3_value_int64": .unannotated,
        // Application-defined functions (`total_changes()` counting rows written without SQLite)
        "sqlite3_create_function_v2": .unannotated,
        "sqlite3_user_data": .unannotated,
        "sqlite3_context_db_handle": .unannotated,
        "sqlite3_result_int64": .unannotated,
        "sqlite3_total_changes": .unannotated,
        "sqlite3_value_double": .unannotated,
        "sqlite3_value_text": .unannotated,
        "sqlite3_value_blob": .unannotated,
        "sqlite3_value_bytes": .unannotated,
        // VFS and backup
        "sqlite3_vfs_find": .unannotated,
        "sqlite3_vfs_register": .unannotated,
        "sqlite3_vfs_unregister": .unannotated,
        "sqlite3_file_control": .unannotated,
        // A struct, built with its initializer (which reads as a call): unannotated, and at
        // iVersion 3 (xFetch, xUnfetch) since SQLite 3.8.2, older than any supported release's.
        "sqlite3_io_methods": .unannotated,
        "sqlite3_backup_init": .unannotated,
        "sqlite3_backup_step": .unannotated,
        "sqlite3_backup_finish": .unannotated,
        // The session extension: absent from Apple's header
        "sqlite3session_create": .notInAppleHeader,
        "sqlite3session_delete": .notInAppleHeader,
        "sqlite3session_attach": .notInAppleHeader,
        "sqlite3session_diff": .notInAppleHeader,
        "sqlite3session_changeset": .notInAppleHeader,
        "sqlite3changeset_apply": .notInAppleHeader,
    ]
}

/// Apple's availability of the Foundation methods newer than the declared platforms that
/// Shipyard's sources may call, from Apple's documentation of `FileHandle` (developer.apple.com,
/// Foundation > FileHandle > read(upToCount:), readToEnd() and write(contentsOf:): iOS 13.4,
/// macOS 10.15.4, tvOS 13.4, watchOS 6.2, visionOS 1.0). Keyed by the regex of a call
/// (`.read(upToCount:`).
enum AppleFoundationAvailability {
    static let fileHandle: SwiftSourceScanner.Versions = [
        "macOS": [10, 15, 4], "iOS": [13, 4], "tvOS": [13, 4], "watchOS": [6, 2],
    ]

    static let methods: [String: SwiftSourceScanner.Versions] = [
        #"\.(read)\(upToCount:"#: fileHandle,
        #"\.(readToEnd)\(\)"#: fileHandle,
        #"\.(write)\(contentsOf:"#: fileHandle,
    ]
}
