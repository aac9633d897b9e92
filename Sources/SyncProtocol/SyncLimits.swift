/// The most a decoder accepts: checked before anything is allocated, so a hostile body costs
/// at most its own size. docs/Sync.md's defaults: 8 MiB on the wire, 32 MiB inflated, 5,000
/// rows per batch.
public struct SyncLimits: Hashable, Sendable {
    /// The most bytes of a message as received (compressed or not).
    public var bodyBytes: Int
    /// The most bytes a compressed message may inflate to.
    public var inflatedBytes: Int
    /// The most rows in a request's batch.
    public var batchRows: Int
    /// The most rows in an answer's pull.
    public var pulledRows: Int

    /// Limits of your own; the defaults are docs/Sync.md's.
    public init(
        bodyBytes: Int = 8 << 20, inflatedBytes: Int = 32 << 20, batchRows: Int = 5_000, pulledRows: Int = 1_000_000
    ) {
        self.bodyBytes = bodyBytes
        self.inflatedBytes = inflatedBytes
        self.batchRows = batchRows
        self.pulledRows = pulledRows
    }

    /// docs/Sync.md's defaults.
    public static let standard = SyncLimits()
}
