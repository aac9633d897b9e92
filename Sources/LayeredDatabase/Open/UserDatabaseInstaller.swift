import FileSystemKit
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

/// Creates the user database on first launch, atomically and without ever replacing one.
///
/// The template (or, with none, an empty file, which SQLite treats as an empty database)
/// is written to a fresh temporary file in the user database's directory, synced to stable
/// storage (`F_FULLFSYNC` on Apple platforms), then hard-linked (`link(2)`) to the final
/// name: `link` fails with `EEXIST` rather than replace an existing file, so when several
/// processes launch at once exactly one file appears, always complete, and every process
/// goes on to open it. The temporary file is always removed. (A rename would silently
/// replace a database another process had just created and written to, so it is not used.)
public enum UserDatabaseInstaller {
    /// The outcome of ``installIfMissing(at:template:)``.
    public enum Outcome: Equatable {
        /// A user database already existed; it was left untouched.
        case alreadyExisted
        /// This call created the user database from the template.
        case createdFromTemplate
        /// This call created a new empty user database (no template was given).
        case createdEmpty
    }

    /// Creates the user database at `userPath` from `templatePath` unless a file already
    /// exists there.
    ///
    /// - Parameters:
    ///   - userPath: Where the user database lives. Its directory must exist.
    ///   - templatePath: The template to copy, or nil for a new empty database.
    /// - Throws: ``LayeredDatabaseError/templateNotFound(path:)`` when the user database is
    ///   missing and so is the template; ``LayeredDatabaseError/fileSystem(path:operation:errno:)``
    ///   when a file call fails.
    @discardableResult
    public static func installIfMissing(at userPath: String, template templatePath: String?) throws -> Outcome {
        if fileExists(userPath) { return .alreadyExisted }

        var contents = Data()
        if let templatePath {
            guard let data = FileManager.default.contents(atPath: templatePath) else {
                if fileExists(userPath) { return .alreadyExisted }
                throw LayeredDatabaseError.templateNotFound(path: templatePath)
            }
            contents = data
        }

        do {
            // Writable by the user whatever the template's mode (bundle files are often read-only).
            guard try AtomicFile.create(userPath, with: contents, permissions: 0o644, tag: "tmp") else {
                return .alreadyExisted // another process won the race
            }
        } catch let error as FileSystemError {
            // Errors name the user database (what the caller asked for), not the hidden temporary file.
            let operation: String
            switch error.operation {
            case .createTemporary: operation = "create a temporary file"
            case .link: operation = "link"
            default: operation = "copying the template (\(error.operation.rawValue))"
            }
            throw LayeredDatabaseError.fileSystem(path: userPath, operation: operation, errno: error.code)
        }
        return templatePath == nil ? .createdEmpty : .createdFromTemplate
    }

    private static func fileExists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
