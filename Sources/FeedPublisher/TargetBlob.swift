import FeedClient
import FileSystemKit
import Foundation

/// A target's bytes on disk: compressed from a database or patch (``TargetCompression``, the
/// codec's highest level, so the same input gives the same bytes; a patch packed first when its
/// ``TargetEncoding`` says so and ``SQLPacker`` can), and decoded again, under the length its
/// facts declare, one piece at a time.
enum TargetBlob {
    /// What compressing a file gave: the blob's length and SHA-256, the input's length and SHA-256.
    struct Deflated {
        let path: String
        /// The encoding the blob is in (a patch asked to be packed may not have been).
        let encoding: TargetEncoding
        let length: Int64
        let sha256: String
        let uncompressedLength: Int64
        let uncompressedSHA256: String
    }

    /// Compresses `source` into `destination` in `encoding`: packed first when it names a
    /// packing and the file can be packed (else as it is, and the result's encoding says so).
    static func deflate(_ source: String, to destination: String, encoding: TargetEncoding) throws -> Deflated {
        try FeedPublisherError.about(source) {
            var encoding = encoding
            var input = source
            if encoding.packing != nil {
                input = destination + ".packed"
                if !(try SQLPacker.pack(fileAt: source, to: input)) {
                    encoding.packing = nil
                    input = source
                }
            }
            defer { if input != source { unlink(input) } }
            let length = try encoding.compression.compress(fileAt: input, to: destination)
            let size = try FileManager.default.attributesOfItem(atPath: source)[.size] as? NSNumber
            return Deflated(
                path: destination, encoding: encoding, length: length,
                sha256: try ContentHash.sha256(ofFileAt: destination),
                uncompressedLength: size?.int64Value ?? 0,
                uncompressedSHA256: try ContentHash.sha256(ofFileAt: source))
        }
    }

    /// Decodes the blob at `path` (in `encoding`, refusing more than `limit` bytes), handing
    /// each piece to `sink`; returns the decoded length and SHA-256.
    static func inflate(
        _ path: String, _ encoding: TargetEncoding, limit: Int64,
        to sink: (UnsafeRawBufferPointer) throws -> Void = { _ in }
    ) throws -> (length: Int64, sha256: String) {
        var hash = SHA256Stream()
        let inflater = try encoding.decoder(limit: limit)
        try ContentHash.forEachChunk(ofFileAt: path) { chunk in
            try inflater.append(chunk) { piece in
                hash.update(piece)
                try sink(piece)
            }
        }
        try inflater.finish()
        return (inflater.produced, hash.hexDigest())
    }

    /// Decodes the blob at `path` into the new file `destination`.
    static func inflate(_ path: String, _ encoding: TargetEncoding, limit: Int64, into destination: String)
        throws -> (length: Int64, sha256: String)
    {
        let output = POSIXFile.open(destination, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        guard output >= 0 else { throw FileSystemError(.open, path: destination, code: errno) }
        defer { close(output) }
        return try inflate(path, encoding, limit: limit) { piece in
            let code = POSIXFile.writeAll(output, piece)
            if code != 0 { throw FileSystemError(.write, path: destination, code: code) }
        }
    }
}
