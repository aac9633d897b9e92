/// One codec's C stream set up to decompress (``ZlibStream/InflateStream``,
/// ``Bzip2Stream/DecompressStream``): only the codec's own calls, so that ``PieceDecompressor``
/// checks the cap, the end marker and trailing bytes once for every codec.
package protocol DecompressionStream: AnyObject {
    /// The codec, named by its failures.
    static var compression: TargetCompression { get }
    /// A stream ready to decompress; throws the codec's status if its library refuses to start.
    init() throws
    /// The bytes of the input handed to ``take(_:)`` not consumed yet.
    var inputLeft: Int { get }
    /// Hands the stream its next input (not empty), read by the following ``step(into:capacity:)``s.
    func take(_ input: UnsafeRawBufferPointer)
    /// Decompresses once into `output` (room for `capacity` bytes): the bytes it wrote, whether
    /// it reached the end marker, and whether it may produce more from what it holds (run it again).
    func step(into output: UnsafeMutablePointer<UInt8>, capacity: Int) throws -> (
        written: Int, ended: Bool, again: Bool
    )
}

/// A decompressor fed piece by piece: ``append(_:to:)`` hands each piece to `sink`, refusing to
/// produce more than `limit` bytes; ``finish()`` checks that the stream ended.
package final class PieceDecompressor<Stream: DecompressionStream>: StreamDecompressor {
    private let stream: Stream
    private let output = PieceBuffer()
    private let limit: Int64
    /// The bytes produced so far.
    package private(set) var produced: Int64 = 0
    private var ended = false

    /// A decompressor that refuses to produce more than `limit` bytes.
    package init(limit: Int64) throws {
        stream = try Stream()
        self.limit = limit
    }

    /// Decompresses `input`, handing what it produces to `sink`.
    package func append(_ input: UnsafeRawBufferPointer, to sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !input.isEmpty else { return }
        guard !ended else { throw failure(.trailingBytes) }
        stream.take(input)
        // A codec may hold decoded bytes after taking the last input: run it while it says so.
        var again = true
        while again && !ended {
            let step = try stream.step(into: output.start, capacity: PieceBuffer.capacity)
            ended = step.ended
            guard produced + Int64(step.written) <= limit else { throw failure(.tooLarge(limit: limit)) }
            produced += Int64(step.written)
            if step.written > 0 { try sink(output.piece(step.written)) }
            again = step.again
        }
        if ended && stream.inputLeft > 0 { throw failure(.trailingBytes) }
    }

    /// Checks that the stream reached its end marker.
    package func finish() throws {
        guard ended else { throw failure(.truncated) }
    }

    private func failure(_ reason: CompressionFailure.Reason) -> CompressionFailure {
        CompressionFailure(Stream.compression, reason)
    }
}
