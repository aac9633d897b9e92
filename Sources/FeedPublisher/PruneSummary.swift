import LayeredDatabase

/// What `prune` did.
public struct PruneSummary: Equatable, Sendable {
    /// The releases kept, newest first.
    public var kept: [DatabaseVersion]
    /// The target paths no longer listed.
    public var removedTargets: [String]
    /// The files deleted under `targets/` (after the metadata that no longer names them was written).
    public var deletedFiles: [String]
    /// The new root version when root, about to expire, was renewed (same keys).
    public var renewedRootVersion: Int64? = nil
}
