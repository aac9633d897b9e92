#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An exclusive lock held on a small file of its own, the sidecar (`flock` on it), and never on a
/// file SQLite opens.
///
/// Why a sidecar: on Darwin `flock()` and `fcntl()` locks live in one list per file (xnu,
/// `bsd/kern/kern_lockf.c`), owned by the open file and by the process respectively. A process
/// that `flock()`s a database and then lets SQLite open it sees SQLite's own `F_SETLK` fail, so
/// every statement ends in "database is locked". Linux keeps the two kinds apart, which is why
/// nothing shows there. Locking a file nobody else opens avoids the question on every system.
///
/// `flock` locks belong to the open file description: another process, and another descriptor
/// of the same process (another thread), is excluded alike; the system drops the lock when its
/// holder dies, even by `kill -9`, so a free lock on a sidecar means nobody holds it any more.
///
/// The sidecar is removed when the lock is released, so nothing is left behind. A process that
/// opened the file just before it was removed would lock a file nobody else can see: after
/// locking, the holder checks that the path still names the file it locked (device and inode)
/// and otherwise starts again. A sidecar left by a holder that died is reused by the next one.
package final class SidecarLock {
    /// The sidecar file.
    package let path: String
    private var descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { release() }

    /// Waits until this process holds the lock at `path` (creating the sidecar when missing).
    ///
    /// - Throws: ``FileSystemError`` (`.lock`) when the sidecar cannot be created or locked
    ///   (its directory is missing or read-only, or the file system has no `flock`).
    package static func acquire(at path: String) throws -> SidecarLock {
        while true {
            switch try attempt(at: path, creating: .ifMissing, waiting: true) {
            case .held(let lock): return lock
            case .busy, .missing, .exists: continue // released and removed under us: again
            }
        }
    }

    /// Takes the lock at `path` if nobody holds it (creating the sidecar when missing).
    ///
    /// - Returns: The held lock, or nil when another holder has it.
    /// - Throws: ``FileSystemError`` (`.lock`), as ``acquire(at:)``.
    package static func acquireIfFree(at path: String) throws -> SidecarLock? {
        while true {
            switch try attempt(at: path, creating: .ifMissing, waiting: false) {
            case .held(let lock): return lock
            case .busy: return nil
            case .missing, .exists: continue
            }
        }
    }

    /// Releases the lock and removes the sidecar (idempotent). Removing comes first, while the
    /// lock is still held, so no one can lock the old file after this holder let go of it.
    package func release() {
        guard descriptor >= 0 else { return }
        unlink(path)
        close(descriptor)
        descriptor = -1
    }

    // MARK: The one locking protocol

    /// Whether ``attempt(at:creating:waiting:)`` may create the sidecar.
    enum Creation {
        /// Only lock a sidecar that exists (probing another holder's liveness).
        case never
        /// Create it when missing.
        case ifMissing
        /// Create it, failing when it exists (a fresh, unique sidecar).
        case exclusively
    }

    /// What one attempt to lock found.
    enum Attempt {
        /// The lock is ours.
        case held(SidecarLock)
        /// Another holder has it (only when not waiting).
        case busy
        /// No sidecar at `path` (`.never`), or it was removed while we were locking it.
        case missing
        /// A sidecar already exists (`.exclusively`).
        case exists
    }

    /// Opens (maybe creating) the sidecar at `path`, locks it and checks that the path still
    /// names the file locked.
    static func attempt(at path: String, creating: Creation, waiting: Bool) throws -> Attempt {
        var flags = O_RDONLY
        switch creating {
        case .never: break
        case .ifMissing: flags |= O_CREAT
        case .exclusively: flags |= O_CREAT | O_EXCL
        }
        let descriptor = POSIXFile.open(path, flags, mode: 0o644)
        if descriptor < 0 {
            if errno == ENOENT, creating == .never { return .missing }
            if errno == EEXIST, creating == .exclusively { return .exists }
            throw FileSystemError(.lock, path: path, code: errno)
        }
        while flock(descriptor, waiting ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            close(descriptor)
            if code == EWOULDBLOCK || code == EAGAIN { return .busy }
            throw FileSystemError(.lock, path: path, code: code)
        }
        var locked = stat(), named = stat()
        guard fstat(descriptor, &locked) == 0, stat(path, &named) == 0,
            locked.st_dev == named.st_dev, locked.st_ino == named.st_ino
        else {
            close(descriptor)
            return .missing
        }
        return .held(SidecarLock(path: path, descriptor: descriptor))
    }
}
