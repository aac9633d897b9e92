/// What `feed timestamp` signed.
public struct RenewalSummary: Equatable, Sendable {
    /// The new root version, when root was renewed (a new version naming the same keys).
    public var rootVersion: Int64?
    /// The new targets version, when targets was renewed (the same targets).
    public var targetsVersion: Int64?
    /// The new snapshot version, when snapshot was renewed.
    public var snapshotVersion: Int64?
    /// The new timestamp version.
    public var timestampVersion: Int64
    /// The documents signed again because their `expires` was one no client reads (a year past
    /// 9999), with that text, by name.
    public var repaired: [String: String]
}
