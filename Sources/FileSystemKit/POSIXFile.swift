#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few POSIX calls every writer here needs, with `EINTR` retried, and the close-on-exec
/// pipe a spawned tool writes its errors into.
package enum POSIXFile {
    /// Writes all of `bytes` to `descriptor`; returns 0, or the `errno` of the failed `write`.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard var next = bytes.baseAddress else { return 0 }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(descriptor, next, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            next += written
            remaining -= written
        }
        return 0
    }

    /// Opens `path` with `flags` (and `mode` when creating), retrying on `EINTR`; -1 on failure
    /// with `errno` set. `O_CLOEXEC` is always added, so no child process inherits the file or
    /// a lock on it.
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) -> Int32 {
        while true {
            #if canImport(Darwin)
            let descriptor = Darwin.open(path, flags | O_CLOEXEC, mode)
            #elseif canImport(Glibc)
            let descriptor = Glibc.open(path, flags | O_CLOEXEC, mode)
            #else
            let descriptor = Musl.open(path, flags | O_CLOEXEC, mode)
            #endif
            if descriptor >= 0 || errno != EINTR { return descriptor }
        }
    }

    /// A pipe whose two ends are closed on exec, so that no child process inherits them
    /// unless it is handed one (a spawn's file actions `dup2` it onto a standard stream);
    /// nil on failure with `errno` set.
    package static func pipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        #if canImport(Darwin)
        guard Darwin.pipe(&ends) == 0 else { return nil }
        #elseif canImport(Glibc)
        guard Glibc.pipe(&ends) == 0 else { return nil }
        #else
        guard Musl.pipe(&ends) == 0 else { return nil }
        #endif
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// The directory part and the last component of `path` (`.` for a bare name, `/` for a
    /// file in the root).
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}
