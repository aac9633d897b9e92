/// A decompressor fed piece by piece: ``append(_:to:)`` hands each piece to `sink`, refusing to
/// produce more than `limit` bytes; ``finish()`` checks that the stream ended.
package final class PieceDecompressor<Codec: DecompressingCodec>: TargetDecoder {
    private let codec: Codec
    private let output = PieceBuffer()
    private let limit: Int64
    /// The bytes produced so far.
    package private(set) var produced: Int64 = 0
    private var ended = false

    /// A decompressor that refuses to produce more than `limit` bytes.
    package init(limit: Int64) throws {
        codec = try Codec()
        self.limit = limit
    }

    /// Decompresses `input`, handing what it produces to `sink`.
    package func append(_ input: UnsafeRawBufferPointer, to sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !input.isEmpty else { return }
        guard !ended else { throw failure(.trailingBytes) }
        codec.take(input)
        // A codec may hold decoded bytes after taking the last input: run it while it says so.
        var again = true
        while again && !ended {
            let step = try codec.step(into: output.start, capacity: PieceBuffer.capacity)
            ended = step.ended
            guard produced + Int64(step.written) <= limit else { throw failure(.tooLarge(limit: limit)) }
            produced += Int64(step.written)
            if step.written > 0 { try sink(output.piece(step.written)) }
            again = step.again
        }
        if ended && codec.inputLeft > 0 { throw failure(.trailingBytes) }
    }

    /// Checks that the stream reached its end marker.
    package func finish() throws {
        guard ended else { throw failure(.truncated) }
    }

    private func failure(_ reason: CompressionFailure.Reason) -> CompressionFailure {
        CompressionFailure(Codec.compression, reason)
    }
}
