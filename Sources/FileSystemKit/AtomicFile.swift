#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file written whole and atomically: the new bytes go to a temporary file beside it, which is
/// written completely, synced, and then renamed over it (``replace(_:with:tag:durability:)``)
/// or linked to its name only when nothing is there yet (``create(_:with:permissions:tag:)``).
///
/// Readers see the old file or the new one, never a partial write; on any failure the old file
/// is exactly as it was and the temporary file is removed. For a large output that another
/// party (SQLite) writes, see ``AtomicOutputFile``.
package enum AtomicFile {
    /// How far a replacement goes to survive a power loss.
    package enum Durability: Sendable {
        /// The new content is synced before the rename and the directory after it (see
        /// ``DurableSync``): after a power loss the file holds the old content or the new one.
        case durable
        /// Atomic for readers only: after a power loss the file may be old, new or empty. For
        /// caches that check what they read and cost only time when lost.
        case atomicOnly
    }

    /// Replaces the content of `path`, or creates it, with `contents`.
    ///
    /// - An existing file keeps its permission bits; a new one gets `0666` less the umask, as
    ///   `open(2)` would give it.
    /// - A symbolic link is followed (through a chain of them), so the file it points to is
    ///   replaced and the link stays a link.
    /// - The temporary file is `.NAME.TAG-XXXXXX` in the target's directory.
    /// - With `laterSecond`, the new file's modification time is in a later whole second than
    ///   the file it replaces (see ``modifiedInLaterSecond(_:than:)``).
    ///
    /// - Throws: ``FileSystemError`` naming `path`: `.createTemporary` (the directory is
    ///   missing or read-only), `.write` (disk full), `.sync`, `.rename` (the target is a
    ///   directory). The file is then as it was, and no temporary file is left.
    package static func replace(
        _ path: String, with contents: Data, tag: String,
        durability: Durability = .durable, laterSecond: Bool = false
    ) throws {
        let target = resolvingSymbolicLinks(path)
        var existing = stat()
        let permissions: mode_t? = stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : nil
        let replaced = laterSecond ? FileStamp.of(target) : nil
        let temporary = try writeTemporary(
            beside: target, reportedAs: path, tag: tag, contents: contents,
            permissions: permissions, sync: durability == .durable)
        if let replaced { modifiedInLaterSecond(temporary, than: replaced.mtimeSeconds) }
        guard rename(temporary, target) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileSystemError(.rename, path: path, code: code)
        }
        if durability == .durable { DurableSync.synchronizeDirectory(containing: target) }
    }

    /// Moves a finished file that only this process writes (`source`) to `destination` in the
    /// same directory, durably: the file is synced first, then renamed over whatever is at
    /// `destination`, then the directory is synced, so after a crash `destination` is either
    /// absent (or as it was) or the whole file.
    ///
    /// - Throws: ``FileSystemError`` `.sync` naming `source`, or `.rename` naming `destination`;
    ///   `source` is then where it was.
    package static func moveIntoPlace(_ source: String, as destination: String) throws {
        try DurableSync.synchronize(fileAt: source)
        guard rename(source, destination) == 0 else {
            throw FileSystemError(.rename, path: destination, code: errno)
        }
        DurableSync.synchronizeDirectory(containing: destination)
    }

    /// Moves a directory that only this process filled (`source`) to `destination`, an absent
    /// path or an empty directory beside it, and syncs the parent so that the move survives a
    /// crash. The files inside are expected to be synced already.
    ///
    /// - Throws: ``FileSystemError`` `.rename` naming `destination`; `source` is then where it
    ///   was.
    package static func moveDirectoryIntoPlace(_ source: String, as destination: String) throws {
        guard rename(source, destination) == 0 else {
            throw FileSystemError(.rename, path: destination, code: errno)
        }
        DurableSync.synchronizeDirectory(containing: destination)
    }

    /// Makes the modification time of `path` (a file only this process writes) fall in a
    /// whole second after `second`, so that a replacement is never taken for the file it
    /// replaces by a tool that compares modification times to the second. swift-driver is one:
    /// its incremental build record keeps each source's modification time to the second
    /// (Swift 6.3.1 on Linux), and it skips a source whose time equals the recorded one, so a
    /// generated source rewritten in the second of the version it compiled stays compiled in
    /// its old form. When the clock is still in `second` (a rewrite a few hundred milliseconds
    /// after the last), this waits for the next second (up to a second, and a few milliseconds
    /// more for the file system's coarser clock) and sets the time to the clock's; when the
    /// clock is behind the old file's time (skew), it sets the time to the second after it.
    static func modifiedInLaterSecond(_ path: String, than second: Int64) {
        func modifiedSecond() -> Int64 { FileStamp.of(path)?.mtimeSeconds ?? .max }
        guard modifiedSecond() <= second else { return }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        if Int64(now.tv_sec) == second { // 20 ms more: the file system's clock lags by up to a tick
            usleep(UInt32((1_000_000_000 - Int(now.tv_nsec)) / 1_000 + 20_000))
        }
        _ = utimensat(AT_FDCWD, path, nil, 0)
        guard modifiedSecond() <= second else { return }
        var times = [timespec(tv_sec: Int(second + 1), tv_nsec: 0), timespec(tv_sec: Int(second + 1), tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    /// Creates `path` with `contents` unless something already exists there, and never replaces
    /// it: the complete, synced temporary file is hard-linked (`link(2)`) to `path`, which fails
    /// with `EEXIST` rather than replace a file. When several processes race, exactly one
    /// creates the file and it is always complete. The temporary file is always removed.
    ///
    /// - Parameter permissions: The new file's permission bits, whatever the umask.
    /// - Returns: True when this call created the file, false when one already existed.
    /// - Throws: ``FileSystemError`` naming `path`; nothing is then created.
    @discardableResult
    package static func create(_ path: String, with contents: Data, permissions: mode_t, tag: String) throws -> Bool {
        let temporary = try writeTemporary(
            beside: path, reportedAs: path, tag: tag, contents: contents,
            permissions: permissions, sync: true)
        defer { unlink(temporary) }
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { return false }
            throw FileSystemError(.link, path: path, code: errno)
        }
        DurableSync.synchronizeDirectory(containing: path)
        return true
    }

    /// Writes `contents` to a new temporary file beside `target`, sets its permission bits
    /// (when given), syncs it (when asked) and closes it; returns its path. On failure the
    /// temporary file is removed.
    private static func writeTemporary(
        beside target: String, reportedAs path: String, tag: String, contents: Data,
        permissions: mode_t?, sync: Bool
    ) throws -> String {
        let (temporary, descriptor) = try TemporaryName(beside: target, tag: tag).createFile(reportedAs: path)
        var failure: FileSystemError?
        let code = contents.withUnsafeBytes { POSIXFile.writeAll(descriptor, $0) }
        if code != 0 {
            failure = FileSystemError(.write, path: path, code: code)
        } else if let permissions, fchmod(descriptor, permissions) != 0 {
            failure = FileSystemError(.write, path: path, code: errno)
        } else if sync {
            do { try DurableSync.synchronize(descriptor: descriptor, reportedAs: path) } catch let error
                as FileSystemError
            {
                failure = error
            }
        }
        // close(2) reports late write errors (NFS, quota); the file is ours alone, so it is not retried.
        if close(descriptor) != 0, failure == nil { failure = FileSystemError(.write, path: path, code: errno) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        return temporary
    }

    /// `path` with every symbolic link along the last component followed (relative targets
    /// resolve against the link's directory); `path` itself when it is not a link. A dangling
    /// link resolves to the file it names, so replacing through it creates that file.
    static func resolvingSymbolicLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<32 { // ELOOP's limit, roughly: a longer chain (a loop) is left to rename to refuse
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { break }
            current = target.hasPrefix("/") ? target : POSIXFile.split(current).directory + "/" + target
        }
        return current
    }
}

/// Hidden names beside a destination, `.NAME.TAG-XXXXXX`, where `XXXXXX` is six random letters
/// or digits; created with `O_EXCL`, so two writers never share one.
struct TemporaryName {
    /// The directory of the destination.
    let directory: String
    /// `.NAME.TAG-`.
    let prefix: String

    /// The names of temporaries of `destination` marked `tag`.
    init(beside destination: String, tag: String) {
        let (directory, name) = POSIXFile.split(destination)
        self.directory = directory
        prefix = ".\(name).\(tag)-"
    }

    /// The length of the random part.
    static let idLength = 6
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// A new random id.
    static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        // Alphabet is a non-empty literal, so randomElement always gives one.
        // swift-format-ignore: NeverForceUnwrap
        return String(decoding: (0..<idLength).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self)
    }

    /// Whether `text` could be an id made by ``randomID()``.
    static func isID<S: StringProtocol>(_ text: S) -> Bool {
        text.utf8.count == idLength && text.utf8.allSatisfy { alphabet.contains($0) }
    }

    /// The path of the temporary with `id` (and `suffix`, for a sidecar or a companion file).
    func path(id: String, suffix: String = "") -> String {
        (directory == "/" ? "" : directory) + "/" + prefix + id + suffix
    }

    /// Creates a new, empty file `.NAME.TAG-XXXXXX` open for writing, with the permission bits
    /// `0666` less the umask.
    func createFile(reportedAs reported: String) throws -> (path: String, descriptor: Int32) {
        for _ in 0..<100 {
            let candidate = path(id: Self.randomID())
            let descriptor = POSIXFile.open(candidate, O_WRONLY | O_CREAT | O_EXCL, mode: 0o666)
            if descriptor >= 0 { return (candidate, descriptor) }
            if errno != EEXIST { throw FileSystemError(.createTemporary, path: reported, code: errno) }
        }
        throw FileSystemError(.createTemporary, path: reported, code: EEXIST)
    }
}
