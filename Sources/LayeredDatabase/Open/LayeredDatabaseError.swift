import SQLiteCore
import Foundation

/// Errors of the layered database that are not plain SQLite errors.
public enum LayeredDatabaseError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The name under which the bundled database would be attached is refused.
    case invalidSchemaName(String, reason: String)
    /// The user database does not exist and the template to create it from is missing.
    case templateNotFound(path: String)
    /// The bundled database file does not exist (it is never created).
    case bundledDatabaseNotFound(path: String)
    /// The bundled file exists but is not a SQLite database (or cannot be read).
    case bundledDatabaseUnreadable(path: String, reason: String)
    /// The user database exists but is not a SQLite database (or cannot be read).
    case userDatabaseUnreadable(path: String, reason: String)
    /// A file-system call failed while creating the user database.
    case fileSystem(operation: String, path: String, errno: Int32)
    /// The registered migrations are not in strictly increasing version order, or a version is < 1.
    case invalidMigrationOrder(String)
    /// A migration step failed; it and all later steps were not applied.
    case migrationFailed(version: Int32, identifier: String, underlying: SQLiteError)

    /// A one-line, human-readable message.
    public var description: String {
        switch self {
        case .invalidSchemaName(let name, let reason):
            return "invalid name '\(name)' for the bundled database: \(reason)"
        case .templateNotFound(let path):
            return "\(path): user database template not found"
        case .bundledDatabaseNotFound(let path):
            return "\(path): bundled database not found"
        case .bundledDatabaseUnreadable(let path, let reason):
            return "\(path): \(reason)"
        case .userDatabaseUnreadable(let path, let reason):
            return "\(path): user database: \(reason)"
        case .fileSystem(let operation, let path, let code):
            return "\(path): \(operation) failed: \(String(cString: strerror(code)))"
        case .invalidMigrationOrder(let reason):
            return "invalid migrations: \(reason)"
        case .migrationFailed(let version, let identifier, let underlying):
            return "migration \(version) '\(identifier)' failed (user database left at the previous version): \(underlying)"
        }
    }

    /// Same as `description`.
    public var errorDescription: String? { description }
}
