import SQLiteCore
import Foundation

/// A writable user database with the app's shipped, read-only database attached beside it.
///
/// ```swift
/// let db = try LayeredDatabase(
///     userPath: documents + "/user.sqlite",       // created on first launch
///     templatePath: bundle + "/user.sqlite",      // empty user template shipped in the app
///     bundledPath: bundle + "/database.sqlite")   // attached read-only as "bundle"
/// try db.createUnionView(named: "all_food", bundledTable: "food", userTable: "user_food")
/// let rows = try db.query("SELECT name FROM all_food WHERE pk = ?", [42])
/// ```
///
/// Opening does, in order:
/// 1. checks the attachment name (``SchemaName/validate(_:)``) and that the
///    bundled file exists (a missing one is an error, never a new empty database);
/// 2. creates the user database if missing (``UserDatabaseInstaller``: atomic, never
///    replaces an existing file, safe when several processes launch at once): from the
///    template, or empty when `templatePath` is nil; a missing template is an error;
/// 3. opens it and applies the migrations (``UserDatabaseMigrator``), before the bundled
///    database is attached so that unqualified names in migrations mean the user's tables;
/// 4. attaches the bundled file with `ATTACH DATABASE ? AS "NAME"`, the parameter bound to
///    `file:///PATH?mode=ro&immutable=1` (percent-encoded), and reads its schema so a file
///    that is not a SQLite database fails now, with a message that says so.
///
/// Every write into the bundled database fails with `SQLITE_READONLY`
/// (`SQLiteError/isReadOnly`), and its file is never modified. `DETACH` of the bundled
/// schema is refused (`SQLITE_AUTH`), so it cannot be swapped for a writable attachment.
public final class LayeredDatabase {
    /// The default name the bundled database is attached under.
    public static let defaultBundleName = "bundle"

    /// The connection: `main` is the user database, ``bundleName`` the bundled one.
    public let connection: Connection
    /// The name the bundled database is attached under.
    public let bundleName: String
    /// The user database file.
    public let userPath: String
    /// The bundled database file.
    public let bundledPath: String
    /// The shipped database actually attached: the bundled file, or the update installed in
    /// `updatesDirectory` when its `user_version` is greater (see ``DatabaseInEffect``).
    public let databaseInEffect: DatabaseInEffect
    /// What opening did to create the user database.
    public let installOutcome: UserDatabaseInstaller.Outcome
    /// The migration versions applied while opening.
    public let appliedMigrations: [Int32]

    /// Opens the layered database (see the type's documentation for the steps).
    ///
    /// - Parameters:
    ///   - userPath: The writable user database; created if it does not exist.
    ///   - templatePath: The template copied to `userPath` when it does not exist; nil creates
    ///     a new empty user database instead.
    ///   - bundledPath: The shipped database, attached read-only.
    ///   - bundleName: The schema name for the bundled database (default `bundle`; not `main`
    ///     or `temp`).
    ///   - migrator: Migrations applied to the user database.
    ///   - updatesDirectory: Where ``DatabaseUpdater`` installs updates of the bundled
    ///     database; the installed one is attached instead when its `user_version` is
    ///     greater than the bundled file's. Nil: always the bundled file.
    /// - Throws: ``LayeredDatabaseError`` or `SQLiteError`.
    public init(
        userPath: String,
        templatePath: String? = nil,
        bundledPath: String,
        bundleName: String = LayeredDatabase.defaultBundleName,
        migrator: UserDatabaseMigrator = UserDatabaseMigrator(),
        updatesDirectory: String? = nil
    ) throws {
        try SchemaName.validate(bundleName)
        var info = stat()
        guard stat(bundledPath, &info) == 0 else {
            throw LayeredDatabaseError.bundledDatabaseNotFound(path: bundledPath)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw LayeredDatabaseError.bundledDatabaseUnreadable(path: bundledPath, reason: "not a regular file, not a SQLite database")
        }
        guard info.st_size > 0 else {
            throw LayeredDatabaseError.bundledDatabaseUnreadable(path: bundledPath, reason: "file is empty, not a SQLite database")
        }

        let selected = try updatesDirectory.map { try DatabaseInEffect.select(bundledPath: bundledPath, updatesDirectory: $0) }
        let attachedPath = selected?.path ?? bundledPath
        installOutcome = try UserDatabaseInstaller.installIfMissing(at: userPath, template: templatePath)
        connection = try Connection(uri: SQLiteURI.fileURI(path: userPath, parameters: [("mode", "rw")]))
        // SQLite reads the file only on first use: read the user schema now, so a user file
        // that is not a database is reported as such (not as a failure of the ATTACH below).
        do {
            _ = try connection.query("SELECT count(*) FROM main.sqlite_schema")
        } catch let error as SQLiteError {
            let reason = error.resultCode == .SQLITE_NOTADB ? "file is not a SQLite database" : "cannot read it as a SQLite database"
            throw LayeredDatabaseError.userDatabaseUnreadable(path: userPath, reason: "\(reason) (\(error.message))")
        }
        appliedMigrations = try migrator.migrate(connection)

        let uri = SQLiteURI.fileURI(path: attachedPath, parameters: [("mode", "ro"), ("immutable", "1")])
        do {
            try connection.execute("ATTACH DATABASE ? AS \(SQLIdentifier.quote(bundleName))", [.text(uri)])
            _ = try connection.query("SELECT count(*) FROM \(SQLIdentifier.quote(bundleName)).sqlite_schema")
        } catch let error as SQLiteError {
            if error.resultCode == .SQLITE_CANTOPEN {
                guard access(bundledPath, F_OK) == 0 else {
                    throw LayeredDatabaseError.bundledDatabaseNotFound(path: bundledPath)
                }
                throw LayeredDatabaseError.bundledDatabaseUnreadable(path: bundledPath, reason: "cannot open it (\(error.message))")
            }
            let reason = error.resultCode == .SQLITE_NOTADB ? "file is not a SQLite database" : "cannot read it as a SQLite database"
            throw LayeredDatabaseError.bundledDatabaseUnreadable(path: bundledPath, reason: "\(reason) (\(error.message))")
        }
        try DetachGuard.install(on: connection, protecting: bundleName)
        databaseInEffect = try selected ?? DatabaseInEffect(
            path: bundledPath, userVersion: connection.userVersion(schema: bundleName), isInstalledUpdate: false)
        self.userPath = userPath
        self.bundledPath = bundledPath
        self.bundleName = bundleName
    }

    /// Runs every statement in `sql`, discarding rows (see `Connection/execute(_:_:)`).
    public func execute(_ sql: String, _ arguments: [DatabaseValue] = []) throws {
        try connection.execute(sql, arguments)
    }

    /// Runs every statement in `sql` and returns all result rows (see `Connection/query(_:_:)`).
    public func query(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> [Row] {
        try connection.query(sql, arguments)
    }

    /// Runs every statement in `sql`, calling `body` for each row as it is produced.
    public func forEachRow(_ sql: String, _ arguments: [DatabaseValue] = [], _ body: (Row) throws -> Void) throws {
        try connection.forEachRow(sql, arguments, body)
    }
}
