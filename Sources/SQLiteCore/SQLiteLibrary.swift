import CSQLite

/// Facts about the linked SQLite library and its text-level helpers that need no connection.
public enum SQLiteLibrary {
    /// The library's source id (`sqlite3_sourceid`): its version, check-in date and hash.
    public static var sourceID: String { String(cString: sqlite3_sourceid()) }

    /// Turns SQLite's memory statistics off for the whole process (`SQLITE_CONFIG_MEMSTATUS`),
    /// so no global mutex is taken around every allocation and free: dbgen's import runs
    /// about 6% fewer instructions. A process-wide choice, so the library never makes it on
    /// its own: an executable calls this first, before any connection opens (later it does
    /// nothing). Returns true when the setting took effect.
    @discardableResult
    public static func disableMemoryStatistics() -> Bool {
        shipyard_sqlite3_disable_memory_statistics() == SQLITE_OK
    }

    /// The library's version (`sqlite3_libversion`), e.g. `3.40.1`.
    public static var version: String { String(cString: sqlite3_libversion()) }

    /// True when `sql` ends with a complete SQL statement (`sqlite3_complete`): a semicolon
    /// outside any string, identifier, comment or unfinished trigger body.
    /// Text after a NUL byte is not looked at, as in SQLite.
    public static func isComplete(_ sql: [UInt8]) -> Bool {
        var terminated = sql
        terminated.append(0)
        return terminated.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { sqlite3_complete($0.baseAddress!) != 0 }
        }
    }
}
