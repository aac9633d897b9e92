import CSQLite

extension SQLiteLibrary {
    /// Makes every connection of the process interpret URI filenames (`file:PATH?mode=ro&immutable=1`)
    /// in `sqlite3_open` and in ATTACH, as a build with `SQLITE_USE_URI` does (Debian's does;
    /// others, Apple's among them, may not). ``Connection`` opens with `SQLITE_OPEN_URI` and
    /// does not need it; a connection opened by another library (GRDB opens without that flag)
    /// does, to ATTACH a shipped database read-only and immutable.
    ///
    /// Call it before the first connection of the process is opened (by any library):
    /// SQLite takes this setting only before it initializes.
    ///
    /// - Returns: True when the setting took effect, false when SQLite was already initialized
    ///   (URIs then work only if the build enables them).
    @discardableResult
    public static func enableURIFilenames() -> Bool {
        shipyard_sqlite3_enable_uri_filenames() == SQLITE_OK
    }

    /// True when the schema `name` of the connection `handle` is read-only (`sqlite3_db_readonly`).
    public static func isReadOnly(_ handle: OpaquePointer, schema name: String) -> Bool {
        sqlite3_db_readonly(handle, name) == 1
    }
}
