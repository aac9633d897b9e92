import FeedClient
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
import LayeredDatabase
import TUF

extension Feed {
    /// Keeps the newest `keep` releases and every base-only release (``ReleaseFacts/baseOnly``:
    /// apps bundle those): drops every other release's targets (its whole
    /// database, the patches to it, and the patches from it) from the next targets, snapshot and
    /// timestamp, signed by `key` (and the next root, naming the same keys, when root expires
    /// soon); then, once `timestamp.json` makes that metadata live, deletes
    /// the dropped targets' files. A file the live metadata names is never deleted. With nothing
    /// to drop, nothing is written.
    ///
    /// - Throws: ``FeedPublisherError`` (`keep` below 1, a key root does not name, the feed's
    ///   documents).
    @discardableResult
    public func prune(key: Ed25519SigningKey, keySource: String, keep: Int) throws -> PruneSummary {
        guard keep >= 1 else { throw FeedPublisherError("--keep", "\(keep): at least the newest release stays") }
        return try withLock {
            let state = try FeedState.load(layout)
            try state.requireSigner(
                key, source: keySource, roles: [Targets.type, Snapshot.type, Timestamp.type], action: "prune")
            let catalog = try state.catalog()
            let kept = catalog.releases.prefix(keep).map(\.facts.result)
            let keptHashes = Set(kept.map(\.sha256) + catalog.bases.map(\.facts.result.sha256))
            let dropped = Set(
                catalog.entries.filter { entry in
                    !keptHashes.contains(entry.facts.result.sha256)
                        || entry.facts.base.map { !keptHashes.contains($0.sha256) } ?? false
                }.map(\.target.path))
            var summary = PruneSummary(kept: kept, removedTargets: dropped.sorted(), deletedFiles: [])
            guard !dropped.isEmpty else { return summary }
            let remaining = state.targetFiles.filter { !dropped.contains($0.path) }
            summary.renewedRootVersion = try renewRootIfDue(state, key: key, keySource: keySource)
            try writer.publish(targets: remaining, over: state, signedBy: [key])
            // Only the catalog's files are deleted: their names are checked (no path a key
            // holder signs deletes a file outside the feed), and a blob a remaining target
            // names is kept.
            let remainingPaths = Set(remaining.map(\.path))
            let live = Set(catalog.entries.filter { remainingPaths.contains($0.target.path) }.map(\.stored))
            for entry in catalog.entries where dropped.contains(entry.target.path) && !live.contains(entry.stored) {
                if (try? FileManager.default.removeItem(atPath: layout.path(entry.stored))) != nil {
                    summary.deletedFiles.append(entry.stored.string)
                }
            }
            return summary
        }
    }
}
