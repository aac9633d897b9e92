/// One codec's C stream set up to compress (``ZlibStream/DeflateStream``,
/// ``Bzip2Stream/CompressStream``): only the codec's own calls, driven by ``PieceCompressor``.
package protocol CompressionStream: AnyObject {
    /// Hands the stream its next input, read by the following ``step(into:capacity:finishing:)``s.
    func take(_ input: UnsafeRawBufferPointer)
    /// Compresses once into `output` (room for `capacity` bytes), ending the stream when
    /// `finishing`: the bytes it wrote, and whether it is done with its input (or has ended).
    func step(into output: UnsafeMutablePointer<UInt8>, capacity: Int, finishing: Bool) throws -> (
        written: Int, done: Bool
    )
}

/// A compressor fed piece by piece: ``append(_:to:)`` and then ``finish(to:)`` hand each
/// compressed piece to `sink`.
package final class PieceCompressor<Stream: CompressionStream>: StreamCompressor {
    private let stream: Stream
    private let output = PieceBuffer()

    /// A compressor over `stream`, freshly started.
    package init(_ stream: Stream) {
        self.stream = stream
    }

    /// Compresses `input`, handing what it produces to `sink`.
    package func append(_ input: UnsafeRawBufferPointer, to sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !input.isEmpty else { return }
        try run(input, finishing: false, sink)
    }

    /// Ends the stream, handing its last bytes to `sink`.
    package func finish(to sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        try run(output.piece(0), finishing: true, sink)
    }

    private func run(
        _ input: UnsafeRawBufferPointer, finishing: Bool, _ sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        stream.take(input)
        while true {
            let step = try stream.step(into: output.start, capacity: PieceBuffer.capacity, finishing: finishing)
            if step.written > 0 { try sink(output.piece(step.written)) }
            if step.done { return }
        }
    }
}
