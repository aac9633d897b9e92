/// Why a codec refused a stream or could not run (``ZlibStream``, ``Bzip2Stream``): one type for
/// every codec, so a caller tells the reasons apart the same way whichever codec a target uses;
/// its description names the codec and the reason.
package struct CompressionFailure: TargetEncodingFailure, Equatable, Sendable {
    /// What went wrong, whatever the codec.
    package enum Reason: Equatable, Sendable {
        /// The bytes are not a valid stream (the codec's message, or what it found).
        case corrupt(String)
        /// The stream decompresses to more than the cap: nothing past the cap was written.
        case tooLarge(limit: Int64)
        /// The stream ends before its end marker.
        case truncated
        /// Bytes follow the stream's end marker.
        case trailingBytes
        /// The codec's library refused to start or failed (its status code).
        case status(Int32)
    }

    /// The codec that refused the stream.
    package let codec: TargetCompression
    /// Why it refused it.
    package let reason: Reason

    /// The failure of `codec` for `reason`.
    package init(_ codec: TargetCompression, _ reason: Reason) {
        self.codec = codec
        self.reason = reason
    }

    package var description: String {
        switch reason {
        case .corrupt(let message): return "not a valid \(codec.rawValue) stream (\(message))"
        case .tooLarge(let limit): return "\(decompresses) to more than the \(limit) bytes its metadata declares"
        case .truncated: return "the \(codec.rawValue) stream ends early"
        case .trailingBytes: return "bytes follow the end of the \(codec.rawValue) stream"
        case .status(let code): return "\(library) failed (code \(code))"
        }
    }

    /// The codec's own word for decompressing.
    private var decompresses: String {
        switch codec {
        case .zlib: return "inflates"
        case .bzip2: return "decompresses"
        }
    }

    /// The library that implements the codec.
    private var library: String {
        switch codec {
        case .zlib: return "zlib"
        case .bzip2: return "libbz2"
        }
    }
}
