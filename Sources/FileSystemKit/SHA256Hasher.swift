/// FileSystemKit's own SHA-256 (FIPS 180-4), fed in pieces: the padding, the buffering and the
/// state around a compression function chosen at run time (``SHA256Compression``: the CPU's
/// SHA instructions where it has them, portable Swift otherwise). The hash where the system
/// offers none (Linux), so an app that links LayeredDatabase compiles no cryptographic library
/// for a checksum. Compiled on every platform, so its tests run everywhere; ``SHA256Stream``
/// uses CryptoKit instead where it exists.
///
/// Whole blocks are compressed straight from the caller's buffer; only a partial block is
/// copied, so a file read in 1 MiB pieces is hashed at the speed of the compression function.
package struct SHA256Hasher {
    /// H0…H7 of FIPS 180-4 §5.3.3.
    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    /// The bytes of a block not yet complete (fewer than 64).
    private var pending: [UInt8] = []
    /// The number of bytes fed so far.
    private var length: UInt64 = 0

    /// The code that compresses each block.
    package let compression: SHA256Compression

    /// A hash of nothing yet, compressing with `compression` (the fastest this machine has,
    /// unless told otherwise).
    package init(compression: SHA256Compression = .fastest) {
        self.compression = compression
        pending.reserveCapacity(Self.blockSize)
    }

    static let blockSize = 64

    /// Feeds `bytes`, of any length, after those fed before.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty, let base = bytes.baseAddress else { return }
        length &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let taken = min(Self.blockSize - pending.count, bytes.count)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: taken))
            offset = taken
            guard pending.count == Self.blockSize else { return }
            let block = pending
            block.withUnsafeBytes { compression.compress($0, into: &state) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = (bytes.count - offset) / Self.blockSize * Self.blockSize
        if whole > 0 {
            compression.compress(UnsafeRawBufferPointer(start: base + offset, count: whole), into: &state)
            offset += whole
        }
        if offset < bytes.count {
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base + offset, count: bytes.count - offset))
        }
    }

    /// The digest of the bytes fed so far (32 bytes); the hash can go on being fed.
    package func finalize() -> [UInt8] {
        var copy = self
        let bitLength = length &* 8
        var padding: [UInt8] = [0x80]
        let afterPad = (Int(length % UInt64(Self.blockSize)) + 1) % Self.blockSize
        let zeros = (56 - afterPad + Self.blockSize) % Self.blockSize
        padding.append(contentsOf: repeatElement(0, count: zeros))
        for shift in stride(from: 56, through: 0, by: -8) {
            padding.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        padding.withUnsafeBytes { copy.update($0) }
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in copy.state {
            digest.append(contentsOf: [
                UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16),
                UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word),
            ])
        }
        return digest
    }
}
