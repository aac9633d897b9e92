import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The path of the temporary file being built, for the signal handler (which may not allocate).
nonisolated(unsafe) private var pendingTemporaryPath: UnsafeMutablePointer<CChar>?

/// A file written under a unique temporary name beside its destination and renamed into place
/// only when complete (after `fsync`), so the destination is never seen half-written. On
/// SIGINT/SIGTERM the temporary file is removed; after `kill -9` only a stray temporary remains
/// and the destination is untouched.
final class AtomicOutputFile {
    /// The final path.
    let destination: String
    /// The temporary path to write to.
    let temporaryPath: String
    private var finished = false
    private var lockDescriptor: Int32 = -1
    private let removesOnSignal: Bool

    /// Creates an empty, uniquely named temporary file in the destination's directory.
    /// With `removeOnSignal`, SIGINT/SIGTERM/SIGHUP remove the temporary file (one file at a time).
    init(destination: String, removeOnSignal: Bool = true) throws {
        self.destination = destination
        let directory = (destination as NSString).deletingLastPathComponent
        let name = (destination as NSString).lastPathComponent
        var template = Array(((directory.isEmpty ? "." : directory) + "/.\(name).dbgen-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw DBGenError(.output, "cannot create a temporary file beside \"\(destination)\": \(String(cString: strerror(errno)))")
        }
        // Held until commit/discard: a later build that can take this lock knows the owner died
        // (kill -9) and removes the stray file.
        flock(fd, LOCK_EX)
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
        lockDescriptor = fd
        temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        self.removesOnSignal = removeOnSignal
        if removeOnSignal { Self.installSignalCleanup(for: temporaryPath) }
    }

    deinit { discard() }

    /// Flushes the temporary file to disk and renames it over the destination.
    func commit() throws {
        guard !finished else { return }
        let fd = open(temporaryPath, O_RDONLY)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
        guard rename(temporaryPath, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            discard()
            throw DBGenError(.output, "cannot move the new database to \"\(destination)\": \(reason)")
        }
        finished = true
        releaseLock()
        if removesOnSignal { Self.clearSignalCleanup() }
        let directory = (destination as NSString).deletingLastPathComponent
        let dirfd = open(directory.isEmpty ? "." : directory, O_RDONLY)
        if dirfd >= 0 {
            fsync(dirfd)
            close(dirfd)
        }
    }

    /// Removes the temporary file (idempotent).
    func discard() {
        guard !finished else { return }
        finished = true
        unlink(temporaryPath)
        releaseLock()
        if removesOnSignal { Self.clearSignalCleanup() }
    }

    private func releaseLock() {
        if lockDescriptor >= 0 { close(lockDescriptor) }
        lockDescriptor = -1
    }

    /// Removes temporary files of `destination` left by builds that were killed (`kill -9`):
    /// those whose lock nobody holds any more. Temporaries of running builds are kept.
    static func removeStaleTemporaries(of destination: String) {
        let directory = (destination as NSString).deletingLastPathComponent
        let prefix = ".\((destination as NSString).lastPathComponent).dbgen-"
        let dir = directory.isEmpty ? "." : directory
        // An unreadable directory has no stale temporaries we could remove; the build itself
        // then reports why it cannot write there.
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
        for name in names where name.hasPrefix(prefix) && name.utf8.count == prefix.utf8.count + 6 {
            let path = (dir as NSString).appendingPathComponent(name)
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { continue }
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { unlink(path) }
            close(fd)
        }
    }

    private static func installSignalCleanup(for path: String) {
        clearSignalCleanup()
        pendingTemporaryPath = strdup(path)
        let handler: @convention(c) (Int32) -> Void = { number in
            if let path = pendingTemporaryPath { unlink(path) }
            signal(number, SIG_DFL)
            raise(number)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        signal(SIGHUP, handler)
    }

    private static func clearSignalCleanup() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        signal(SIGHUP, SIG_DFL)
        if let path = pendingTemporaryPath {
            pendingTemporaryPath = nil
            free(path)
        }
    }

    /// Writes `data` to `path` atomically (temporary file, fsync, rename); for small files.
    static func write(_ data: Data, to path: String) throws {
        let file = try AtomicOutputFile(destination: path, removeOnSignal: false)
        do {
            try data.write(to: URL(fileURLWithPath: file.temporaryPath))
        } catch {
            file.discard()
            throw DBGenError(.output, "cannot write \"\(path)\": \(error.localizedDescription)")
        }
        try file.commit()
    }
}
