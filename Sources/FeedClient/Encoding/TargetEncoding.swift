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

/// How a target's bytes become the file it stands for: decompressed by its compression and, for
/// a packed patch, unpacked. The client, `dbgen feed verify` and `dbgen publish`'s own proof
/// all decode a target through its `decoder(limit:)`, so they read it the same way.
public struct TargetEncoding: Equatable, Sendable {
    /// The codec of the target's bytes.
    public var compression: TargetCompression
    /// The packing of the decompressed bytes (nil: they are the file itself).
    public var packing: PatchPacking?

    /// An encoding.
    public init(compression: TargetCompression, packing: PatchPacking? = nil) {
        self.compression = compression
        self.packing = packing
    }

    /// The facts' names of the encoding: `bzip2`, or `bzip2, sqlpack1` for a packed patch.
    public var name: String {
        packing.map { "\(compression.rawValue), \($0.rawValue)" } ?? compression.rawValue
    }

    /// The extension of a patch's target path in this encoding: `sql.bz2`, or `sqlpack.bz2`.
    public var patchExtension: String {
        (packing == nil ? "sql." : "sqlpack.") + compression.fileExtension
    }

    /// A decoder fed the target's bytes piece by piece that hands on the file they stand for
    /// and refuses to produce more than `limit` bytes. A packed patch is never longer than the
    /// patch it unpacks to (the packer refuses one that would be), so its decompression is
    /// capped at `limit` too.
    package func decoder(limit: Int64) throws -> any TargetDecoder {
        let decompressor = try compression.decompressor(limit: limit)
        guard packing != nil else { return decompressor }
        return Chain(first: decompressor, second: SQLPack.Unpacker(limit: limit))
    }

    /// Decodes the target file at `path` (refusing more than `limit` bytes), handing each
    /// piece to `sink`; returns the decoded length and SHA-256.
    package func decode(
        fileAt path: String, limit: Int64, to sink: (UnsafeRawBufferPointer) throws -> Void = { _ in }
    ) throws -> (length: Int64, sha256: String) {
        var hash = SHA256Stream()
        let decoder = try decoder(limit: limit)
        try ContentHash.forEachChunk(ofFileAt: path) { chunk in
            try decoder.append(chunk) { piece in
                hash.update(piece)
                try sink(piece)
            }
        }
        try decoder.finish()
        return (decoder.produced, hash.hexDigest())
    }

    /// Decodes the target file at `path` into `destination` (created with `mode`, or
    /// truncated); returns the decoded length and SHA-256.
    ///
    /// - Throws: a ``TargetEncodingFailure`` of the codec or packing, or a `FileSystemError` naming
    ///   `destination`.
    package func decode(fileAt path: String, limit: Int64, into destination: String, mode: mode_t)
        throws -> (length: Int64, sha256: String)
    {
        let output = POSIXFile.open(destination, O_WRONLY | O_CREAT | O_TRUNC, mode: mode)
        guard output >= 0 else { throw FileSystemError(.open, path: destination, code: errno) }
        defer { close(output) }
        return try decode(fileAt: path, limit: limit) { piece in
            let code = POSIXFile.writeAll(output, piece)
            if code != 0 { throw FileSystemError(.write, path: destination, code: code) }
        }
    }

    /// Two decoders one after the other.
    private final class Chain: TargetDecoder {
        let first: any TargetDecoder
        let second: any TargetDecoder

        init(first: any TargetDecoder, second: any TargetDecoder) {
            self.first = first
            self.second = second
        }

        var produced: Int64 { second.produced }

        func append(_ input: UnsafeRawBufferPointer, to sink: (UnsafeRawBufferPointer) throws -> Void) throws {
            try first.append(input) { try second.append($0, to: sink) }
        }

        func finish() throws {
            try first.finish()
            try second.finish()
        }
    }
}
