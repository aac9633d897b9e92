/// Finding the next separator in a buffer eight bytes at a time (SWAR): the reader's inner
/// loop, where a byte-at-a-time search would cost a compare and a branch per byte.
enum ImportByteSearch {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080
    private static let lowBits: UInt64 = 0x7F7F_7F7F_7F7F_7F7F

    /// `byte` in each of a word's eight bytes.
    @inline(__always)
    static func repeated(_ byte: UInt8) -> UInt64 { ones &* UInt64(byte) }

    /// The high bit of each byte of `word` above 9 (with each digit's byte xored with `0`, the
    /// bytes that are not digits), and of no other.
    @inline(__always)
    static func bytesAbove9(_ word: UInt64) -> UInt64 {
        (((word & lowBits) &+ 0x7676_7676_7676_7676) | word) & highBits
    }

    /// The number the first `count` bytes of `word` (1 to 8 digit values 0…9, the first digit in
    /// the lowest byte, the rest zero) spell in decimal: the digits moved to the top bytes, then
    /// pairs, fours and eights combined with three multiplications.
    @inline(__always)
    static func decimalValue(_ word: UInt64, count: Int) -> UInt64 {
        var value = word &<< (8 &* UInt64(8 &- count))
        value = ((value & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) &>> 8
        value = ((value & 0x00FF_00FF_00FF_00FF) &* 6_553_601) &>> 16
        return ((value & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) &>> 32
    }

    /// The high bit of each byte of `word` that is zero, and of no other (exact, unlike the
    /// borrow trick of ``firstIndex(of:or:in:from:to:)``, which may flag bytes above a match).
    @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & lowBits) &+ lowBits) | word | lowBits)
    }

    /// The index of the first byte in `start..<end` equal to `a` or `b`, or `end`.
    @inline(__always)
    static func firstIndex(of a: UInt8, or b: UInt8, in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int
    {
        var index = start
        let patternA = ones &* UInt64(a)
        let patternB = ones &* UInt64(b)
        let raw = UnsafeRawPointer(base)
        while index + 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let xa = word ^ patternA
            let xb = word ^ patternB
            // A zero byte in xa or xb is a match; the lowest flagged byte is always a true one.
            let found = (((xa &- ones) & ~xa) | ((xb &- ones) & ~xb)) & highBits
            if found != 0 {
                return index + found.trailingZeroBitCount >> 3
            }
            index += 8
        }
        while index < end {
            let byte = base[index]
            if byte == a || byte == b { return index }
            index += 1
        }
        return end
    }
}
