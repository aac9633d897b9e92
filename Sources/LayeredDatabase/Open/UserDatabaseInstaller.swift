import SQLiteCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates the user database on first launch, atomically and without ever replacing one.
///
/// The template (or, with none, an empty file, which SQLite treats as an empty database)
/// is written to a fresh temporary file in the user database's directory, fsync'ed,
/// then hard-linked (`link(2)`) to the final name. `link` fails with `EEXIST` rather
/// than replace an existing file, so when several processes launch at once exactly one
/// file appears, always complete, and every process goes on to open it. The temporary
/// file is always removed. (`rename(2)` would silently replace a database another process
/// had just created and written to, so it is not used.)
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
    ///   missing and so is the template; ``LayeredDatabaseError/fileSystem(operation:path:errno:)``
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

        let directory = (userPath as NSString).deletingLastPathComponent
        let base = (userPath as NSString).lastPathComponent
        var pattern = Array(((directory.isEmpty ? "." : directory) + "/." + base + ".tmp-XXXXXX").utf8CString)
        let fd = pattern.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        // Errors name the user database (what the caller asked for), not the hidden temporary file.
        guard fd >= 0 else { throw fileError("create a temporary file", userPath) }
        let temporaryPath = String(cString: pattern)
        defer { unlink(temporaryPath) }
        do {
            defer { close(fd) }
            // Writable by the user whatever the template's mode (bundle files are often read-only).
            guard fchmod(fd, 0o644) == 0 else { throw fileError("copying the template (chmod)", userPath) }
            try contents.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw fileError("copying the template (write)", userPath)
                    }
                    offset += written
                }
            }
            guard fsync(fd) == 0 else { throw fileError("copying the template (fsync)", userPath) }
        }
        if link(temporaryPath, userPath) != 0 {
            if errno == EEXIST { return .alreadyExisted } // another process won the race
            throw fileError("link", userPath)
        }
        syncDirectory(directory.isEmpty ? "." : directory)
        return templatePath == nil ? .createdEmpty : .createdFromTemplate
    }

    private static func fileExists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Makes the new directory entry durable (best effort).
    private static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY)
        if fd >= 0 {
            _ = fsync(fd)
            close(fd)
        }
    }

    private static func fileError(_ operation: String, _ path: String) -> LayeredDatabaseError {
        .fileSystem(operation: operation, path: path, errno: errno)
    }
}
