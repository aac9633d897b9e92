/// The buffer a compressor or decompressor writes each piece into: at one address for its
/// owner's life, and freed with it.
final class PieceBuffer {
    /// How many bytes a piece holds at most.
    static let capacity = 1 << 16

    /// The buffer's first byte.
    let start = UnsafeMutablePointer<UInt8>.allocate(capacity: PieceBuffer.capacity)

    deinit {
        start.deallocate()
    }

    /// The first `count` bytes, as written by the codec.
    func piece(_ count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: start, count: count)
    }
}
