import Foundation
import SQLiteCore

/// Why `dbgen diff` could not compare two databases. Every case names the file or table.
public enum DatabaseDiffError: Error, Equatable, CustomStringConvertible {
    /// The file does not exist.
    case fileNotFound(path: String)
    /// The file exists but is not a SQLite database (or cannot be read as one).
    case notADatabase(path: String, reason: String)
    /// `--table` names a table that is in neither database.
    case noSuchTable(name: String)
    /// `--changeset` cannot carry a schema difference (a table, index, view or trigger
    /// added, dropped or changed).
    case changesetSchemaDifference(object: String, reason: String)
    /// `--changeset` cannot carry the rows of a table without a declared PRIMARY KEY.
    case changesetTableWithoutPrimaryKey(table: String)
    /// A table cannot be compared (for instance its rowid is hidden by columns named
    /// rowid, _rowid_ and oid, or its key uses a collation dbgen does not know).
    case unsupportedTable(table: String, reason: String)
    /// Reading a database failed.
    case sqlite(path: String, SQLiteError)
    /// Writing the output failed.
    case output(path: String, reason: String)
    /// NEW's `user_version` is not greater than OLD's while their contents differ: the patch
    /// would not install (``DatabaseDiff/requireNewerVersion()``; `dbgen diff --force` skips it).
    case notNewer(newPath: String, newVersion: Int64, oldPath: String, oldVersion: Int64)

    /// `PATH: MESSAGE` or `table NAME: MESSAGE`.
    public var description: String {
        switch self {
        case .fileNotFound(let path): return "\(path): no such file"
        case .notADatabase(let path, let reason): return "\(path): not a SQLite database (\(reason))"
        case .noSuchTable(let name): return "no such table in either database: \(name)"
        case .changesetSchemaDifference(let object, let reason):
            return "\(object): a changeset cannot carry a schema difference (\(reason)); use the SQL patch"
        case .changesetTableWithoutPrimaryKey(let table):
            return "\(table): a changeset cannot carry the rows of a table without a declared PRIMARY KEY; use the SQL patch"
        case .unsupportedTable(let table, let reason): return "\(table): \(reason)"
        case .sqlite(let path, let error): return "\(path): \(error)"
        case .output(let path, let reason): return "\(path): \(reason)"
        case .notNewer(let newPath, let newVersion, let oldPath, let oldVersion):
            return "\(newPath): user_version \(newVersion) is not greater than \(oldVersion), that of \(oldPath): "
                + "the patch would not install (give every release a greater PRAGMA user_version, or --force)"
        }
    }
}

extension DatabaseDiffError {
    /// The file the error is about, when it is about one.
    public var path: String? {
        switch self {
        case .fileNotFound(let path), .notADatabase(let path, _), .sqlite(let path, _), .output(let path, _),
             .notNewer(let path, _, _, _): return path
        default: return nil
        }
    }

    /// The message without the leading path.
    public var message: String {
        let text = description
        if let path, text.hasPrefix(path + ": ") { return String(text.dropFirst(path.count + 2)) }
        return text
    }
}
