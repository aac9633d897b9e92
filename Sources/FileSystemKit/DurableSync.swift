#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Making what was written survive a power loss: the one place Shipyard asks the system to
/// put a file's data, or a directory's entries, on stable storage.
///
/// - On Darwin, `fcntl(F_FULLFSYNC)`. Apple's fsync(2) says `fsync` moves the data to the
///   drive but not out of the drive's cache, so a power loss can still lose it or write it out
///   of order; `F_FULLFSYNC` asks the drive to flush. A file system that does not support it
///   (some network and FAT volumes) fails the call, and then `fsync` is used, as SQLite's own
///   `full_fsync` does.
/// - Elsewhere, `fsync`.
///
/// A rename or link is durable only once the directory holding the new entry is synced too:
/// ``synchronizeDirectory(containing:)``.
package enum DurableSync {
    /// Puts the data and metadata of the file open at `descriptor` on stable storage.
    ///
    /// - Parameter path: The file named in the error (the caller's file, not a temporary).
    /// - Throws: ``FileSystemError`` (`.sync`) when neither call succeeds.
    package static func synchronize(descriptor: Int32, reportedAs path: String) throws {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        while fsync(descriptor) != 0 {
            if errno == EINTR { continue }
            throw FileSystemError(.sync, path: path, code: errno)
        }
    }

    /// Opens the file at `path` (read-only: syncing needs no write access) and puts it on
    /// stable storage.
    ///
    /// Never call it on a file another connection of this process has open with locks (a
    /// database SQLite holds): closing a descriptor drops every `fcntl` lock the process has
    /// on that file. Call it once the writer has closed the file.
    ///
    /// - Parameter reported: The file named in errors; `path` itself when nil.
    /// - Throws: ``FileSystemError`` (`.open` or `.sync`).
    package static func synchronize(fileAt path: String, reportedAs reported: String? = nil) throws {
        let descriptor = POSIXFile.open(path, O_RDONLY)
        guard descriptor >= 0 else { throw FileSystemError(.open, path: reported ?? path, code: errno) }
        defer { close(descriptor) }
        try synchronize(descriptor: descriptor, reportedAs: reported ?? path)
    }

    /// Puts the entries of the directory holding `path` on stable storage, so that a file just
    /// renamed or linked there is still there after a power loss.
    ///
    /// Best effort, as in SQLite (`unixSync` ignores a failed directory sync): some file systems
    /// cannot open or sync a directory, and by the time this runs the rename it makes durable
    /// has already happened, so a failure must not be reported as a failure to write the file.
    ///
    /// - Returns: Whether the directory was synced.
    @discardableResult
    package static func synchronizeDirectory(containing path: String) -> Bool {
        synchronizeDirectory(at: POSIXFile.split(path).directory)
    }

    /// Puts the entries of the directory at `directory` on stable storage (best effort, as
    /// ``synchronizeDirectory(containing:)``).
    ///
    /// - Returns: Whether the directory was synced.
    @discardableResult
    package static func synchronizeDirectory(at directory: String) -> Bool {
        let descriptor = POSIXFile.open(directory, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return (try? synchronize(descriptor: descriptor, reportedAs: directory)) != nil
    }
}
