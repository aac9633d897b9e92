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
import TUF

extension Feed {
    /// Signs the next timestamp, and renews every other role that expires soon
    /// (``FeedClock/renewalMargin``): root as a new version naming the same keys (signed by
    /// `key`, which root names), targets as a new version listing the same targets, snapshot as
    /// a new version. It is what a cron job runs, so that no document of the feed expires while
    /// nobody publishes. A document whose `expires` no client reads (a feed wedged by a duration
    /// of more than ten years) counts as expired, so this signs it again.
    ///
    /// Root is written first (`N.root.json`, then `root.json`), then targets, snapshot and
    /// timestamp: the keys do not change, so the feed verifies after a kill at any moment.
    ///
    /// - Throws: ``FeedPublisherError``: the feed's documents, or a key root does not name for a
    ///   role to sign (naming `keySource`).
    @discardableResult
    public func resignTimestamp(key: Ed25519SigningKey, keySource: String) throws -> RenewalSummary {
        try withLock {
            let state = try FeedState.load(layout)
            let due = DueRoles(state, clock: clock)
            try state.requireSigner(
                key, source: keySource, roles: due.roles + [Timestamp.type], action: "sign the timestamp")
            var summary = RenewalSummary(
                timestampVersion: state.timestamp.header.version + 1, repaired: state.unreadableExpiries)
            summary.rootVersion = try renewRootIfDue(state, key: key, keySource: keySource)
            if due.targets {
                try writer.publish(targets: state.targetFiles, over: state, signedBy: [key])
                summary.targetsVersion = state.targets.header.version + 1
                summary.snapshotVersion = state.snapshot.header.version + 1
            } else if due.snapshot {
                try writer.writeSnapshot(
                    version: state.snapshot.header.version + 1, meta: state.snapshot.meta,
                    timestampVersion: summary.timestampVersion, signedBy: [key])
                summary.snapshotVersion = state.snapshot.header.version + 1
            } else {
                try writer.writeTimestamp(
                    version: summary.timestampVersion, snapshot: state.timestamp.snapshotMeta, signedBy: [key])
            }
            return summary
        }
    }

    /// Writes the next root, naming the same keys for the same roles with the same data epoch
    /// (FeedClient's `DataEpoch`: a device refuses a root that lowers it), when the current one
    /// expires within the margin; returns its version, or nil when root was not due.
    ///
    /// - Throws: ``FeedPublisherError`` naming `keySource` when root does not name `key` for
    ///   the root role.
    func renewRootIfDue(_ state: FeedState, key: Ed25519SigningKey, keySource: String) throws -> Int64? {
        guard DueRoles(state, clock: clock).root else { return nil }
        try state.requireSigner(key, source: keySource, roles: [Root.type])
        let version = state.root.header.version + 1
        try writer.writeRoot(
            version: version, keys: state.root.keys, roles: state.root.roles, dataEpoch: try state.dataEpoch(),
            signedBy: [key])
        return version
    }
}

/// The roles of a feed whose documents expire within the renewal margin (or whose `expires` no
/// client reads), as of the clock.
struct DueRoles {
    var root: Bool
    var targets: Bool
    /// Also true when targets is: a new targets version needs a new snapshot.
    var snapshot: Bool

    init(_ state: FeedState, clock: FeedClock) {
        root = clock.isDue(state.root.header.expires, lifetime: clock.rootLifetime)
        targets = clock.isDue(state.targets.header.expires, lifetime: clock.targetsLifetime)
        snapshot = targets || clock.isDue(state.snapshot.header.expires, lifetime: clock.snapshotLifetime)
    }

    /// The roles due, root first.
    var roles: [String] {
        [(root, Root.type), (targets, Targets.type), (snapshot, Snapshot.type)].filter(\.0).map(\.1)
    }
}
