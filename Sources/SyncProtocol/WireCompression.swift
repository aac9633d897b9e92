import CZlib

/// The wire format's optional compression: flag bit 0 says the rest of the message is a zlib
/// stream (RFC 1950), made with the system's zlib and inflated under a cap.
enum WireCompression {
    /// `bytes` deflated (zlib, level 6); nil if zlib fails.
    static func deflate(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        var length = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = bytes.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                compress2(output.baseAddress, &length, input.baseAddress, uLong(input.count), 6)
            }
        }
        guard status == Z_OK else { return nil }
        out.removeSubrange(Int(length)...)
        return out
    }

    /// The zlib stream `bytes` inflated, failing when it would exceed `limit` bytes, when it is
    /// corrupt or incomplete, or when bytes follow its end. `field` names it in errors.
    static func inflate(_ bytes: ArraySlice<UInt8>, limit: Int, field: String) throws -> [UInt8] {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw SyncDecodingError(.malformed, field: field, problem: "zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        var out = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        return try bytes.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (status, buffer.count - Int(stream.avail_out))
                }
                guard out.count + produced <= limit else {
                    throw SyncDecodingError(
                        .overLimit, field: field, problem: "inflates to more than the limit of \(limit) bytes")
                }
                out.append(contentsOf: chunk[0..<produced])
                switch status {
                case Z_STREAM_END:
                    guard stream.avail_in == 0 else {
                        throw SyncDecodingError(
                            .malformed, field: field,
                            problem: "\(stream.avail_in) trailing bytes after the zlib stream")
                    }
                    return out
                case Z_OK: continue
                case Z_BUF_ERROR:
                    if produced == 0 {
                        throw SyncDecodingError(.malformed, field: field, problem: "the zlib stream is incomplete")
                    }
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                    throw SyncDecodingError(.malformed, field: field, problem: "corrupt zlib stream: \(message)")
                }
            }
        }
    }
}

/// The envelope every message shares: a flags byte, then (inflated when flagged) a version byte.
enum WireEnvelope {
    /// Flag bit 0: the rest is a zlib stream.
    static let zlibFlag: UInt8 = 1
    /// The version this code speaks.
    static let version: UInt8 = 1

    /// `body` (the version byte and what follows) behind a flags byte, deflated as `compression` says.
    static func seal(_ body: [UInt8], compression: SyncCompression) -> [UInt8] {
        if compression != .never, body.count >= 32 || compression == .always,
            let deflated = deflate(body[...]), compression == .always || deflated.count < body.count
        {
            return [zlibFlag] + deflated
        }
        return [0] + body
    }

    private static func deflate(_ body: ArraySlice<UInt8>) -> [UInt8]? { WireCompression.deflate(body) }

    /// A reader at the version byte of `message` (inflated when flagged) after checking the size,
    /// the flags and the version. `name` is `request` or `answer`.
    static func open(_ message: [UInt8], name: String, limits: SyncLimits) throws -> WireReader {
        guard message.count <= limits.bodyBytes else {
            throw SyncDecodingError(
                .overLimit, field: name,
                problem: "\(message.count) bytes, more than the limit of \(limits.bodyBytes)")
        }
        var reader = WireReader(message)
        let flags = try reader.u8("\(name).flags")
        guard flags & ~zlibFlag == 0 else {
            throw SyncDecodingError(
                .malformed, field: "\(name).flags", problem: "unknown flags 0x\(SyncValue.hex(flags))")
        }
        if flags & zlibFlag != 0 {
            let inflated = try WireCompression.inflate(
                message[1...], limit: limits.inflatedBytes, field: "\(name).zlib")
            reader = WireReader(inflated)
        }
        let version = try reader.u8("\(name).version")
        guard version == Self.version else {
            throw SyncDecodingError(
                .malformed, field: "\(name).version",
                problem: "version \(version) is not supported (this side speaks \(Self.version))")
        }
        return reader
    }
}
