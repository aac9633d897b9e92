import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The app-owned directory that holds the installed update of one bundled database:
/// `DIR/<bundled file name>`, nothing else once an install has finished. While one runs,
/// its temporary copy is `DIR/.<name>.update-XXXXXX` (and SQLite's `-journal` beside it);
/// an install killed half-way leaves those, and the next install removes them.
///
/// Installs take an exclusive `flock` on the directory itself (no lock file), so two at
/// once run one after the other.
struct UpdatesDirectory {
    let path: String
    /// The installed database's file name (the bundled file's).
    let fileName: String

    /// The installed update (which may not exist).
    var installedPath: String { path + "/" + fileName }
    private var temporaryPrefix: String { "." + fileName + ".update-" }

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

    /// Runs `body` holding the directory's exclusive lock.
    func withLock<T>(_ body: () throws -> T) throws -> T {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw DatabaseUpdateError.fileSystem(path: path, operation: "open directory", errno: errno) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { throw DatabaseUpdateError.fileSystem(path: path, operation: "lock directory", errno: errno) }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Removes what killed installs left (call holding the lock).
    func removeStaleTemporaries() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names where name.hasPrefix(temporaryPrefix) { unlink(path + "/" + name) }
    }

    /// A new, empty temporary file in the directory (mode 0644): its path and open descriptor.
    func makeTemporary() throws -> (path: String, descriptor: Int32) {
        var pattern = Array((path + "/" + temporaryPrefix + "XXXXXX").utf8CString)
        let fd = pattern.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw DatabaseUpdateError.fileSystem(path: path, operation: "create a temporary file", errno: errno) }
        fchmod(fd, 0o644)
        return (String(cString: pattern), fd)
    }

    /// Removes a temporary copy and its journal.
    func discard(_ temporary: String) {
        unlink(temporary)
        unlink(temporary + "-journal")
    }

    /// Atomically makes `temporary` the installed update, and makes that durable.
    func install(_ temporary: String) throws {
        guard rename(temporary, installedPath) == 0 else {
            throw DatabaseUpdateError.fileSystem(path: installedPath, operation: "rename", errno: errno)
        }
        let fd = open(path, O_RDONLY)
        if fd >= 0 {
            _ = fsync(fd)
            close(fd)
        }
    }
}
