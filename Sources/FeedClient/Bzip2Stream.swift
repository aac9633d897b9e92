import CBZip2
import Foundation

/// A bzip2 stream read or written in pieces (libbz2): the feed's targets are compressed by
/// `dbgen publish` and decompressed on the device, never whole in memory, and never past a cap.
/// One stream only: bytes after its end marker are refused. Its failures are
/// ``CompressionFailure``s of ``TargetCompression/bzip2``.
package enum Bzip2Stream {
    /// The size of the pieces written at a time.
    static let chunkSize = 1 << 16

    /// A compressor fed piece by piece: ``append(_:to:)`` and then ``finish(to:)`` hand each
    /// compressed piece to `sink`. The same input gives the same bytes with the same block size
    /// (libbz2's output depends on nothing else).
    package final class Compressor: StreamCompressor {
        // libbz2 keeps a pointer back to the stream: it lives at one address from init to end.
        private let stream: UnsafeMutablePointer<bz_stream>
        private let output: UnsafeMutablePointer<UInt8>

        /// A compressor with blocks of `blockSize100k` × 100 kB (9, the largest, unless told).
        package init(blockSize100k: Int32 = 9) throws {
            output = .allocate(capacity: Bzip2Stream.chunkSize)
            stream = .allocate(capacity: 1)
            stream.initialize(to: bz_stream())
            let status = BZ2_bzCompressInit(stream, blockSize100k, 0, 0)
            guard status == BZ_OK else {
                output.deallocate()
                stream.deallocate()
                throw CompressionFailure(.bzip2, .status(status))
            }
        }

        deinit {
            BZ2_bzCompressEnd(stream)
            stream.deallocate()
            output.deallocate()
        }

        /// Compresses `input`, handing what it produces to `sink`.
        package func append(_ input: UnsafeRawBufferPointer, to sink: (UnsafeRawBufferPointer) throws -> Void) throws {
            guard let base = input.baseAddress, !input.isEmpty else { return }
            try run(UnsafeMutableRawPointer(mutating: base), count: input.count, action: BZ_RUN, sink)
        }

        /// Ends the stream, handing its last bytes to `sink`.
        package func finish(to sink: (UnsafeRawBufferPointer) throws -> Void) throws {
            try run(UnsafeMutableRawPointer(output), count: 0, action: BZ_FINISH, sink)
        }

        private func run(
            _ input: UnsafeMutableRawPointer, count: Int, action: Int32, _ sink: (UnsafeRawBufferPointer) throws -> Void
        ) throws {
            stream.pointee.next_in = input.assumingMemoryBound(to: CChar.self)
            stream.pointee.avail_in = UInt32(count)
            while true {
                stream.pointee.next_out = UnsafeMutableRawPointer(output).assumingMemoryBound(to: CChar.self)
                stream.pointee.avail_out = UInt32(Bzip2Stream.chunkSize)
                let code = BZ2_bzCompress(stream, action)
                guard code == BZ_RUN_OK || code == BZ_FINISH_OK || code == BZ_STREAM_END else {
                    throw CompressionFailure(.bzip2, .status(code))
                }
                let produced = Bzip2Stream.chunkSize - Int(stream.pointee.avail_out)
                if produced > 0 { try sink(UnsafeRawBufferPointer(start: output, count: produced)) }
                if code == BZ_STREAM_END || (action == BZ_RUN && stream.pointee.avail_in == 0) { return }
            }
        }
    }

    /// Compresses the file at `source` into `destination` (created or truncated), 900 kB
    /// blocks; returns its length.
    @discardableResult
    package static func compress(fileAt source: String, to destination: String) throws -> Int64 {
        try Compressor().compress(fileAt: source, to: destination)
    }

    /// A decompressor fed piece by piece: ``append(_:to:)`` hands each piece to `sink`, refusing
    /// to produce more than `limit` bytes; ``finish()`` checks that the stream ended.
    package final class Decompressor: StreamDecompressor {
        private let stream: UnsafeMutablePointer<bz_stream>
        private let output: UnsafeMutablePointer<UInt8>
        private let limit: Int64
        /// The bytes produced so far.
        package private(set) var produced: Int64 = 0
        private var ended = false

        /// A decompressor that refuses to produce more than `limit` bytes.
        package init(limit: Int64) throws {
            self.limit = limit
            output = .allocate(capacity: Bzip2Stream.chunkSize)
            stream = .allocate(capacity: 1)
            stream.initialize(to: bz_stream())
            let status = BZ2_bzDecompressInit(stream, 0, 0)
            guard status == BZ_OK else {
                output.deallocate()
                stream.deallocate()
                throw CompressionFailure(.bzip2, .status(status))
            }
        }

        deinit {
            BZ2_bzDecompressEnd(stream)
            stream.deallocate()
            output.deallocate()
        }

        /// Decompresses `input`, handing what it produces to `sink`.
        package func append(_ input: UnsafeRawBufferPointer, to sink: (UnsafeRawBufferPointer) throws -> Void)
            throws
        {
            guard let base = input.baseAddress, !input.isEmpty else { return }
            guard !ended else { throw CompressionFailure(.bzip2, .trailingBytes) }
            stream.pointee.next_in = UnsafeMutableRawPointer(mutating: base).assumingMemoryBound(to: CChar.self)
            stream.pointee.avail_in = UInt32(input.count)
            // libbz2 may hold decoded bytes after taking the last input: run until it has room left.
            while !ended {
                stream.pointee.next_out = UnsafeMutableRawPointer(output).assumingMemoryBound(to: CChar.self)
                stream.pointee.avail_out = UInt32(Bzip2Stream.chunkSize)
                let code = BZ2_bzDecompress(stream)
                switch code {
                case BZ_OK: break
                case BZ_STREAM_END: ended = true
                case BZ_DATA_ERROR: throw CompressionFailure(.bzip2, .corrupt("a block fails its check"))
                case BZ_DATA_ERROR_MAGIC: throw CompressionFailure(.bzip2, .corrupt("no bzip2 signature"))
                default: throw CompressionFailure(.bzip2, .status(code))
                }
                let count = Bzip2Stream.chunkSize - Int(stream.pointee.avail_out)
                guard produced + Int64(count) <= limit else {
                    throw CompressionFailure(.bzip2, .tooLarge(limit: limit))
                }
                produced += Int64(count)
                if count > 0 { try sink(UnsafeRawBufferPointer(start: output, count: count)) }
                if stream.pointee.avail_in == 0 && stream.pointee.avail_out != 0 { break }
            }
            if ended && stream.pointee.avail_in > 0 { throw CompressionFailure(.bzip2, .trailingBytes) }
        }

        /// Checks that the stream reached its end marker.
        package func finish() throws {
            guard ended else { throw CompressionFailure(.bzip2, .truncated) }
        }
    }
}
