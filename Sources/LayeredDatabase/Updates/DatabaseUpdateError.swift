import Foundation
import SQLiteCore

/// Why an update was not installed. Every case names the file it is about; the updates
/// directory, the database in effect, the user database and the bundled file are then
/// exactly as they were.
public enum DatabaseUpdateError: Error, Equatable, CustomStringConvertible, LocalizedError {
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
    /// A statement of the patch failed (the copy was discarded).
    case patchFailed(path: String, line: Int, message: String)
    /// A statement of the patch tries to reach beyond its copy (ATTACH, VACUUM INTO,
    /// loading code, a pragma other than user_version/application_id, its own transaction).
    case patchRefused(path: String, line: Int, reason: String)
    /// A file-system call failed.
    case fileSystem(path: String, operation: String, errno: Int32)
    /// Another SQLite failure.
    case sqlite(path: String, SQLiteError)

    /// The file (with `:LINE` for patch statements) the error is about.
    public var path: String {
        switch self {
        case .fileNotFound(let path), .notADatabase(let path, _), .checksumMismatch(let path, _, _),
             .integrityCheckFailed(let path, _), .notNewer(let path, _, _, _), .fileSystem(let path, _, _), .sqlite(let path, _):
            return path
        case .patchFailed(let path, let line, _), .patchRefused(let path, let line, _):
            return "\(path):\(line)"
        }
    }

    /// The reason, without the path.
    public var message: String {
        switch self {
        case .fileNotFound: return "no such file"
        case .notADatabase(_, let reason): return "not a SQLite database (\(reason))"
        case .checksumMismatch(_, let expected, let actual): return "SHA-256 mismatch: expected \(expected), got \(actual)"
        case .integrityCheckFailed(_, let report): return "integrity check failed: \(report)"
        case .notNewer(_, let version, let inEffect, let inEffectPath):
            return "user_version \(version) is not newer than \(inEffect), the version of the database in effect (\(inEffectPath))"
        case .patchFailed(_, _, let message): return "patch statement failed: \(message)"
        case .patchRefused(_, _, let reason): return "refused: \(reason)"
        case .fileSystem(_, let operation, let code): return "\(operation) failed: \(String(cString: strerror(code)))"
        case .sqlite(_, let error): return error.description
        }
    }

    /// `PATH: MESSAGE`.
    public var description: String { "\(path): \(message)" }
    /// Same as ``description``.
    public var errorDescription: String? { description }
}
