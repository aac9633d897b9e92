import CSQLite

/// The file of a connection's database, borrowed from SQLite for a writer that lays out B-tree
/// pages itself (dbgen's bulk import, docs/Performance.md "Pages written directly"), the way
/// another process may change a database between two of this connection's transactions.
///
/// ``borrow(_:schema:)`` makes SQLite let go of the file: the schema's locking mode becomes
/// NORMAL (it was EXCLUSIVE in a build), and a read statement ends with SQLite holding no lock
/// on it, its pager in the state where the next statement starts by taking a lock and reading
/// the header's change counter. Reads and writes then go straight to the file object SQLite
/// opened (through its VFS, so a build's gathered writes stay in order). ``giveBack()``
/// restores the locking mode. When the writer has changed the file and written a new change
/// counter into the header (bytes 24–27, and 92–95 with it, as SQLite does at a commit),
/// SQLite's next statement finds the counter changed, drops every page it had cached, reads the
/// page count again, and sees the file as the writer left it, exactly as after another
/// process's commit.
///
/// For a database file of the connection's own (a build's temporary file): no other
/// connection may have it open. Not for WAL mode (``borrow(_:schema:)`` refuses), nor inside a
/// transaction.
package final class DirectDatabaseFile {
    private let connection: Connection
    private let schema: String
    private let file: UnsafeMutablePointer<sqlite3_file>
    private let methods: UnsafePointer<sqlite3_io_methods>
    /// The locking mode to restore (`exclusive`), or nil when it was already NORMAL.
    private var lockingModeToRestore: String?

    private init(connection: Connection, schema: String, file: UnsafeMutablePointer<sqlite3_file>) {
        self.connection = connection
        self.schema = schema
        self.file = file
        // Non-nil: `borrow` checks it before it makes one.
        // swift-format-ignore: NeverForceUnwrap
        self.methods = file.pointee.pMethods!
    }

    /// Takes the file of `schema` from SQLite (see the type). Returns nil, changing nothing,
    /// when that cannot be done safely: no file behind the schema (in memory, temporary), WAL
    /// mode, a transaction open, or SQLite still holding a write lock after the read.
    ///
    /// - Throws: ``SQLiteError`` when a statement fails.
    package static func borrow(_ connection: Connection, schema: String = "main") throws -> DirectDatabaseFile? {
        let database = try connection.openHandle()
        guard !connection.isInTransaction, !connection.hasRunningStatement,
            let name = connection.filename(ofSchema: schema), !name.isEmpty
        else { return nil }
        let quoted = SQLIdentifier.quote(schema)
        guard case .text(let journal)? = try connection.scalar("PRAGMA \(quoted).journal_mode"),
            journal.lowercased() != "wal",
            case .text(let mode)? = try connection.scalar("PRAGMA \(quoted).locking_mode")
        else { return nil }
        var pointer: UnsafeMutableRawPointer?
        guard sqlite3_file_control(database, schema, SQLITE_FCNTL_FILE_POINTER, &pointer) == SQLITE_OK,
            let file = pointer?.assumingMemoryBound(to: sqlite3_file.self), file.pointee.pMethods != nil
        else { return nil }
        let borrowed = DirectDatabaseFile(connection: connection, schema: schema, file: file)
        if mode.lowercased() != "normal" {
            try connection.execute("PRAGMA \(quoted).locking_mode=NORMAL")
            borrowed.lockingModeToRestore = mode.lowercased()
        }
        // A read transaction that ends in NORMAL mode releases the lock kept since the last one.
        _ = try connection.scalar("PRAGMA \(quoted).schema_version")
        guard try !borrowed.isWriteLocked() else {
            try borrowed.giveBack()
            return nil
        }
        return borrowed
    }

    /// True when this process still holds a RESERVED or stronger lock on the file.
    private func isWriteLocked() throws -> Bool {
        var reserved: Int32 = 0
        guard let checkReservedLock = methods.pointee.xCheckReservedLock else { return true }
        try check(checkReservedLock(file, &reserved), "check the lock of")
        return reserved != 0
    }

    /// Restores the schema's locking mode; SQLite takes the file back at its next statement.
    /// Call once, after the last read or write.
    package func giveBack() throws {
        guard let mode = lockingModeToRestore else { return }
        lockingModeToRestore = nil
        try connection.execute("PRAGMA \(SQLIdentifier.quote(schema)).locking_mode=\(mode.uppercased())")
    }

    /// The file's size in bytes.
    package func size() throws -> Int64 {
        var size: sqlite3_int64 = 0
        try check(methods.pointee.xFileSize?(file, &size) ?? SQLITE_MISUSE, "read the size of")
        return Int64(size)
    }

    /// Reads `count` bytes at `offset` into `buffer`; bytes past the end of the file read as zeros.
    package func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64) throws {
        let status = methods.pointee.xRead?(file, buffer, Int32(count), offset) ?? SQLITE_MISUSE
        // A short read has filled the rest of the buffer with zeros.
        if status != SQLITE_IOERR | (2 << 8) { try check(status, "read") } // SQLITE_IOERR_SHORT_READ
    }

    /// Writes `count` bytes (at most 1 GiB) at `offset`.
    package func write(_ bytes: UnsafeRawPointer, count: Int, at offset: Int64) throws {
        try check(methods.pointee.xWrite?(file, bytes, Int32(count), offset) ?? SQLITE_MISUSE, "write")
    }

    /// Cuts the file to `size` bytes.
    package func truncate(to size: Int64) throws {
        try check(methods.pointee.xTruncate?(file, size) ?? SQLITE_MISUSE, "truncate")
    }

    private func check(_ status: Int32, _ what: String) throws {
        guard status == SQLITE_OK else {
            throw SQLiteError(
                extendedResultCode: ResultCode(rawValue: status),
                message: "cannot \(what) the database file: \(String(cString: sqlite3_errstr(status)))")
        }
    }

    /// The linked library's version number (`sqlite3_libversion_number`), which SQLite writes
    /// into the header at each commit (bytes 96–99).
    package static var libraryVersionNumber: Int32 { sqlite3_libversion_number() }
}
