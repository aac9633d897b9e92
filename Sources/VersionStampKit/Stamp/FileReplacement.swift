import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a file's content atomically: the new bytes go to a temporary file beside it, which
/// is then renamed over it. Readers see the old file or the new one, never a partial write;
/// on any failure the old file is left as it was. An existing file keeps its permissions (and
/// a symbolic link is followed, so the file it points to is replaced, not the link).
enum FileReplacement {
    /// Atomically replaces (or creates) `path` with `contents`.
    static func replace(_ path: String, with contents: Data) throws {
        var target = path
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
            target = resolved.hasPrefix("/") ? resolved
                : (URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(resolved).path)
        }
        let url = URL(fileURLWithPath: target)
        let directory = url.deletingLastPathComponent().path
        var mode: mode_t
        var info = stat()
        if stat(target, &info) == 0 {
            mode = info.st_mode & 0o7777
        } else {
            let mask = umask(0o022)
            umask(mask)
            mode = 0o666 & ~mask
        }
        var template = Array("\(directory)/.\(url.lastPathComponent).versionstamp-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw VersionStampError(.writeFailed, path: path, message: "cannot create a temporary file beside it: \(String(cString: strerror(errno)))")
        }
        let temporary = String(cString: template)
        var finished = false
        defer {
            if !finished { unlink(temporary) }
        }
        let written: Bool = contents.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        let error = errno
        guard written, fchmod(descriptor, mode) == 0, fsync(descriptor) == 0 else {
            close(descriptor)
            throw VersionStampError(.writeFailed, path: path, message: "cannot write: \(String(cString: strerror(written ? errno : error)))")
        }
        guard close(descriptor) == 0 else {
            throw VersionStampError(.writeFailed, path: path, message: "cannot write: \(String(cString: strerror(errno)))")
        }
        guard rename(temporary, target) == 0 else {
            throw VersionStampError(.writeFailed, path: path, message: "cannot replace the file: \(String(cString: strerror(errno)))")
        }
        finished = true
    }
}
