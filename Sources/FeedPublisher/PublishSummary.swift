import LayeredDatabase

/// What `publish` did.
public struct PublishSummary: Equatable, Sendable {
    /// One patch made: from an earlier release or base to the release published (or, for a
    /// base added, from it to a release of the feed).
    public struct Patch: Equatable, Sendable {
        /// The release or base the patch applies to.
        public var base: DatabaseVersion
        /// The release it gives.
        public var result: DatabaseVersion
        /// The encoded (packed and compressed) patch's length.
        public var length: Int64
        /// False when it was left out: not smaller than the whole database.
        public var kept: Bool
    }

    /// The release published (or the base added).
    public var release: DatabaseVersion
    /// Whether it was added as a patch base only (never offered).
    public var isBaseOnly = false
    /// True when the feed already held this release with the same facts: nothing was written.
    public var wasAlreadyPublished: Bool
    /// The encoded (compressed) whole database's length.
    public var databaseLength: Int64
    /// The patches, newest base first (for a base added: newest result first).
    public var patches: [Patch]
    /// The new targets version (the old one when nothing was written).
    public var targetsVersion: Int64
    /// The new root version when root, about to expire, was renewed (same keys).
    public var renewedRootVersion: Int64? = nil
}
