/// One codec's C stream set up to compress (``ZlibStream/DeflateStream``,
/// ``Bzip2Stream/CompressStream``): only the codec's own calls, driven by ``PieceCompressor``.
package protocol CompressingCodec: AnyObject {
    /// Hands the stream its next input, read by the following ``step(into:capacity:finishing:)``s.
    func take(_ input: UnsafeRawBufferPointer)
    /// Compresses once into `output` (room for `capacity` bytes), ending the stream when
    /// `finishing`: the bytes it wrote, and whether it is done with its input (or has ended).
    func step(into output: UnsafeMutablePointer<UInt8>, capacity: Int, finishing: Bool) throws -> (
        written: Int, done: Bool
    )
}
