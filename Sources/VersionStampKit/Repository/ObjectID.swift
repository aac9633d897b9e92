import CGit2
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A SHA-1 object id as three machine words: cheap to hash, compare and store by the
/// hundred thousand (the in-memory history holds one per commit).
struct ObjectID: Hashable {
    var w0: UInt64
    var w1: UInt64
    var w2: UInt32

    /// The id held in libgit2's `git_oid`.
    init(_ oid: git_oid) {
        var copy = oid
        // Git_oid's id is 20 bytes, so they have a base address.
        // swift-format-ignore: NeverForceUnwrap
        (w0, w1, w2) = withUnsafeBytes(of: &copy.id) { ObjectID.words($0.baseAddress!) }
    }

    /// The id stored as 20 raw bytes at `bytes`.
    init(bytes: UnsafeRawPointer) {
        (w0, w1, w2) = ObjectID.words(bytes)
    }

    private static func words(_ p: UnsafeRawPointer) -> (UInt64, UInt64, UInt32) {
        (
            p.loadUnaligned(as: UInt64.self), p.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
            p.loadUnaligned(fromByteOffset: 16, as: UInt32.self)
        )
    }

    /// The id as libgit2's `git_oid`.
    var gitOID: git_oid {
        var oid = git_oid()
        var words = self
        withUnsafeBytes(of: &words) { source in
            withUnsafeMutableBytes(of: &oid.id) { target in
                // Both are 20-byte values, so they have a base address.
                // swift-format-ignore: NeverForceUnwrap
                target.baseAddress!.copyMemory(from: source.baseAddress!, byteCount: 20)
            }
        }
        return oid
    }

    /// The 40-digit hexadecimal id.
    var hex: String { gitOID.hex }

    /// Parses 40 hexadecimal digits; nil for anything else.
    init?<Text: StringProtocol>(hex text: Text) {
        let digits = Array(text.utf8)
        // Digits holds 40 bytes when parsed (checked first), so it has a base address.
        // swift-format-ignore: NeverForceUnwrap
        guard digits.count == 40, let id = digits.withUnsafeBufferPointer({ ObjectID.parseHex($0.baseAddress!) }) else {
            return nil
        }
        self = id
    }

    /// Parses 40 lowercase or uppercase hex digits at `p`; nil when they are not hex.
    @inline(__always)
    static func parseHex(_ p: UnsafePointer<UInt8>) -> ObjectID? {
        var raw = (UInt64(0), UInt64(0), UInt32(0))
        var bad: UInt8 = 0
        withUnsafeMutableBytes(of: &raw) { out in
            for i in 0..<20 {
                let high = hexTable[Int(p[2 * i])], low = hexTable[Int(p[2 * i + 1])]
                bad |= (high | low) & 0x10
                out[i] = high << 4 | (low & 0x0f)
            }
        }
        guard bad == 0 else { return nil }
        // Raw is a 20-byte value, so it has a base address.
        // swift-format-ignore: NeverForceUnwrap
        return withUnsafeBytes(of: &raw) { ObjectID(bytes: $0.baseAddress!) }
    }

    /// Hex digit values; 0x10 marks a byte that is not a hex digit.
    private static let hexTable: [UInt8] = (0..<256).map { c -> UInt8 in
        switch c {
        case 48...57: return UInt8(c - 48)
        case 97...102: return UInt8(c - 87)
        case 65...70: return UInt8(c - 55)
        default: return 0x10
        }
    }

    func hash(into hasher: inout Hasher) { hasher.combine(w0) }
}
