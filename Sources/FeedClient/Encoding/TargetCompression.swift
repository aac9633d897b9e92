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
    /// (a `dbgen diff` patch is about a third smaller than with zlib).
    case bzip2

    /// The extension of a target path in this compression (`releases/SHA.sqlite.bz2`).
    public var fileExtension: String {
        switch self {
        case .zlib: return "zlib"
        case .bzip2: return "bz2"
        }
    }

    /// A decompressor fed piece by piece that refuses to produce more than `limit` bytes.
    package func decompressor(limit: Int64) throws -> any TargetDecoder {
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
