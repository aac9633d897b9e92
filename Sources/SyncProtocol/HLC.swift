/// A hybrid logical clock reading: `milliseconds × 65536 + logical`, with milliseconds since
/// 1970 UTC and a logical counter 0–65535, as a signed 64-bit integer (docs/Sync.md, "Time").
///
/// A device stamps each captured edit with ``stamp(nowMilliseconds:offsetMilliseconds:after:)``,
/// so it orders its own edits after every edit it has seen.
public struct HLC: Hashable, Comparable, Sendable {
    /// The clock as one integer: `milliseconds << 16 | logical`.
    public var rawValue: Int64

    /// The greatest millisecond count an HLC holds (`Int64.max >> 16`).
    public static let maximumMilliseconds: Int64 = Int64.max >> 16

    /// No clock: 0.
    public static let zero = HLC(rawValue: 0)

    /// The reading whose integer is `rawValue`.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// The reading `milliseconds × 65536 + logical`; `milliseconds` must lie in
    /// `0...maximumMilliseconds`.
    public init(milliseconds: Int64, logical: UInt16 = 0) {
        precondition(milliseconds >= 0 && milliseconds <= Self.maximumMilliseconds, "HLC milliseconds out of range")
        rawValue = milliseconds << 16 | Int64(logical)
    }

    /// Milliseconds since 1970 UTC.
    public var milliseconds: Int64 { rawValue >> 16 }

    /// The logical counter.
    public var logical: UInt16 { UInt16(truncatingIfNeeded: rawValue & 0xFFFF) }

    /// The greatest reading within millisecond `milliseconds`: what the server stores for an edit
    /// stamped ahead of its clock (`milliseconds × 65536 + 65535`).
    public static func ceiling(ofMilliseconds milliseconds: Int64) -> HLC {
        HLC(milliseconds: min(max(milliseconds, 0), maximumMilliseconds), logical: .max)
    }

    /// The stamp of a new edit: `max((now + offset) × 65536, after + 1)`, where `after` is the
    /// greatest reading the device has produced or received.
    public static func stamp(nowMilliseconds: Int64, offsetMilliseconds: Int64 = 0, after: HLC) -> HLC {
        let (sum, overflow) = nowMilliseconds.addingReportingOverflow(offsetMilliseconds)
        let wall = overflow ? maximumMilliseconds : min(max(sum, 0), maximumMilliseconds)
        let physical = wall << 16
        let next = after.rawValue == Int64.max ? Int64.max : after.rawValue + 1
        return HLC(rawValue: max(physical, next))
    }

    public static func < (lhs: HLC, rhs: HLC) -> Bool { lhs.rawValue < rhs.rawValue }
}
