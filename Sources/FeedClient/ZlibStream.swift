import CZlib
import FileSystemKit
import Foundation

/// A zlib stream (RFC 1950) read or written in pieces: the feed's targets are deflated by
/// `dbgen publish` and inflated on the device, never whole in memory, and never past a cap.
/// Its failures are ``CompressionFailure``s of ``TargetCompression/zlib``.
package enum ZlibStream {
    /// The size of the pieces written at a time.
    static let chunkSize = 1 << 16

    /// A deflater fed piece by piece: ``append(_:to:)`` and then ``finish(to:)`` hand each
    /// compressed piece to `sink`. The same input gives the same bytes with the same zlib and level.
    package final class Deflater: StreamCompressor {
        // zlib keeps a pointer back to the stream: it lives at one address from init to end.
        private let stream: UnsafeMutablePointer<z_stream>
        private let output: UnsafeMutablePointer<UInt8>

        /// A deflater (level 9 unless told).
        package init(level: Int32 = 9) throws {
            output = .allocate(capacity: ZlibStream.chunkSize)
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
            let status = deflateInit_(stream, level, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
            guard status == Z_OK else {
                output.deallocate()
                stream.deallocate()
                throw CompressionFailure(.zlib, .status(status))
            }
        }

        deinit {
            deflateEnd(stream)
            stream.deallocate()
            output.deallocate()
        }

        /// Deflates `input`, handing what it produces to `sink`.
        package func append(_ input: UnsafeRawBufferPointer, to sink: (UnsafeRawBufferPointer) throws -> Void) throws {
            guard let base = input.bindMemory(to: UInt8.self).baseAddress, !input.isEmpty else { return }
            try run(UnsafeMutablePointer(mutating: base), count: input.count, flush: Z_NO_FLUSH, sink)
        }

        /// Ends the stream, handing its last bytes to `sink`.
        package func finish(to sink: (UnsafeRawBufferPointer) throws -> Void) throws {
            try run(output, count: 0, flush: Z_FINISH, sink)
        }

        private func run(
            _ input: UnsafeMutablePointer<UInt8>, count: Int, flush: Int32,
            _ sink: (UnsafeRawBufferPointer) throws -> Void
        ) throws {
            stream.pointee.next_in = input
            stream.pointee.avail_in = uInt(count)
            while true {
                stream.pointee.next_out = output
                stream.pointee.avail_out = uInt(ZlibStream.chunkSize)
                let code = CZlib.deflate(stream, flush)
                guard code == Z_OK || code == Z_STREAM_END || code == Z_BUF_ERROR else {
                    throw CompressionFailure(.zlib, .status(code))
                }
                let produced = ZlibStream.chunkSize - Int(stream.pointee.avail_out)
                if produced > 0 { try sink(UnsafeRawBufferPointer(start: output, count: produced)) }
                if code == Z_STREAM_END || (flush != Z_FINISH && stream.pointee.avail_out != 0) { return }
            }
        }
    }

    /// Deflates the file at `source` into `destination` (created or truncated); returns its length.
    @discardableResult
    package static func deflate(fileAt source: String, to destination: String) throws -> Int64 {
        try Deflater().compress(fileAt: source, to: destination)
    }

    /// An inflater fed piece by piece: ``append(_:to:)`` hands each inflated piece to `sink`,
    /// refusing to produce more than `limit` bytes; ``finish()`` checks that the stream ended.
    package final class Inflater: StreamDecompressor {
        private let stream: UnsafeMutablePointer<z_stream>
        private let output: UnsafeMutablePointer<UInt8>
        private let limit: Int64
        /// The bytes inflated so far.
        package private(set) var produced: Int64 = 0
        private var ended = false

        /// An inflater that refuses to produce more than `limit` bytes.
        package init(limit: Int64) throws {
            self.limit = limit
            output = .allocate(capacity: ZlibStream.chunkSize)
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
            let status = inflateInit_(stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
            guard status == Z_OK else {
                output.deallocate()
                stream.deallocate()
                throw CompressionFailure(.zlib, .status(status))
            }
        }

        deinit {
            inflateEnd(stream)
            stream.deallocate()
            output.deallocate()
        }

        /// Inflates `input`, handing what it produces to `sink`.
        package func append(_ input: UnsafeRawBufferPointer, to sink: (UnsafeRawBufferPointer) throws -> Void)
            throws
        {
            guard !input.isEmpty else { return }
            guard !ended else { throw CompressionFailure(.zlib, .trailingBytes) }
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: UInt8.self).baseAddress)
            stream.pointee.avail_in = uInt(input.count)
            while stream.pointee.avail_in > 0 && !ended {
                stream.pointee.next_out = output
                stream.pointee.avail_out = uInt(ZlibStream.chunkSize)
                let code = inflate(stream, Z_NO_FLUSH)
                switch code {
                case Z_OK, Z_BUF_ERROR: break
                case Z_STREAM_END: ended = true
                case Z_DATA_ERROR, Z_NEED_DICT:
                    throw CompressionFailure(
                        .zlib, .corrupt(stream.pointee.msg.map { String(cString: $0) } ?? "code \(code)"))
                default: throw CompressionFailure(.zlib, .status(code))
                }
                let count = ZlibStream.chunkSize - Int(stream.pointee.avail_out)
                guard produced + Int64(count) <= limit else { throw CompressionFailure(.zlib, .tooLarge(limit: limit)) }
                produced += Int64(count)
                if count > 0 { try sink(UnsafeRawBufferPointer(start: output, count: count)) }
                if code == Z_BUF_ERROR && stream.pointee.avail_out != 0 { break }
            }
            if ended && stream.pointee.avail_in > 0 { throw CompressionFailure(.zlib, .trailingBytes) }
        }

        /// Checks that the stream reached its end marker.
        package func finish() throws {
            guard ended else { throw CompressionFailure(.zlib, .truncated) }
        }
    }
}
