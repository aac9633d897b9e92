import FeedClient
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
import EssentialsSupport
import LayeredDatabase

/// A target's bytes on disk: compressed from a database or patch (``TargetCompression``, the
/// codec's highest level, so the same input gives the same bytes; a patch packed first when its
/// ``TargetEncoding`` says so and ``SQLPacker`` can); ``TargetEncoding`` decodes it again, as a
/// device does.
enum TargetBlob {
    /// What encoding a file gave: the blob's length and SHA-256, the input's length and SHA-256.
    struct Encoded {
        let path: String
        /// The encoding the blob is in (a patch asked to be packed may not have been).
        let encoding: TargetEncoding
        let length: Int64
        let sha256: String
        let uncompressedLength: Int64
        let uncompressedSHA256: String
    }

    /// Encodes `source` into `destination` in `encoding`: packed first when it names a
    /// packing and the file can be packed (else as it is, and the result's encoding says so),
    /// then compressed.
    /// `source` is read through SQLite's VFS (`DatabaseFile`): a release is compressed while
    /// the diffs of the same publish hold SQLite's locks on it.
    static func encode(_ source: String, to destination: String, encoding: TargetEncoding) throws -> Encoded {
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
            let size = try FileManager.default.sizeOfItem(atPath: source)
            return Encoded(
                path: destination, encoding: encoding, length: length,
                sha256: try ContentHash.sha256(ofFileAt: destination),
                uncompressedLength: size,
                uncompressedSHA256: try DatabaseFile.sha256(of: source))
        }
    }
}
