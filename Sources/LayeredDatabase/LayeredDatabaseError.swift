#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SQLiteCore

/// Why opening the layered database, migrating the user database, attaching the shipped data
/// or installing an update failed: the one error type of the library (SQLite's own errors, as
/// from a query, are SQLiteCore's `SQLiteError`).
///
/// Every case that is about a file names it in ``path``; a patch statement also has its
/// ``line``; ``message`` is the reason alone, so a tool prints `PATH:LINE: error: MESSAGE`
/// from the three fields. When an update fails, the updates directory, the database in effect,
/// the user database and the bundled file are exactly as they were.
///
/// ```swift
/// do {
///     try installer.installPatch(at: downloaded, sha256: published)
/// } catch let error as LayeredDatabaseError {
///     print(error.path ?? "", error.line ?? 0, error.message)   // or match a case:
/// } catch LayeredDatabaseError.patchForAnotherBase {
///     // download the whole database instead
/// }
/// ```
public enum LayeredDatabaseError: Error, Equatable, CustomStringConvertible, LocalizedError {
    // MARK: Opening

    /// The name under which the bundled database would be attached is refused.
    case invalidSchemaName(String, reason: String)
    /// The user database does not exist and the template to create it from is missing.
    case templateNotFound(path: String)
    /// The bundled database file does not exist (it is never created).
    case bundledDatabaseNotFound(path: String)
    /// The bundled file exists but is not a SQLite database (or cannot be read or attached).
    case bundledDatabaseUnreadable(path: String, reason: String)
    /// The user database exists but is not a SQLite database (or cannot be read).
    case userDatabaseUnreadable(path: String, reason: String)
    /// The registered migrations are not in strictly increasing version order, or a version is < 1.
    case invalidMigrationOrder(String)
    /// A migration step failed; it and all later steps were not applied.
    case migrationFailed(version: Int32, identifier: String, underlying: SQLiteError)

    // MARK: Installing updates

    /// The given file does not exist (or is not a regular file).
    case fileNotFound(path: String)
    /// The file is not a SQLite database (empty, wrong header, truncated…).
    case notADatabase(path: String, reason: String)
    /// The file's SHA-256 is not the one given.
    case checksumMismatch(path: String, expected: String, actual: String)
    /// `PRAGMA quick_check` of the result did not say `ok`.
    case integrityCheckFailed(path: String, report: String)
    /// The result's `user_version` is not greater than that of the database in effect.
    case notNewer(path: String, userVersion: Int64, inEffect: Int64, inEffectPath: String)
    /// The patch's header names a base that is not the database in effect (another
    /// `user_version`, or other content with the same one): it was made for another release.
    case patchForAnotherBase(
        path: String, base: DatabaseVersion, result: DatabaseVersion,
        inEffect: Int64, inEffectPath: String)
    /// The patch's header is malformed.
    case invalidPatchHeader(path: String, line: Int, reason: String)
    /// A statement of the patch failed (the copy was discarded).
    case patchFailed(path: String, line: Int, message: String)
    /// A statement of the patch tries to reach beyond its copy (ATTACH, VACUUM INTO,
    /// loading code, a pragma other than user_version/application_id, its own transaction).
    case patchRefused(path: String, line: Int, reason: String)

    // MARK: Switching an open database to newer shipped data

    /// A statement of the connection is running (a SELECT whose rows are still being read):
    /// the shipped data is not switched under it. Nothing changed.
    case statementRunning
    /// A transaction is open on the connection (SQLite attaches nothing inside one). Nothing
    /// changed.
    case transactionOpen

    // MARK: Either

    /// A file-system call failed.
    case fileSystem(path: String, operation: String, errno: Int32)
    /// Another SQLite failure while working on the file.
    case sqlite(path: String, SQLiteError)

    /// The file the error is about, or nil (a schema name, the order of migrations).
    public var path: String? {
        switch self {
        case .invalidSchemaName, .invalidMigrationOrder, .migrationFailed, .statementRunning, .transactionOpen:
            return nil
        case .templateNotFound(let path), .bundledDatabaseNotFound(let path), .bundledDatabaseUnreadable(let path, _),
            .userDatabaseUnreadable(let path, _), .fileNotFound(let path), .notADatabase(let path, _),
            .checksumMismatch(let path, _, _), .integrityCheckFailed(let path, _), .notNewer(let path, _, _, _),
            .patchForAnotherBase(let path, _, _, _, _), .invalidPatchHeader(let path, _, _),
            .patchFailed(let path, _, _), .patchRefused(let path, _, _),
            .fileSystem(let path, _, _), .sqlite(let path, _):
            return path
        }
    }

    /// The 1-based line of ``path`` the error is about (a patch statement), or nil.
    public var line: Int? {
        switch self {
        case .patchFailed(_, let line, _), .patchRefused(_, let line, _), .invalidPatchHeader(_, let line, _):
            return line
        default: return nil
        }
    }

    /// The reason, without the path or line.
    public var message: String {
        switch self {
        case .invalidSchemaName(let name, let reason):
            return "invalid name '\(name)' for the bundled database: \(reason)"
        case .templateNotFound: return "user database template not found"
        case .bundledDatabaseNotFound: return "bundled database not found"
        case .bundledDatabaseUnreadable(_, let reason): return reason
        case .userDatabaseUnreadable(_, let reason): return "user database: \(reason)"
        case .invalidMigrationOrder(let reason): return "invalid migrations: \(reason)"
        case .migrationFailed(let version, let identifier, let underlying):
            return
                "migration \(version) '\(identifier)' failed (user database left at the previous version): \(underlying)"
        case .fileNotFound: return "no such file"
        case .notADatabase(_, let reason): return "not a SQLite database (\(reason))"
        case .checksumMismatch(_, let expected, let actual):
            return "SHA-256 mismatch: expected \(expected), got \(actual)"
        case .integrityCheckFailed(_, let report): return "integrity check failed: \(report)"
        case .notNewer(_, let version, let inEffect, let inEffectPath):
            return
                "user_version \(version) is not newer than \(inEffect), the version of the database in effect (\(inEffectPath))"
        case .patchForAnotherBase(_, let base, let result, let inEffect, let inEffectPath):
            let content = base.userVersion == inEffect ? " with other content" : ""
            return "patch from user_version \(base.userVersion) to \(result.userVersion) is for another database: "
                + "the database in effect is user_version \(inEffect)\(content) (\(inEffectPath)); install the whole database instead"
        case .invalidPatchHeader(_, _, let reason): return "invalid patch header: \(reason)"
        case .patchFailed(_, _, let message): return "patch statement failed: \(message)"
        case .patchRefused(_, _, let reason): return "refused: \(reason)"
        case .statementRunning:
            return
                "cannot switch to the newer shipped data while a statement is running; try again when it has finished"
        case .transactionOpen:
            return "cannot switch to the newer shipped data inside a transaction; try again after it ends"
        case .fileSystem(_, let operation, let code): return "\(operation) failed: \(String(cString: strerror(code)))"
        case .sqlite(_, let error): return error.description
        }
    }

    /// `PATH:LINE: MESSAGE`, `PATH: MESSAGE` or `MESSAGE`.
    public var description: String {
        guard let path else { return message }
        return line.map { "\(path):\($0): \(message)" } ?? "\(path): \(message)"
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}
