import CSQLite

/// Rows written into a database without SQLite's insert (dbgen's page writer lays out an
/// imported table's pages itself), which SQLite's change counter does not count: once some
/// are added, the connection's `total_changes()` SQL function counts them too, so that a
/// script that stores `total_changes()` stores what the sqlite3 shell, inserting every row,
/// would. (`changes()` and `last_insert_rowid()` need nothing: the page writer leaves the last
/// row to SQLite.)
extension Connection {
    /// Adds `count` rows to what `total_changes()` returns from now on (`total_changes()` is
    /// replaced on this connection at the first call).
    ///
    /// - Throws: ``SQLiteError`` when the function cannot be registered.
    package func addUncountedChanges(_ count: Int64) throws {
        if let counter = uncountedChanges {
            counter.rows += count
            return
        }
        let database = try openHandle()
        let counter = UncountedChangesCounter(rows: count)
        let status = sqlite3_create_function_v2(
            database, "total_changes", 0, SQLITE_UTF8, Unmanaged.passUnretained(counter).toOpaque(),
            { context, _, _ in
                guard let context, let data = sqlite3_user_data(context) else { return }
                let counter = Unmanaged<UncountedChangesCounter>.fromOpaque(data).takeUnretainedValue()
                sqlite3_result_int64(
                    context, UncountedChangesCounter.counted(sqlite3_context_db_handle(context)) + counter.rows)
            }, nil, nil, nil)
        guard status == SQLITE_OK else { throw SQLiteError(database: database, sql: nil) }
        uncountedChanges = counter
    }
}

/// The rows ``Connection/addUncountedChanges(_:)`` added (the connection keeps it alive).
final class UncountedChangesCounter {
    var rows: Int64

    init(rows: Int64) { self.rows = rows }

    /// SQLite's own count (`sqlite3_total_changes`, which every platform's SQLite has; its 32
    /// bits suffice for a build's changes).
    static func counted(_ database: OpaquePointer?) -> Int64 {
        Int64(sqlite3_total_changes(database))
    }
}
