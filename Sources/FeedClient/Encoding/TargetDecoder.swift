/// A decoder fed a target's bytes piece by piece, handing on what they stand for under a cap:
/// a codec's ``PieceDecompressor``, SQLPack's ``SQLPack/Unpacker``, or both one after the other
/// (``TargetEncoding/decoder(limit:)``). It throws a ``TargetEncodingFailure`` for a stream that is
/// corrupt, too large, truncated or followed by other bytes.
package protocol TargetDecoder: AnyObject {
    /// The bytes produced so far.
    var produced: Int64 { get }
    /// Decodes `input`, handing what it produces to `sink`.
    func append(_ input: UnsafeRawBufferPointer, to sink: (UnsafeRawBufferPointer) throws -> Void) throws
    /// Checks that the stream reached its end marker.
    func finish() throws
}
