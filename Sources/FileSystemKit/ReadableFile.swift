#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file open for reading from its start, a piece at a time (FileHandle is Foundation's, not
/// FoundationEssentials'): a patch read a line at a time, the header of a database.
package final class ReadableFile {
    private let descriptor: Int32
    /// The path it was opened with, for errors.
    package let path: String

    /// Opens `path` for reading; nil when it cannot be opened (`errno` says why).
    package init?(path: String) {
        let descriptor = POSIXFile.open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Up to `count` bytes from where the last read stopped; empty at the end of the file.
    ///
    /// - Throws: ``FileSystemError`` (`read`) when the system cannot read it.
    package func read(atMost count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                Glue.read(descriptor, buffer.baseAddress.map { $0 + filled }, count - filled)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(.read, path: path, code: errno)
            }
            if got == 0 { break }
            filled += got
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// The C library's `read`, which the method above shadows.
    private enum Glue {
        static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
            #if canImport(Darwin)
            return Darwin.read(descriptor, buffer, count)
            #elseif canImport(Glibc)
            return Glibc.read(descriptor, buffer, count)
            #else
            return Musl.read(descriptor, buffer, count)
            #endif
        }
    }
}
