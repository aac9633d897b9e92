import FeedClient
import FileSystemKit
import Foundation

/// A target's bytes on disk: compressed from a database or patch (``TargetCompression``, the
/// codec's highest level, so the same input gives the same bytes), and decompressed again, under
/// the length its facts declare, one piece at a time.
enum TargetBlob {
    /// What compressing a file gave: the blob's length and SHA-256, the input's length and SHA-256.
    struct Deflated {
        let path: String
        let compression: TargetCompression
        let length: Int64
        let sha256: String
        let uncompressedLength: Int64
        let uncompressedSHA256: String
    }

    /// Compresses `source` into `destination` with `compression`.
    static func deflate(_ source: String, to destination: String, compression: TargetCompression) throws -> Deflated {
        try FeedPublisherError.about(source) {
            let length = try compression.compress(fileAt: source, to: destination)
            let size = try FileManager.default.attributesOfItem(atPath: source)[.size] as? NSNumber
            return Deflated(
                path: destination, compression: compression, length: length,
                sha256: try ContentHash.sha256(ofFileAt: destination),
                uncompressedLength: size?.int64Value ?? 0,
                uncompressedSHA256: try ContentHash.sha256(ofFileAt: source))
        }
    }

    /// Decompresses the blob at `path` (`compression`, refusing more than `limit` bytes), handing
    /// each piece to `sink`; returns the decompressed length and SHA-256.
    static func inflate(
        _ path: String, _ compression: TargetCompression, limit: Int64,
        to sink: (UnsafeRawBufferPointer) throws -> Void = { _ in }
    ) throws -> (length: Int64, sha256: String) {
        var hash = SHA256Stream()
        let inflater = try compression.decompressor(limit: limit)
        try ContentHash.forEachChunk(ofFileAt: path) { chunk in
            try inflater.append(chunk) { piece in
                hash.update(piece)
                try sink(piece)
            }
        }
        try inflater.finish()
        return (inflater.produced, hash.hexDigest())
    }

    /// Decompresses the blob at `path` into the new file `destination`.
    static func inflate(_ path: String, _ compression: TargetCompression, limit: Int64, into destination: String)
        throws -> (length: Int64, sha256: String)
    {
        let output = POSIXFile.open(destination, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        guard output >= 0 else { throw FileSystemError(.open, path: destination, code: errno) }
        defer { close(output) }
        return try inflate(path, compression, limit: limit) { piece in
            let code = POSIXFile.writeAll(output, piece)
            if code != 0 { throw FileSystemError(.write, path: destination, code: code) }
        }
    }
}
