import FeedClient
import FileSystemKit
import Foundation

/// A target's bytes on disk: deflated from a database or patch (``ZlibStream``, level 9, so the
/// same input gives the same bytes), and inflated again, under the length its facts declare,
/// one piece at a time.
enum TargetBlob {
    /// What deflating a file gave: the blob's length and SHA-256, the input's length and SHA-256.
    struct Deflated {
        let path: String
        let length: Int64
        let sha256: String
        let uncompressedLength: Int64
        let uncompressedSHA256: String
    }

    /// Deflates `source` into `destination`.
    static func deflate(_ source: String, to destination: String) throws -> Deflated {
        try FeedPublisherError.about(source) {
            let length = try ZlibStream.deflate(fileAt: source, to: destination)
            let size = try FileManager.default.attributesOfItem(atPath: source)[.size] as? NSNumber
            return Deflated(
                path: destination, length: length, sha256: try ContentHash.sha256(ofFileAt: destination),
                uncompressedLength: size?.int64Value ?? 0,
                uncompressedSHA256: try ContentHash.sha256(ofFileAt: source))
        }
    }

    /// Inflates the blob at `path` (refusing more than `limit` bytes), handing each piece to
    /// `sink`; returns the inflated length and SHA-256.
    static func inflate(_ path: String, limit: Int64, to sink: (UnsafeRawBufferPointer) throws -> Void = { _ in })
        throws -> (length: Int64, sha256: String)
    {
        var hash = SHA256Stream()
        let inflater = try ZlibStream.Inflater(limit: limit)
        try ContentHash.forEachChunk(ofFileAt: path) { chunk in
            try inflater.append(chunk) { piece in
                hash.update(piece)
                try sink(piece)
            }
        }
        try inflater.finish()
        return (inflater.produced, hash.hexDigest())
    }

    /// Inflates the blob at `path` into the new file `destination`.
    static func inflate(_ path: String, limit: Int64, into destination: String) throws -> (
        length: Int64, sha256: String
    ) {
        let output = POSIXFile.open(destination, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        guard output >= 0 else { throw FileSystemError(.open, path: destination, code: errno) }
        defer { close(output) }
        return try inflate(path, limit: limit) { piece in
            let code = POSIXFile.writeAll(output, piece)
            if code != 0 { throw FileSystemError(.write, path: destination, code: code) }
        }
    }
}
