// SHA-256 without a cryptographic package: CryptoKit where the system has it (Apple platforms
// from macOS 10.15 / iOS 13 / tvOS 13 / watchOS 6, within the package's minimums: a system
// framework, nothing compiled in), FileSystemKit's own SHA256Hasher elsewhere (Linux), so
// that what LayeredDatabase links compiles no BoringSSL (Package.swift says why).
#if canImport(CryptoKit)
import CryptoKit
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ContentHash {
    /// The SHA-256 of the file at `path`, as 64 lowercase hexadecimal digits, read in 1 MiB
    /// pieces (never held whole in memory).
    ///
    /// - Throws: ``FileSystemError`` (`.open`, with `ENOENT` for a missing file, or `.read`).
    package static func sha256(ofFileAt path: String) throws -> String {
        var hash = SHA256Stream()
        try forEachChunk(ofFileAt: path) { hash.update($0) }
        return hash.hexDigest()
    }
}

extension AtomicOutputFile {
    /// Copies the file at `source` into the temporary (replacing what it held), in 1 MiB
    /// pieces, and returns the SHA-256 of the bytes copied as 64 lowercase hexadecimal digits:
    /// a download is checked and copied in one read.
    ///
    /// - Throws: ``FileSystemError``: `.open` / `.read` naming `source` (`ENOENT` when it is
    ///   missing), `.write` naming the destination (disk full).
    @discardableResult
    package func write(copying source: String) throws -> String {
        try write(copyingPieces: { try ContentHash.forEachChunk(ofFileAt: source, $0) })
    }

    /// Writes into the temporary (replacing what it held) the pieces `pieces` hands to the
    /// function it is given, in order, and returns their SHA-256 as 64 lowercase hexadecimal
    /// digits: a copy read by the caller's own reader (a database a SQLite connection of the
    /// process may hold locked is read through SQLite's VFS, never a descriptor closed here).
    ///
    /// - Throws: what `pieces` throws; ``FileSystemError`` `.open` / `.write` naming the
    ///   destination (disk full).
    @discardableResult
    package func write(copyingPieces pieces: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> String
    {
        let output = POSIXFile.open(temporaryPath, O_WRONLY | O_TRUNC)
        guard output >= 0 else { throw FileSystemError(.open, path: destination, code: errno) }
        var hash = SHA256Stream()
        do {
            try pieces { chunk in
                hash.update(chunk)
                let code = POSIXFile.writeAll(output, chunk)
                if code != 0 { throw FileSystemError(.write, path: destination, code: code) }
            }
        } catch {
            close(output)
            throw error
        }
        guard close(output) == 0 else { throw FileSystemError(.write, path: destination, code: errno) }
        return hash.hexDigest()
    }
}
