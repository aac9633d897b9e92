/// One codec's C stream set up to decompress (``ZlibStream/InflateStream``,
/// ``Bzip2Stream/DecompressStream``): only the codec's own calls, so that ``PieceDecompressor``
/// checks the cap, the end marker and trailing bytes once for every codec.
package protocol DecompressingCodec: AnyObject {
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
