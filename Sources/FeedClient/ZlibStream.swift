import CZlib
import FileSystemKit
import Foundation

/// A zlib stream (RFC 1950) read or written in pieces: the feed's targets are deflated by
/// `dbgen publish` and inflated on the device, never whole in memory, and never past a cap.
package enum ZlibStream {
    /// Why a stream could not be inflated or deflated.
    package enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The bytes are not a valid zlib stream (zlib's message).
        case corrupt(String)
        /// The stream inflates to more than the cap: nothing past the cap was written.
        case tooLarge(limit: Int64)
        /// The stream ends before its end marker.
        case truncated
        /// Bytes follow the stream's end marker.
        case trailingBytes
        /// zlib refused to start or failed (its code).
        case zlib(Int32)

        package var description: String {
            switch self {
            case .corrupt(let message): return "not a valid zlib stream (\(message))"
            case .tooLarge(let limit): return "inflates to more than the \(limit) bytes its metadata declares"
            case .truncated: return "the zlib stream ends early"
            case .trailingBytes: return "bytes follow the end of the zlib stream"
            case .zlib(let code): return "zlib failed (code \(code))"
            }
        }
    }

    /// The size of the pieces written at a time.
    static let chunkSize = 1 << 16

    /// Deflates every byte `source` gives (called until it returns no bytes) and hands each
    /// compressed piece to `sink`. Level 9: the same input gives the same bytes with the same zlib.
    package static func deflate(
        level: Int32 = 9, from source: () throws -> Data?, to sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        // zlib keeps a pointer back to the stream: it lives at one address from init to end.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        let status = deflateInit_(stream, level, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw Failure.zlib(status) }
        defer { deflateEnd(stream) }
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { output.deallocate() }
        var finished = false
        while !finished {
            let input = try source() ?? Data()
            let flush = input.isEmpty ? Z_FINISH : Z_NO_FLUSH
            try input.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                stream.pointee.next_in = UnsafeMutablePointer(
                    mutating: bytes.bindMemory(to: UInt8.self).baseAddress ?? UnsafePointer(output))
                stream.pointee.avail_in = uInt(bytes.count)
                repeat {
                    stream.pointee.next_out = output
                    stream.pointee.avail_out = uInt(chunkSize)
                    let code = CZlib.deflate(stream, flush)
                    guard code != Z_STREAM_ERROR else { throw Failure.zlib(code) }
                    let produced = chunkSize - Int(stream.pointee.avail_out)
                    if produced > 0 { try sink(UnsafeRawBufferPointer(start: output, count: produced)) }
                    if code == Z_STREAM_END { finished = true }
                } while stream.pointee.avail_out == 0
            }
        }
    }

    /// Deflates the file at `source` into `destination` (created or truncated); returns its length.
    @discardableResult
    package static func deflate(fileAt source: String, to destination: String) throws -> Int64 {
        // POSIX calls, not FileHandle's read(upToCount:) / write(contentsOf:), which need
        // macOS 10.15.4 / iOS 13.4 (AppleAvailabilityTests).
        let input = POSIXFile.open(source, O_RDONLY)
        guard input >= 0 else { throw FileSystemError(.open, path: source, code: errno) }
        defer { close(input) }
        let output = POSIXFile.open(destination, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o666)
        guard output >= 0 else { throw FileSystemError(.open, path: destination, code: errno) }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var written: Int64 = 0
        try deflate(
            from: {
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                    if count < 0, errno == EINTR { continue }
                    guard count >= 0 else { throw FileSystemError(.read, path: source, code: errno) }
                    return count == 0 ? nil : Data(buffer[0..<count])
                }
            },
            to: { bytes in
                let code = POSIXFile.writeAll(output, bytes)
                guard code == 0 else { throw FileSystemError(.write, path: destination, code: code) }
                written += Int64(bytes.count)
            })
        return written
    }

    /// An inflater fed piece by piece: ``append(_:to:)`` hands each inflated piece to `sink`,
    /// refusing to produce more than `limit` bytes; ``finish()`` checks that the stream ended.
    package final class Inflater {
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
                throw Failure.zlib(status)
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
            guard !ended else { throw Failure.trailingBytes }
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
                    throw Failure.corrupt(stream.pointee.msg.map { String(cString: $0) } ?? "code \(code)")
                default: throw Failure.zlib(code)
                }
                let count = ZlibStream.chunkSize - Int(stream.pointee.avail_out)
                guard produced + Int64(count) <= limit else { throw Failure.tooLarge(limit: limit) }
                produced += Int64(count)
                if count > 0 { try sink(UnsafeRawBufferPointer(start: output, count: count)) }
                if code == Z_BUF_ERROR && stream.pointee.avail_out != 0 { break }
            }
            if ended && stream.pointee.avail_in > 0 { throw Failure.trailingBytes }
        }

        /// Checks that the stream reached its end marker.
        package func finish() throws {
            guard ended else { throw Failure.truncated }
        }
    }
}
