import FileSystemKit
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a feed target's bytes are compressed: the `compression` of its ``ReleaseFacts`` and the
/// extension of its target path. Everything that compresses or decompresses a target goes
/// through this one type, so a codec is chosen in one place.
public enum TargetCompression: String, CaseIterable, Sendable {
    /// A zlib stream (RFC 1950), `.zlib`: what the first feeds carry.
    case zlib
    /// A bzip2 stream (one stream, 900 kB blocks), `.bz2`: what `dbgen publish` writes by default
    /// (a `dbgen diff` patch is about a third smaller than deflated).
    case bzip2

    /// The extension of a target path in this compression (`releases/SHA.sqlite.bz2`).
    public var fileExtension: String {
        switch self {
        case .zlib: return "zlib"
        case .bzip2: return "bz2"
        }
    }

    /// A decompressor fed piece by piece that refuses to produce more than `limit` bytes.
    package func decompressor(limit: Int64) throws -> any StreamDecompressor {
        switch self {
        case .zlib: return try ZlibStream.Inflater(limit: limit)
        case .bzip2: return try Bzip2Stream.Decompressor(limit: limit)
        }
    }

    /// Compresses the file at `source` into `destination` (created or truncated), at the
    /// codec's highest level, so the same input gives the same bytes; returns its length.
    @discardableResult
    package func compress(fileAt source: String, to destination: String) throws -> Int64 {
        switch self {
        case .zlib: return try ZlibStream.deflate(fileAt: source, to: destination)
        case .bzip2: return try Bzip2Stream.compress(fileAt: source, to: destination)
        }
    }
}

/// A decompressor fed piece by piece (``TargetCompression/decompressor(limit:)``): it throws a
/// ``StreamFailure`` of its codec for a stream that is corrupt, too large, truncated or followed
/// by other bytes.
package protocol StreamDecompressor: AnyObject {
    /// The bytes produced so far.
    var produced: Int64 { get }
    /// Decompresses `input`, handing what it produces to `sink`.
    func append(_ input: UnsafeRawBufferPointer, to sink: (UnsafeRawBufferPointer) throws -> Void) throws
    /// Checks that the stream reached its end marker.
    func finish() throws
}

/// A compressor fed piece by piece: `append`, then `finish`, each handing what it produces to `sink`.
package protocol StreamCompressor: AnyObject {
    /// Compresses `input`, handing what it produces to `sink`.
    func append(_ input: UnsafeRawBufferPointer, to sink: (UnsafeRawBufferPointer) throws -> Void) throws
    /// Ends the stream, handing its last bytes to `sink`.
    func finish(to sink: (UnsafeRawBufferPointer) throws -> Void) throws
}

/// Why a codec refused a stream (``CompressionFailure``, whichever the codec): catch this
/// to handle every codec's failures at once; its description names the codec and the reason.
package protocol StreamFailure: Error, CustomStringConvertible {}

extension StreamCompressor {
    /// Compresses the file at `source` into `destination` (created or truncated) with this
    /// compressor, read and written in pieces (POSIX I/O); returns its length.
    func compress(fileAt source: String, to destination: String) throws -> Int64 {
        let descriptor = POSIXFile.open(destination, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        guard descriptor >= 0 else { throw FileSystemError(.open, path: destination, code: errno) }
        defer { close(descriptor) }
        var written: Int64 = 0
        let write: (UnsafeRawBufferPointer) throws -> Void = { bytes in
            let code = POSIXFile.writeAll(descriptor, bytes)
            guard code == 0 else { throw FileSystemError(.write, path: destination, code: code) }
            written += Int64(bytes.count)
        }
        try ContentHash.forEachChunk(ofFileAt: source) { try append($0, to: write) }
        try finish(to: write)
        return written
    }
}
