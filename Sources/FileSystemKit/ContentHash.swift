#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Hashes of content: SHA-256 (CryptoKit on Apple platforms, ``SHA256Hasher`` elsewhere) for
/// checksums someone else gives us (``sha256(ofFileAt:)``, in SHA256Hashing.swift), and FNV-1a
/// for short, non-cryptographic keys and line checksums of Shipyard's own caches.
///
/// Digests are returned as lowercase hexadecimal text, so no caller needs to import CryptoKit
/// (and an app that imports CryptoKit and Shipyard sees one `SHA256`).
package enum ContentHash {
    /// The size of the pieces a file is read in: large enough for `read(2)` to cost nothing,
    /// small enough that a 100 MB download is never held in memory.
    static let chunkSize = 1 << 20

    /// FNV-1a (64-bit) of the UTF-8 bytes of `text`: a fast, stable key for a short text (a
    /// path, a cache line). Not a defence against anyone choosing the text.
    package static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// Calls `body` with each piece of the file at `path`, in order, until its end.
    package static func forEachChunk(ofFileAt path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let descriptor = POSIXFile.open(path, O_RDONLY)
        guard descriptor >= 0 else { throw FileSystemError(.open, path: path, code: errno) }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(.read, path: path, code: errno)
            }
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }
}
