import SQLiteCore

/// Attaches the shipped database in effect (``DatabaseInEffect``: the bundled file or a newer
/// installed update) to a connection opened by another SQLite library, such as GRDB:
///
/// ```swift
/// var configuration = Configuration()
/// configuration.prepareDatabase { db in
///     try ShippedDatabaseAttachment.attach(to: db.sqliteConnection!, bundledPath: bundled,
///                                          updatesDirectory: updates)
/// }
/// let queue = try DatabaseQueue(path: userPath, configuration: configuration)
/// ```
///
/// The file is attached as `file:PATH?mode=ro&immutable=1`: read-only (a write fails with
/// SQLITE_READONLY) and immutable (no lock, no journal looked for, nothing created beside it).
/// Each new connection picks the database in effect when it opens, so a connection opened
/// after ``DatabaseUpdater`` installed an update sees it.
///
/// GRDB opens its connections without `SQLITE_OPEN_URI`, so the URI is read as one only where
/// SQLite is built with `SQLITE_USE_URI`: Apple's system SQLite is (GRDB's own
/// `DatabaseQueue(named:)` relies on it, opening `file:NAME?mode=memory&cache=shared` without
/// the flag), and so is Debian's. Nothing process-wide is needed (`sqlite3_config` returns
/// MISUSE once any framework of the app has opened a database). With a SQLite built otherwise
/// the attach fails, naming the reason, and attaches nothing: never a writable attachment.
public enum ShippedDatabaseAttachment {
    /// Attaches the database in effect to `handle` under `name`; returns which one it is.
    ///
    /// - Throws: ``LayeredDatabaseError`` when the bundled file is missing or not a database,
    ///   or when the connection does not interpret URI filenames (then nothing is attached or
    ///   created).
    @discardableResult
    public static func attach(
        to handle: OpaquePointer, bundledPath: String, updatesDirectory: String?,
        as name: String = LayeredDatabase.defaultBundleName
    ) throws -> DatabaseInEffect {
        try SchemaName.validate(name)
        let inEffect = try DatabaseInEffect.select(bundledPath: bundledPath, updatesDirectory: updatesDirectory)
        let connection = Connection(borrowing: handle)
        let uri = SQLiteURI.fileURI(path: inEffect.path, parameters: [("mode", "ro"), ("immutable", "1")])
        do {
            try connection.execute("ATTACH DATABASE ? AS \(SQLIdentifier.quote(name))", [.text(uri)])
            _ = try connection.scalar("SELECT count(*) FROM \(SQLIdentifier.quote(name)).sqlite_master")
        } catch let error as SQLiteError {
            try? connection.execute("DETACH DATABASE \(SQLIdentifier.quote(name))")
            if error.resultCode == .SQLITE_CANTOPEN {
                throw LayeredDatabaseError.bundledDatabaseUnreadable(
                    path: inEffect.path,
                    reason:
                        "cannot attach it: this connection does not interpret URI filenames (opened without SQLITE_OPEN_URI, and SQLite built without SQLITE_USE_URI) (\(error.message))"
                )
            }
            throw LayeredDatabaseError.bundledDatabaseUnreadable(
                path: inEffect.path, reason: "cannot attach it (\(error.message))")
        }
        guard connection.isReadOnly(schema: name) else {
            try? connection.execute("DETACH DATABASE \(SQLIdentifier.quote(name))")
            throw LayeredDatabaseError.bundledDatabaseUnreadable(
                path: inEffect.path, reason: "attached writable: URI parameters were not honoured")
        }
        return inEffect
    }
}
