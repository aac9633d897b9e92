import LayeredDatabase

/// What `dbgen feed verify` checked.
public struct FeedVerification: Equatable, Sendable {
    /// The trusted root's version after following the chain.
    public var rootVersion: Int64
    /// The timestamp, snapshot and targets versions.
    public var timestampVersion: Int64
    public var snapshotVersion: Int64
    public var targetsVersion: Int64
    /// The releases (whole databases offered to devices), newest first.
    public var releases: [DatabaseVersion]
    /// The base-only releases (patch bases apps bundle, never offered), newest first.
    public var bases: [DatabaseVersion] = []
    /// The number of patches.
    public var patchCount: Int
    /// The bytes of every target together.
    public var totalBytes: Int64
    /// The trusted root's data epoch (FeedClient's `DataEpoch`).
    public var dataEpoch: Int64 = 0
}
