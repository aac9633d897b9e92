import Foundation
import ShipyardTestSupport
import XCTest
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Another process holding a `flock` on a file, as a running dbgen holds its sidecar: python3
/// (the oracle) takes the lock, says so by creating a marker file, and sleeps until killed.
final class LockHolder {
    let process: Process

    /// Starts the holder and waits until it holds the lock on `path` (creating the file).
    init(locking path: String, in directory: TemporaryDirectory) throws {
        let ready = directory.url("holder-ready-\(UUID().uuidString)").path
        let script = """
            import fcntl, sys, time
            f = open(sys.argv[1], "a")
            fcntl.flock(f, fcntl.LOCK_EX)
            open(sys.argv[2], "w").close()
            time.sleep(120)
            """
        process = try ProcessRunner.start(try Oracle.python3.path(), ["-c", script, path, ready])
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: ready) {
            guard process.isRunning, Date() < deadline else { throw LockHolderFailed() }
            usleep(10_000)
        }
        unlink(ready)
    }

    /// `kill -9`, as a build killed half-way; returns once the process is gone.
    func killHard() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { killHard() }
    }
}

struct LockHolderFailed: Error, CustomStringConvertible {
    var description: String { "the python3 lock holder did not take its lock" }
}

/// Whether another process can take a `flock` on `path` right now (python3 tries, without waiting).
func anotherProcessCanLock(_ path: String) throws -> Bool {
    let script = """
        import fcntl, sys
        f = open(sys.argv[1], "a")
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            print("free")
        except BlockingIOError:
            print("busy")
        """
    let answer = try Oracle.python3.output(["-c", script, path]).trimmingCharacters(in: .whitespacesAndNewlines)
    return answer == "free"
}

/// The SHA-256 of a file according to python3's hashlib (the oracle).
func hashlibSHA256(_ path: String) throws -> String {
    try Oracle.python3.output([
        "-c", "import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], 'rb').read()).hexdigest())", path,
    ]).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The names in `directory`, sorted.
func names(in directory: TemporaryDirectory) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
}

/// The permission bits of `path` (following a symbolic link).
func permissions(_ path: String) -> mode_t {
    var info = stat()
    stat(path, &info)
    return info.st_mode & 0o7777
}

/// The process's umask (read, then put back).
func currentUmask() -> mode_t {
    let mask = umask(0o022)
    umask(mask)
    return mask
}

/// Runs `body` the way a user without privileges would, unable to write where the permission
/// bits say no. As root on Linux the calling thread's file-system user id becomes `nobody`
/// (setfsuid acts on one thread and drops CAP_DAC_OVERRIDE with it), then goes back to root.
/// Elsewhere the tests run as an ordinary user already.
func withoutPermissionOverride<T>(_ body: () throws -> T) throws -> T {
    #if os(Linux)
    if geteuid() == 0 {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "setfsuid") else {
            throw NSError(domain: "setfsuid not found", code: 1)
        }
        let setfsuid = unsafeBitCast(symbol, to: (@convention(c) (UInt32) -> Int32).self)
        _ = setfsuid(65534)
        defer { _ = setfsuid(0) }
        return try body()
    }
    #endif
    return try body()
}
