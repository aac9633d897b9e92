import FeedClient
import Foundation

extension TargetCompression {
    /// Decompresses `compressed` handed over `pieceSize` bytes at a time, as a download arrives,
    /// under `limit`; checks the stream ended.
    func decompress(_ compressed: Data, limit: Int64, pieceSize: Int = 7_777) throws -> Data {
        let decompressor = try decompressor(limit: limit)
        var output = Data()
        var offset = 0
        while offset < compressed.count {
            let piece = compressed[offset..<min(offset + pieceSize, compressed.count)]
            try piece.withUnsafeBytes { bytes in try decompressor.append(bytes) { output.append(contentsOf: $0) } }
            offset += pieceSize
        }
        try decompressor.finish()
        guard decompressor.produced == Int64(output.count) else { throw CountMismatch() }
        return output
    }

    /// The decompressor's count of bytes produced is not what it handed over.
    struct CountMismatch: Error {}
}
