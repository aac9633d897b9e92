import FileSystemKit
import Foundation

/// The app-owned directory that holds the installed update of one bundled database:
/// `DIR/<bundled file name>`, nothing else once an install has finished.
///
/// While an install runs:
/// - `DIR/.<name>.lock` is locked (a ``SidecarLock``), so two installs at once, from threads
///   or processes, run one after the other;
/// - the new database is built as `DIR/.<name>.update-XXXXXX` (SQLite's `-journal` beside it),
///   with its own `.lock` sidecar, an ``AtomicOutputFile`` renamed over the installed file.
///
/// Neither lock is ever on a file SQLite opens. An install killed half-way leaves those files;
/// the next install removes them.
struct UpdatesDirectory {
    let path: String
    /// The installed database's file name (the bundled file's).
    let fileName: String

    /// The installed update (which may not exist).
    var installedPath: String { path + "/" + fileName }
    /// The lock installs take.
    var lockPath: String { path + "/." + fileName + ".lock" }
    private static let temporaryTag = "update"

    /// Creates the directory if missing; returns whether it did.
    func create() throws -> Bool {
        var info = stat()
        if stat(path, &info) == 0 { return false }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw DatabaseUpdateError.fileSystem(path: path, operation: "create directory", errno: errno)
        }
        return true
    }

    /// Runs `body` holding the directory's install lock.
    func withLock<T>(_ body: () throws -> T) throws -> T {
        let lock = try Self.fileSystem { try SidecarLock.acquire(at: lockPath) }
        defer { lock.release() }
        return try body()
    }

    /// Removes what killed installs left (call holding the lock, so every temporary is stale).
    func removeStaleTemporaries() {
        AtomicOutputFile.removeStaleTemporaries(of: installedPath, tag: Self.temporaryTag,
                                                companionSuffixes: AtomicOutputFile.sqliteCompanionSuffixes)
    }

    /// A new, empty temporary database in the directory, to be committed over the installed one.
    func makeOutput() throws -> AtomicOutputFile {
        try Self.fileSystem {
            try AtomicOutputFile(destination: installedPath, tag: Self.temporaryTag,
                                 companionSuffixes: AtomicOutputFile.sqliteCompanionSuffixes)
        }
    }

    /// Runs a file-system call, turning its error into a ``DatabaseUpdateError``.
    static func fileSystem<T>(_ call: () throws -> T) throws -> T {
        do {
            return try call()
        } catch let error as FileSystemError {
            throw DatabaseUpdateError(error)
        }
    }
}

extension DatabaseUpdateError {
    /// ``fileSystem(path:operation:errno:)`` for a failed file-system call.
    init(_ error: FileSystemError) {
        self = .fileSystem(path: error.path, operation: error.operation.rawValue, errno: error.code)
    }
}
