/// How a codec's C stream is started, the same way for every codec and direction.
enum CodecStream {
    /// A C stream (`z_stream`, `bz_stream`) zeroed at an address of its own, which it keeps from
    /// `start` to the end (the library keeps a pointer back to it), once `start` returned `ok`;
    /// otherwise it is freed and `codec`'s status failure thrown.
    static func started<Stream>(
        _ empty: Stream, _ codec: TargetCompression, ok: Int32, by start: (UnsafeMutablePointer<Stream>) -> Int32
    ) throws -> UnsafeMutablePointer<Stream> {
        let stream = UnsafeMutablePointer<Stream>.allocate(capacity: 1)
        stream.initialize(to: empty)
        let status = start(stream)
        guard status == ok else {
            stream.deallocate()
            throw CompressionFailure(codec, .status(status))
        }
        return stream
    }
}
