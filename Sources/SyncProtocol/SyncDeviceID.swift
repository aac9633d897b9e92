/// A device's id: 16 random bytes made on its first sync. Compared as 16 unsigned bytes (the
/// tie-break of edits with the same HLC).
public struct SyncDeviceID: Hashable, Comparable, Sendable {
    /// The first 8 bytes, big-endian.
    public var high: UInt64
    /// The last 8 bytes, big-endian.
    public var low: UInt64

    /// The id whose bytes, big-endian, are `high` then `low`.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The id made of exactly 16 `bytes`, else nil.
    public init?<Bytes: Collection>(bytes: Bytes) where Bytes.Element == UInt8 {
        guard bytes.count == 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            if index < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
        }
        self.init(high: high, low: low)
    }

    /// A new random id.
    public static func random() -> SyncDeviceID {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A new id drawn from `generator`.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> SyncDeviceID {
        SyncDeviceID(high: generator.next(), low: generator.next())
    }

    /// The 16 bytes.
    public var bytes: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(16)
        for shift in stride(from: 56, through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: high >> UInt64(shift)))
        }
        for shift in stride(from: 56, through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: low >> UInt64(shift)))
        }
        return out
    }

    public static func < (lhs: SyncDeviceID, rhs: SyncDeviceID) -> Bool {
        lhs.high != rhs.high ? lhs.high < rhs.high : lhs.low < rhs.low
    }
}

extension SyncDeviceID: CustomStringConvertible {
    /// The 16 bytes in lowercase hex.
    public var description: String {
        bytes.map { SyncValue.hex($0).lowercased() }.joined()
    }
}
