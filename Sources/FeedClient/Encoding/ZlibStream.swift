import CZlib
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

/// A zlib stream (RFC 1950) read or written in pieces: the feed's targets are deflated by
/// `dbgen publish` and inflated on the device, never whole in memory, and never past a cap.
/// Its failures are ``CompressionFailure``s of ``TargetCompression/zlib``.
package enum ZlibStream {
    /// An inflater fed piece by piece (``PieceDecompressor``), refusing to produce more than its limit.
    package typealias Inflater = PieceDecompressor<InflateStream>

    /// Deflates the file at `source` into `destination` (created or truncated) at level 9; returns
    /// its length. The same input gives the same bytes with the same zlib.
    @discardableResult
    package static func deflate(fileAt source: String, to destination: String) throws -> Int64 {
        try PieceCompressor(DeflateStream()).compress(fileAt: source, to: destination)
    }

    /// zlib's deflate stream, driven by ``PieceCompressor`` (a deflater fed piece by piece).
    package final class DeflateStream: CompressingCodec {
        // zlib keeps a pointer back to the stream: it lives at one address from init to end.
        private let stream: UnsafeMutablePointer<z_stream>

        /// A deflate stream (level 9 unless told).
        package init(level: Int32 = 9) throws {
            stream = try CodecStream.started(z_stream(), .zlib, ok: Z_OK) {
                deflateInit_($0, level, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
            }
        }

        deinit {
            deflateEnd(stream)
            stream.deallocate()
        }

        package func take(_ input: UnsafeRawBufferPointer) {
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: UInt8.self).baseAddress)
            stream.pointee.avail_in = uInt(input.count)
        }

        package func step(into output: UnsafeMutablePointer<UInt8>, capacity: Int, finishing: Bool) throws -> (
            written: Int, done: Bool
        ) {
            let flush = finishing ? Z_FINISH : Z_NO_FLUSH
            stream.pointee.next_out = output
            stream.pointee.avail_out = uInt(capacity)
            let code = CZlib.deflate(stream, flush)
            guard code == Z_OK || code == Z_STREAM_END || code == Z_BUF_ERROR else {
                throw CompressionFailure(.zlib, .status(code))
            }
            let left = Int(stream.pointee.avail_out)
            return (capacity - left, code == Z_STREAM_END || (!finishing && left != 0))
        }
    }

    /// zlib's inflate stream, driven by ``PieceDecompressor``.
    package final class InflateStream: DecompressingCodec {
        package static let compression = TargetCompression.zlib
        // zlib keeps a pointer back to the stream: it lives at one address from init to end.
        private let stream: UnsafeMutablePointer<z_stream>

        package init() throws {
            stream = try CodecStream.started(z_stream(), .zlib, ok: Z_OK) {
                inflateInit_($0, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
            }
        }

        deinit {
            inflateEnd(stream)
            stream.deallocate()
        }

        package var inputLeft: Int { Int(stream.pointee.avail_in) }

        package func take(_ input: UnsafeRawBufferPointer) {
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: UInt8.self).baseAddress)
            stream.pointee.avail_in = uInt(input.count)
        }

        package func step(into output: UnsafeMutablePointer<UInt8>, capacity: Int) throws -> (
            written: Int, ended: Bool, again: Bool
        ) {
            stream.pointee.next_out = output
            stream.pointee.avail_out = uInt(capacity)
            let code = inflate(stream, Z_NO_FLUSH)
            switch code {
            case Z_OK, Z_BUF_ERROR, Z_STREAM_END: break
            case Z_DATA_ERROR, Z_NEED_DICT:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "code \(code)"
                throw CompressionFailure(.zlib, .corrupt(message))
            default: throw CompressionFailure(.zlib, .status(code))
            }
            let left = Int(stream.pointee.avail_out)
            // Run again while input is left, unless zlib had room and still could not go on.
            let again = stream.pointee.avail_in > 0 && !(code == Z_BUF_ERROR && left != 0)
            return (capacity - left, code == Z_STREAM_END, again)
        }
    }
}
