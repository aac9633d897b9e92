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
        setURIFilenames(true)
    }

    /// Sets whether connections opened without `SQLITE_OPEN_URI` interpret URI filenames
    /// (`SQLITE_CONFIG_URI`), overriding the build's `SQLITE_USE_URI`. Only before the first
    /// connection of the process; returns false after. False is what an SQLite built without
    /// `SQLITE_USE_URI` does, which the tests reproduce to check that ``Connection`` does not
    /// depend on that build option.
    @discardableResult
    public static func setURIFilenames(_ enabled: Bool) -> Bool {
        shipyard_sqlite3_set_uri_filenames(enabled ? 1 : 0) == SQLITE_OK
    }

    /// True when the schema `name` of the connection `handle` is read-only (`sqlite3_db_readonly`).
    public static func isReadOnly(_ handle: OpaquePointer, schema name: String) -> Bool {
        sqlite3_db_readonly(handle, name) == 1
    }
}
