// An app imports LayeredDatabase alone: the SQLite types its API takes and returns come with
// it. SQLiteCore's public API is exactly that app-facing part — `Connection` (execute, query,
// scalar, forEachRow, prepare, inTransaction), `Statement`, `Row`, `DatabaseValue`,
// `SQLiteError`, `ResultCode`, `SQLiteLibrary` — while everything only Shipyard's tools use
// (the VFS, `.dbconfig` options, run-time limits, the authorizer, raw column access, URIs)
// is `package`, invisible outside this package. SQLiteCoreTests' PublicSurfaceTests keeps
// that list.
@_exported import SQLiteCore
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
import EssentialsSupport
#endif

/// A writable user database with the app's shipped, read-only database attached beside it.
///
/// ```swift
/// let bundle = Bundle.module.resourcePath!       // a SwiftPM target's resources (an app target's own: Bundle.main)
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
/// 3. opens it (with `SQLITE_OPEN_URI`, as every connection of the library: no process-wide
///    `sqlite3_config` is needed), sets what it relies on whatever SQLite's build defaults
///    (`recursive_triggers = OFF`; `auto_vacuum = NONE` for a database created empty), and
///    applies the migrations (``UserDatabaseMigrator``), before the bundled database is
///    attached so that unqualified names in migrations mean the user's tables;
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
    /// Where ``UpdateInstaller`` installs updates of the bundled database, or nil.
    public let updatesDirectory: String?
    /// The shipped database actually attached: the bundled file, or the update installed in
    /// `updatesDirectory` when its `user_version` is greater (see ``DatabaseInEffect``). It
    /// stays attached until ``switchToNewestShippedData()`` or the next open, whatever is
    /// installed meanwhile.
    public internal(set) var databaseInEffect: DatabaseInEffect
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
    ///   - updatesDirectory: Where ``UpdateInstaller`` installs updates of the bundled
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
            throw LayeredDatabaseError.bundledDatabaseUnreadable(
                path: bundledPath, reason: "not a regular file, not a SQLite database")
        }
        guard info.st_size > 0 else {
            throw LayeredDatabaseError.bundledDatabaseUnreadable(
                path: bundledPath, reason: "file is empty, not a SQLite database")
        }

        let selected = try updatesDirectory.map {
            try DatabaseInEffect.select(bundledPath: bundledPath, updatesDirectory: $0)
        }
        let attachedPath = selected?.path ?? bundledPath
        installOutcome = try UserDatabaseInstaller.installIfMissing(at: userPath, template: templatePath)
        connection = try Connection(uri: SQLiteURI.fileURI(path: userPath, parameters: [("mode", "rw")]))
        // SQLite reads the file only on first use: read the user schema now, so a user file
        // that is not a database is reported as such (not as a failure of the ATTACH below).
        do {
            _ = try connection.query("SELECT count(*) FROM main.sqlite_master")
        } catch let error as SQLiteError {
            let reason =
                error.resultCode == .SQLITE_NOTADB
                ? "file is not a SQLite database" : "cannot read it as a SQLite database"
            throw LayeredDatabaseError.userDatabaseUnreadable(path: userPath, reason: "\(reason) (\(error.message))")
        }
        try Self.applyUserDatabaseSettings(connection, newlyCreated: installOutcome == .createdEmpty)
        appliedMigrations = try migrator.migrate(connection)

        try Self.attachShipped(attachedPath, bundledPath: bundledPath, as: bundleName, on: connection)
        try DetachGuard.install(on: connection, protecting: bundleName)
        databaseInEffect =
            try selected
            ?? DatabaseInEffect(
                path: bundledPath, userVersion: connection.userVersion(schema: bundleName), isInstalledUpdate: false)
        self.userPath = userPath
        self.bundledPath = bundledPath
        self.bundleName = bundleName
        self.updatesDirectory = updatesDirectory
        try recordDanglingReferencesIfShippedDataChanged()
    }

    /// Attaches `path` (the bundled file or an installed update) read-only and immutable under
    /// `name`, as `file:///PATH?mode=ro&immutable=1`, and reads its schema so a file that is
    /// not a SQLite database fails now, with a message naming `bundledPath`.
    static func attachShipped(_ path: String, bundledPath: String, as name: String, on connection: Connection) throws {
        let uri = SQLiteURI.fileURI(path: path, parameters: [("mode", "ro"), ("immutable", "1")])
        do {
            try connection.execute("ATTACH DATABASE ? AS \(SQLIdentifier.quote(name))", [.text(uri)])
            _ = try connection.query("SELECT count(*) FROM \(SQLIdentifier.quote(name)).sqlite_master")
        } catch let error as SQLiteError {
            if error.resultCode == .SQLITE_CANTOPEN {
                guard access(bundledPath, F_OK) == 0 else {
                    throw LayeredDatabaseError.bundledDatabaseNotFound(path: bundledPath)
                }
                throw LayeredDatabaseError.bundledDatabaseUnreadable(
                    path: bundledPath, reason: "cannot open it (\(error.message))")
            }
            let reason =
                error.resultCode == .SQLITE_NOTADB
                ? "file is not a SQLite database" : "cannot read it as a SQLite database"
            throw LayeredDatabaseError.bundledDatabaseUnreadable(
                path: bundledPath, reason: "\(reason) (\(error.message))")
        }
    }

    /// Sets explicitly what the user database relies on, so it behaves alike with every
    /// SQLite: Apple's is built with `SQLITE_DEFAULT_RECURSIVE_TRIGGERS` (a `REPLACE` then fires
    /// DELETE triggers, and triggers fire triggers) and `SQLITE_DEFAULT_AUTOVACUUM` (new
    /// databases get `auto_vacuum = FULL`), Debian's and SQLite's own builds neither.
    /// - `recursive_triggers = OFF` on the connection, SQLite's documented default;
    /// - `auto_vacuum = NONE` for a user database created empty (a template keeps its own,
    ///   which is in its file), as `dbgen` and the sqlite3 shell create databases here.
    static func applyUserDatabaseSettings(_ connection: Connection, newlyCreated: Bool) throws {
        try connection.execute("PRAGMA recursive_triggers = OFF")
        if newlyCreated { try connection.execute("PRAGMA main.auto_vacuum = NONE") }
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

    // MARK: Union views

    /// Creates a TEMP view that puts the user's rows on par with the shipped ones:
    /// `CREATE TEMP VIEW "all_food" AS SELECT "pk", "name" FROM "bundle"."food"
    /// UNION ALL SELECT "pk", "name" FROM "main"."user_food"`.
    ///
    /// The view lives in the connection's TEMP schema: it is never written to either file
    /// and disappears when the connection closes (create it after each open).
    ///
    /// - Parameters:
    ///   - name: The view's name.
    ///   - columns: The columns, listed explicitly in both SELECTs; nil takes the bundled
    ///     table's columns (`PRAGMA table_info`), which the user table must also have.
    ///   - bundledTable: The shipped table, in the bundled database.
    ///   - userTable: Its twin in the user database.
    ///   - sourceColumn: If given, an extra last column of that name holding the schema each
    ///     row came from (the bundle name or `main`).
    /// - Returns: The SQL that created the view.
    @discardableResult
    public func createUnionView(
        named name: String,
        columns: [String]? = nil,
        bundledTable: String,
        userTable: String,
        sourceColumn: String? = nil
    ) throws -> String {
        let quote = SQLIdentifier.quote
        let bundledColumns = try tableColumns(bundleName, bundledTable)
        let userColumns = try tableColumns("main", userTable)
        let columnNames = columns ?? bundledColumns
        // Checked here because SQLite reads a double-quoted name that matches no column as a
        // string literal, which would silently fill the view with the column's name.
        for (schema, table, existing) in [(bundleName, bundledTable, bundledColumns), ("main", userTable, userColumns)]
        {
            let known = Set(existing.map { $0.lowercased() })
            for column in columnNames where !known.contains(column.lowercased()) {
                throw SQLiteError(
                    extendedResultCode: .SQLITE_ERROR, message: "no such column: \(column) in \(schema).\(table)")
            }
        }
        guard !columnNames.isEmpty else {
            throw SQLiteError(extendedResultCode: .SQLITE_ERROR, message: "no columns for the view \(name)")
        }
        func select(_ schema: String, _ table: String) -> String {
            var list = columnNames.map(quote)
            if let sourceColumn {
                list.append("\(SQLIdentifier.quoteLiteral(schema)) AS \(quote(sourceColumn))")
            }
            return "SELECT \(list.joined(separator: ", ")) FROM \(quote(schema)).\(quote(table))"
        }
        let sql =
            "CREATE TEMP VIEW \(quote(name)) AS \(select(bundleName, bundledTable)) UNION ALL \(select("main", userTable))"
        try connection.execute(sql)
        return sql
    }

    /// The column names of `schema.table`; throws "no such table" when it does not exist.
    private func tableColumns(_ schema: String, _ table: String) throws -> [String] {
        let names =
            try connection
            .query("SELECT name FROM pragma_table_info(?, ?) ORDER BY cid", [.text(table), .text(schema)])
            .map { $0.values.first?.shellText ?? "" }
        guard !names.isEmpty else {
            throw SQLiteError(extendedResultCode: .SQLITE_ERROR, message: "no such table: \(schema).\(table)")
        }
        return names
    }
}

/// Keeps the bundled database attached: an authorizer that refuses `DETACH` of its schema,
/// so SQL on the connection cannot detach it and attach the same file writable under the
/// same name.
enum DetachGuard {
    /// Installs the authorizer on `connection` (replacing any other authorizer).
    static func install(on connection: Connection, protecting name: String) throws {
        let protected = name.lowercased()
        try connection.setAuthorizer { request in
            request.action == .detach && request.argument1?.lowercased() == protected ? .deny : .allow
        }
    }
}
