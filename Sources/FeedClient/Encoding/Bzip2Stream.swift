import CBZip2
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

/// A bzip2 stream read or written in pieces (libbz2): the feed's targets are compressed by
/// `dbgen publish` and decompressed on the device, never whole in memory, and never past a cap.
/// One stream only: bytes after its end marker are refused. Its failures are
/// ``CompressionFailure``s of ``TargetCompression/bzip2``.
package enum Bzip2Stream {
    /// A decompressor fed piece by piece (``PieceDecompressor``), refusing to produce more than its limit.
    package typealias Decompressor = PieceDecompressor<DecompressStream>

    /// Compresses the file at `source` into `destination` (created or truncated), 900 kB
    /// blocks; returns its length. The same input gives the same bytes with the same block size
    /// (libbz2's output depends on nothing else).
    @discardableResult
    package static func compress(fileAt source: String, to destination: String) throws -> Int64 {
        try PieceCompressor(CompressStream()).compress(fileAt: source, to: destination)
    }

    /// libbz2's compressing stream, driven by ``PieceCompressor`` (a compressor fed piece by piece).
    package final class CompressStream: CompressingCodec {
        // libbz2 keeps a pointer back to the stream: it lives at one address from init to end.
        private let stream: UnsafeMutablePointer<bz_stream>

        /// A stream with blocks of `blockSize100k` × 100 kB (9, the largest, unless told).
        package init(blockSize100k: Int32 = 9) throws {
            stream = try CodecStream.started(bz_stream(), .bzip2, ok: BZ_OK) {
                BZ2_bzCompressInit($0, blockSize100k, 0, 0)
            }
        }

        deinit {
            BZ2_bzCompressEnd(stream)
            stream.deallocate()
        }

        package func take(_ input: UnsafeRawBufferPointer) {
            stream.pointee.next_in = UnsafeMutableRawPointer(mutating: input.baseAddress)?
                .assumingMemoryBound(to: CChar.self)
            stream.pointee.avail_in = UInt32(input.count)
        }

        package func step(into output: UnsafeMutablePointer<UInt8>, capacity: Int, finishing: Bool) throws -> (
            written: Int, done: Bool
        ) {
            stream.pointee.next_out = UnsafeMutableRawPointer(output).assumingMemoryBound(to: CChar.self)
            stream.pointee.avail_out = UInt32(capacity)
            let code = BZ2_bzCompress(stream, finishing ? BZ_FINISH : BZ_RUN)
            guard code == BZ_RUN_OK || code == BZ_FINISH_OK || code == BZ_STREAM_END else {
                throw CompressionFailure(.bzip2, .status(code))
            }
            let written = capacity - Int(stream.pointee.avail_out)
            return (written, code == BZ_STREAM_END || (!finishing && stream.pointee.avail_in == 0))
        }
    }

    /// libbz2's decompressing stream, driven by ``PieceDecompressor``.
    package final class DecompressStream: DecompressingCodec {
        package static let compression = TargetCompression.bzip2
        // libbz2 keeps a pointer back to the stream: it lives at one address from init to end.
        private let stream: UnsafeMutablePointer<bz_stream>

        package init() throws {
            stream = try CodecStream.started(bz_stream(), .bzip2, ok: BZ_OK) { BZ2_bzDecompressInit($0, 0, 0) }
        }

        deinit {
            BZ2_bzDecompressEnd(stream)
            stream.deallocate()
        }

        package var inputLeft: Int { Int(stream.pointee.avail_in) }

        package func take(_ input: UnsafeRawBufferPointer) {
            stream.pointee.next_in = UnsafeMutableRawPointer(mutating: input.baseAddress)?
                .assumingMemoryBound(to: CChar.self)
            stream.pointee.avail_in = UInt32(input.count)
        }

        package func step(into output: UnsafeMutablePointer<UInt8>, capacity: Int) throws -> (
            written: Int, ended: Bool, again: Bool
        ) {
            stream.pointee.next_out = UnsafeMutableRawPointer(output).assumingMemoryBound(to: CChar.self)
            stream.pointee.avail_out = UInt32(capacity)
            let code = BZ2_bzDecompress(stream)
            switch code {
            case BZ_OK, BZ_STREAM_END: break
            case BZ_DATA_ERROR: throw CompressionFailure(.bzip2, .corrupt("a block fails its check"))
            case BZ_DATA_ERROR_MAGIC: throw CompressionFailure(.bzip2, .corrupt("no bzip2 signature"))
            default: throw CompressionFailure(.bzip2, .status(code))
            }
            let left = Int(stream.pointee.avail_out)
            // libbz2 may hold decoded bytes after taking the last input: run until it has room left.
            let again = !(stream.pointee.avail_in == 0 && left != 0)
            return (capacity - left, code == BZ_STREAM_END, again)
        }
    }
}
