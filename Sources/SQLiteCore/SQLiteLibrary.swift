import CSQLite

/// Facts about the linked SQLite library, its process-wide settings, and text-level helpers
/// that need no connection.
public enum SQLiteLibrary {
    /// The library's source id (`sqlite3_sourceid`): its version, check-in date and hash.
    public static var sourceID: String { String(cString: sqlite3_sourceid()) }

    /// The library's version (`sqlite3_libversion`), e.g. `3.40.1`.
    public static var version: String { String(cString: sqlite3_libversion()) }

    /// True when `sql` ends with a complete SQL statement (`sqlite3_complete`): a semicolon
    /// outside any string, identifier, comment or unfinished trigger body.
    /// Text after a NUL byte is not looked at, as in SQLite.
    package static func isComplete(_ sql: [UInt8]) -> Bool {
        var terminated = sql
        terminated.append(0)
        return terminated.withUnsafeBufferPointer { buffer in
            // Terminated holds at least the NUL appended above, so it has a base address.
            // swift-format-ignore: NeverForceUnwrap
            buffer.withMemoryRebound(to: CChar.self) { sqlite3_complete($0.baseAddress!) != 0 }
        }
    }

    // MARK: Process-wide settings (sqlite3_config): best effort, never relied on by the library
    //
    // SQLite takes these only before it initializes (the first connection of the process, by
    // any library). In an app, other frameworks open SQLite databases first, so the call returns
    // SQLITE_MISUSE and changes nothing: no code in Shipyard's libraries depends on one. Only an
    // executable's main makes such a choice (dbgen: memory statistics off).

    /// Turns SQLite's memory statistics off for the whole process (`SQLITE_CONFIG_MEMSTATUS`),
    /// so no global mutex is taken around every allocation and free, which a bulk import makes
    /// for every row. An executable calls this first, before any connection opens (later it
    /// does nothing). Returns true when the setting took effect.
    @discardableResult
    package static func disableMemoryStatistics() -> Bool {
        shipyard_sqlite3_disable_memory_statistics() == SQLITE_OK
    }

    /// Makes connections opened by other libraries (GRDB opens without `SQLITE_OPEN_URI`)
    /// interpret URI filenames in `sqlite3_open` and in ATTACH (`SQLITE_CONFIG_URI`). Not for
    /// apps: it is process-wide and works only before the first connection of the process, by
    /// any framework, is opened; ``Connection`` opens with `SQLITE_OPEN_URI` and the system
    /// SQLite (Apple's, Debian's) is built with `SQLITE_USE_URI`, so nothing in Shipyard or its
    /// documented recipes needs it. The tests use it to reproduce a process where it was called.
    ///
    /// - Returns: True when the setting took effect, false when SQLite was already initialized.
    @discardableResult
    package static func enableURIFilenames() -> Bool {
        setURIFilenames(true)
    }

    /// Best effort, as ``enableURIFilenames()``: sets whether connections opened without
    /// `SQLITE_OPEN_URI` interpret URI filenames, overriding the build's `SQLITE_USE_URI`.
    /// False is what an SQLite built without `SQLITE_USE_URI` does, which the tests
    /// reproduce to check that ``Connection`` does not depend on that build option.
    @discardableResult
    package static func setURIFilenames(_ enabled: Bool) -> Bool {
        shipyard_sqlite3_set_uri_filenames(enabled ? 1 : 0) == SQLITE_OK
    }
}
