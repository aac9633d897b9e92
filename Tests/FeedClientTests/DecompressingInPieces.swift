import FeedClient
import Foundation

extension TargetCompression {
    /// Decompresses `compressed` handed over `pieceSize` bytes at a time, as a download arrives,
    /// under `limit`; checks the stream ended.
    func decompress(_ compressed: Data, limit: Int64, pieceSize: Int = 7_777) throws -> Data {
        try decompressor(limit: limit).decode(compressed, pieceSize: pieceSize)
    }
}

extension TargetDecoder {
    /// Decodes `input` handed over `pieceSize` bytes at a time, as a download arrives; checks
    /// the stream ended and that the count of bytes produced is what was handed over.
    func decode(_ input: Data, pieceSize: Int = 7_777) throws -> Data {
        var output = Data()
        var offset = 0
        while offset < input.count {
            let piece = input[offset..<min(offset + pieceSize, input.count)]
            try piece.withUnsafeBytes { bytes in try append(bytes) { output.append(contentsOf: $0) } }
            offset += pieceSize
        }
        try finish()
        guard produced == Int64(output.count) else { throw CountMismatch() }
        return output
    }
}

/// The decompressor's count of bytes produced is not what it handed over.
struct CountMismatch: Error {}
