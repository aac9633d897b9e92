/// Why a target's encoding refused its bytes: a codec's ``CompressionFailure`` (whichever the
/// codec) or SQLPack's ``SQLPack/Failure``. Catch this to handle every codec's and packing's
/// failures at once; its description names the codec or packing and the reason.
package protocol TargetEncodingFailure: Error, CustomStringConvertible {}
