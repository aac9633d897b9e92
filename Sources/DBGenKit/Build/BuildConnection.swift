import SQLiteCore

/// The connection a build writes through: opened on the temporary file with the pragmas that
/// make a bulk build fast, through a VFS that resolves the relative file names of `ATTACH`
/// against the running script's directory (as `.import` paths are) and gathers the new
/// database's page writes into runs of up to 64 KiB (`CoalescedWriteFile`: fewer system calls
/// than one per page; figures in docs/Performance.md), and read back for the summary's table
/// counts.
struct BuildConnection {
    let connection: Connection
    /// Where relative database names resolve; keep it alive as long as the connection.
    let relativePaths: RelativePathVFS

    /// Opens (creating) the database at `path` for a build.
    static func open(_ path: String) throws -> BuildConnection {
        do {
            let relativePaths = try RelativePathVFS(
                baseDirectory: PathResolution.currentDirectory, coalescingWrites: true)
            let uri = SQLiteURI.fileURI(path: path, parameters: [("mode", "rwc"), ("vfs", relativePaths.vfsName)])
            let connection = try Connection(uri: uri)
            // The database is a private temporary file renamed into place at the end, so no
            // per-commit sync buys anything. The rollback journal is kept in memory rather than
            // switched off: pages new to the file are never journalled (so a bulk import pays
            // nothing for it) and a script's own ROLLBACK / ROLLBACK TO still work as in sqlite3.
            // The page cache stays at SQLite's default (2000 KiB, as in the sqlite3 shell): it
            // also sizes the sorter's in-memory runs, and CREATE INDEX on a big table is faster
            // with runs that fit the CPU caches (merged from temporary files) than with one big
            // run, and peak memory stays flat whatever the size of the CSV (figures in
            // docs/Performance.md).
            try connection.execute(
                """
                PRAGMA journal_mode=MEMORY;
                PRAGMA synchronous=OFF;
                PRAGMA locking_mode=EXCLUSIVE;
                PRAGMA cache_size=-2000;
                """)
            // No SQL may load code (load_extension() is refused by the build's authorizer too).
            try connection.setEnabled(.loadExtension, false)
            return BuildConnection(connection: connection, relativePaths: relativePaths)
        } catch let error as SQLiteError {
            throw DBGenError(.output, "cannot create the database \"\(path)\": \(error.message)")
        }
    }

    /// Seals the new database for shipping: rollback-journal mode (header bytes 18 and 19 are
    /// 1), whatever journal mode the script set, so that it opens read-only from a read-only
    /// directory (an app bundle) without creating a `-wal` or `-shm` file; then writes the
    /// last gathered pages, failing if any write of the build failed (a full disk) where
    /// SQLite could not report it (`CoalescedWriteFile`).
    static func seal(_ connection: Connection) throws {
        do {
            let mode = try connection.scalar("PRAGMA journal_mode=DELETE")
            guard case .text(let name)? = mode, name.lowercased() == "delete" else {
                throw DBGenError(
                    .output, "cannot leave WAL mode: the database stayed in journal mode \(String(describing: mode))")
            }
        } catch let error as SQLiteError {
            throw DBGenError(.output, "cannot seal the database in rollback-journal mode: \(error.message)")
        }
        do {
            try CoalescedWriteFile.flush(connection)
        } catch let error as SQLiteError {
            throw DBGenError(.output, "cannot write the new database: \(error.message)")
        }
    }

    /// Every ordinary table of the database (including sqlite_sequence) and its row count.
    static func tableCounts(_ connection: Connection) throws -> [BuildSummary.Table] {
        do {
            let names = try SchemaCatalog(connection).ordinaryTables.map(\.name)
            return try names.map { name in
                // From the B-tree's page headers when SQLite lends the file (much less to read
                // than count(*) on a big table), else count(*).
                if let rows = try connection.rowCount(ofTable: name) {
                    return BuildSummary.Table(name: name, rows: Int(rows))
                }
                let count = try connection.scalar("SELECT count(*) FROM \(SQLIdentifier.quote(name))")
                guard case .integer(let rows)? = count else { return BuildSummary.Table(name: name, rows: 0) }
                return BuildSummary.Table(name: name, rows: Int(rows))
            }
        } catch let error as SQLiteError {
            throw DBGenError(.sql, "cannot count the rows of the new database: \(error.message)")
        }
    }
}
