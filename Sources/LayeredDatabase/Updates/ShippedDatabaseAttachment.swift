import Foundation
import SQLiteCore

/// Which shipped database is in effect: the installed update when its `user_version` is
/// greater than the bundled file's, else the bundled file (an app update that ships newer
/// data wins over an older download; the bundled file wins ties).
public struct DatabaseInEffect: Equatable, Sendable {
    /// The file to attach.
    public let path: String
    /// Its `user_version`.
    public let userVersion: Int64
    /// True when it is the installed update, false when it is the bundled file.
    public let isInstalledUpdate: Bool

    /// Chooses between `bundledPath` and the update installed in `updatesDirectory` (none
    /// when nil, missing, or unreadable: a damaged update never hides the bundled data).
    ///
    /// - Throws: ``LayeredDatabaseError`` when the bundled file is missing or not a database.
    public static func select(bundledPath: String, updatesDirectory: String?) throws -> DatabaseInEffect {
        let bundledVersion = try bundledUserVersion(bundledPath)
        let bundled = DatabaseInEffect(path: bundledPath, userVersion: bundledVersion, isInstalledUpdate: false)
        guard let updatesDirectory else { return bundled }
        let installed = UpdatesDirectory(path: updatesDirectory, fileName: (bundledPath as NSString).lastPathComponent).installedPath
        guard FileManager.default.fileExists(atPath: installed), let version = try? userVersion(installed),
              version > bundledVersion else { return bundled }
        return DatabaseInEffect(path: installed, userVersion: version, isInstalledUpdate: true)
    }

    private static func bundledUserVersion(_ path: String) throws -> Int64 {
        guard FileManager.default.fileExists(atPath: path) else { throw LayeredDatabaseError.bundledDatabaseNotFound(path: path) }
        do {
            return try userVersion(path)
        } catch let error as SQLiteError {
            throw LayeredDatabaseError.bundledDatabaseUnreadable(path: path, reason: "cannot read it as a SQLite database (\(error.message))")
        }
    }

    /// `user_version` read read-only and immutable (no lock, no file created).
    static func userVersion(_ path: String) throws -> Int64 {
        let connection = try Connection(uri: SQLiteURI.fileURI(path: path, parameters: [("mode", "ro"), ("immutable", "1")]))
        defer { connection.close() }
        _ = try connection.scalar("SELECT count(*) FROM sqlite_schema")
        return try connection.userVersion()
    }
}

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
    public static func attach(to handle: OpaquePointer, bundledPath: String, updatesDirectory: String?,
                              as name: String = LayeredDatabase.defaultBundleName) throws -> DatabaseInEffect {
        try SchemaName.validate(name)
        let inEffect = try DatabaseInEffect.select(bundledPath: bundledPath, updatesDirectory: updatesDirectory)
        let connection = Connection(borrowing: handle)
        let uri = SQLiteURI.fileURI(path: inEffect.path, parameters: [("mode", "ro"), ("immutable", "1")])
        do {
            try connection.execute("ATTACH DATABASE ? AS \(SQLIdentifier.quote(name))", [.text(uri)])
            _ = try connection.scalar("SELECT count(*) FROM \(SQLIdentifier.quote(name)).sqlite_schema")
        } catch let error as SQLiteError {
            try? connection.execute("DETACH DATABASE \(SQLIdentifier.quote(name))")
            if error.resultCode == .SQLITE_CANTOPEN {
                throw LayeredDatabaseError.bundledDatabaseUnreadable(
                    path: inEffect.path,
                    reason: "cannot attach it: this connection does not interpret URI filenames (opened without SQLITE_OPEN_URI, and SQLite built without SQLITE_USE_URI) (\(error.message))")
            }
            throw LayeredDatabaseError.bundledDatabaseUnreadable(path: inEffect.path, reason: "cannot attach it (\(error.message))")
        }
        guard connection.isReadOnly(schema: name) else {
            try? connection.execute("DETACH DATABASE \(SQLIdentifier.quote(name))")
            throw LayeredDatabaseError.bundledDatabaseUnreadable(path: inEffect.path, reason: "attached writable: URI parameters were not honoured")
        }
        return inEffect
    }
}
