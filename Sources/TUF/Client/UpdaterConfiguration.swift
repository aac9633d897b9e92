/// The updater's limits (python-tuf's defaults).
public struct UpdaterConfiguration: Sendable {
    /// The most root versions followed in one refresh.
    public var maximumRootRotations = 32
    /// The most delegated roles visited in one target lookup, after the top-level targets
    /// (python-tuf's `max_delegations`): 5.6.7.1's bound on the bandwidth and time a search takes.
    public var maximumDelegations = 32
    /// Caps on each document when its length is not known in advance, in bytes.
    public var rootMaximumLength = 512_000
    public var timestampMaximumLength = 16_384
    public var snapshotMaximumLength = 2_000_000
    public var targetsMaximumLength = 5_000_000
    /// The most bytes a snapshot or targets document may have, whatever length the signed
    /// metadata that lists it declares: a declared length above this is refused before the
    /// document is fetched, so no signed value lifts the client's own cap past it.
    public var metadataHardMaximumLength = 10_000_000
    /// Whether targets are fetched under hash-prefixed names when root says consistent snapshots.
    public var prefixTargetsWithHash = true

    /// The defaults.
    public init() {}
}
