import SQLiteCore

/// Why a build, a check or a diff stopped: what kind of failure, where its cause is and what
/// happened. DBGenKit's one error type.
///
/// Match on ``code`` to react to a kind of failure (a command-line tool maps it to an exit
/// status); ``location`` names the script or data line (with a column for SQL errors), or
/// just the file (a database `diff` cannot read), when the failure has one; ``description``
/// is the compiler-style line `PATH:LINE[:COL]: error: MESSAGE` a command-line tool prints.
public struct DBGenError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Code: String, Hashable, Sendable {
        /// A SQL statement of the script failed to compile or to run.
        case sql
        /// A dot-command is unknown or its arguments are wrong.
        case dotCommand
        /// The script asked for something dbgen never does: run a program, write a file other
        /// than the output, load code.
        case refused
        /// A file the build or diff reads (schema, `.read` script, `.import` data, a database
        /// to compare) is missing or unreadable.
        case input
        /// An `.import`'s data cannot be loaded (unterminated quote, a row the table rejects).
        case importData
        /// The output (or a file beside it: depfile, temporary, changeset) cannot be written.
        case output
        /// A warning, made an error by ``BuildOptions/strict``.
        case warningAsError
        /// A database to compare cannot be read (`check`, `diff`): not a SQLite database, or
        /// reading it failed.
        case unreadableDatabase
        /// The configuration file (``BuildOptions/configurationFile``, `dbgen.json`) cannot be
        /// read, is not a JSON object, or holds an unknown key or a value of the wrong type.
        case configuration
        /// The script read a file outside the directories the build system watches
        /// (``BuildOptions/inputRoots``): a change to it would not make the build run again.
        case unwatchedInput
        /// `diff --table` names a table that is in neither database.
        case noSuchTable
        /// `diff` cannot carry a difference the way it was asked to: a table it cannot compare,
        /// or a schema difference (or a table without a declared PRIMARY KEY) in a changeset.
        case unsupported
        /// `diff`: NEW's `user_version` is not greater than OLD's while their contents differ,
        /// so the patch would not install (``DatabaseDiff/requireNewerVersion()``; `dbgen diff
        /// --force` skips the check).
        case notNewer
    }

    /// The kind of failure.
    public var code: Code
    /// What happened, phrased for the user.
    public var message: String
    /// Where the cause is, when known.
    public var location: SourceLocation?

    /// An error.
    public init(_ code: Code, _ message: String, at location: SourceLocation? = nil) {
        self.code = code
        self.message = message
        self.location = location
    }

    /// The error as a diagnostic (severity `.error`).
    public var diagnostic: Diagnostic { Diagnostic(.error, message, at: location) }

    /// `PATH:LINE[:COL]: error: MESSAGE` (`PATH: error: MESSAGE` for a whole file), or
    /// `dbgen: error: MESSAGE` without a location.
    public var description: String { diagnostic.description }

    /// The same error, located at `location` unless it already has a location.
    func located(at location: SourceLocation) -> DBGenError {
        var copy = self
        if copy.location == nil { copy.location = location }
        return copy
    }
}

/// The errors of ``DatabaseDiff``: each names the file (`PATH: error: MESSAGE`) or the table
/// (`dbgen: error: TABLE: MESSAGE`) it is about.
extension DBGenError {
    /// The database file does not exist.
    static func fileNotFound(path: String) -> DBGenError {
        DBGenError(.input, "no such file", at: SourceLocation(file: path))
    }

    /// The file exists but is not a SQLite database (or cannot be read as one).
    static func notADatabase(path: String, reason: String) -> DBGenError {
        DBGenError(.unreadableDatabase, "not a SQLite database (\(reason))", at: SourceLocation(file: path))
    }

    /// Reading a database failed.
    static func sqlite(path: String, _ error: SQLiteError) -> DBGenError {
        DBGenError(.unreadableDatabase, "\(error)", at: SourceLocation(file: path))
    }

    /// Writing the output failed.
    static func output(path: String, reason: String) -> DBGenError {
        DBGenError(.output, reason, at: SourceLocation(file: path))
    }

    /// A database was written or replaced while it was diffed (its device, inode, size or
    /// modification time is not what it was when the diff opened it): the patch and its header
    /// would describe no single file.
    static func changedDuringDiff(path: String) -> DBGenError {
        DBGenError(
            .unreadableDatabase,
            "the file changed while it was being diffed (written or replaced: its size, modification time "
                + "or inode is not what it was); diff it again",
            at: SourceLocation(file: path))
    }

    /// `--table` names a table that is in neither database.
    static func noSuchTable(name: String) -> DBGenError {
        DBGenError(.noSuchTable, "no such table in either database: \(name)")
    }

    /// `--changeset` cannot carry a schema difference (a table, index, view or trigger added,
    /// dropped or changed).
    static func changesetSchemaDifference(object: String, reason: String) -> DBGenError {
        DBGenError(
            .unsupported, "\(object): a changeset cannot carry a schema difference (\(reason)); use the SQL patch")
    }

    /// `--changeset` cannot carry the rows of a table without a declared PRIMARY KEY.
    static func changesetTableWithoutPrimaryKey(table: String) -> DBGenError {
        DBGenError(
            .unsupported,
            "\(table): a changeset cannot carry the rows of a table without a declared "
                + "PRIMARY KEY; use the SQL patch")
    }

    /// NEW's `user_version` is not greater than OLD's (and their contents differ).
    static func notNewer(newPath: String, newVersion: Int64, oldPath: String, oldVersion: Int64) -> DBGenError {
        DBGenError(
            .notNewer,
            "user_version \(newVersion) is not greater than \(oldVersion), that of \(oldPath): "
                + "the patch would not install (give every release a greater PRAGMA user_version, or --force)",
            at: SourceLocation(file: newPath))
    }

    /// A table cannot be compared (for instance its rowid is hidden by columns named rowid,
    /// _rowid_ and oid, or its key uses a collation dbgen does not know).
    static func unsupportedTable(table: String, reason: String) -> DBGenError {
        DBGenError(.unsupported, "\(table): \(reason)")
    }
}
