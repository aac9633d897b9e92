import CSQLite

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
