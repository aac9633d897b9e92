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
import TUF

extension Feed {
    /// Writes the next root, naming `newKey` for all four roles and, for the root role only,
    /// every recovery key of the current root and each of `recoveryKeys`; it is signed by
    /// `oldKey` and `newKey`, as TUF asks of a rotation (a threshold of the old root's root keys
    /// and of the new root's). Targets, snapshot and timestamp are signed again at new versions.
    /// Returns the new root version.
    ///
    /// `oldKey` is either the main key (the current root names it for all four roles) or a
    /// recovery key (named for the root role only: the main key is then presumed lost or leaked).
    ///
    /// - With the main key, the new targets, snapshot and timestamp come first, signed by both
    ///   keys (a client trusting either root accepts them; a signature from a key a root does
    ///   not name is not counted), then `N.root.json`, then `root.json`: the feed verifies
    ///   after a kill at any moment.
    /// - With a recovery key, the old main key cannot sign them: `N.root.json` and `root.json`
    ///   come first, then targets, snapshot and timestamp signed by `newKey` alone. A rotation
    ///   killed in between leaves metadata the new root refuses: the same rotation run again
    ///   (the new key now the main key) signs them again with `newKey` and writes no root.
    ///
    /// With `resetData` (after a leaked key published data), the new root's data epoch
    /// (FeedClient's `DataEpoch`) is one above the current one: devices that follow it remove what they
    /// installed under the earlier epoch (the bundled database is in effect again) and install
    /// the newest release published under the new one, whatever its `user_version`; `publish`
    /// then accepts any `user_version` for the new epoch. Only the root keys can raise the epoch,
    /// so the leaked key, once rotated out, cannot. Without it, the new root keeps the epoch.
    ///
    /// - Throws: ``FeedPublisherError`` naming `oldKeySource` when the current root does not
    ///   name the old key (for root, or for the other roles), `newKeySource` when the new key is
    ///   a key root.json already names for them, `--recovery-key` when one is the old or new
    ///   main key, or `--reset-data` when a recovery already done without it is run again with it.
    @discardableResult
    public func rotate(
        oldKey: Ed25519SigningKey, oldKeySource: String, newKey: Ed25519SigningKey, newKeySource: String,
        recoveryKeys: [PublicKey] = [], resetData: Bool = false
    ) throws -> Int64 {
        try withLock {
            let state = try FeedState.load(layout)
            let (epoch, overflow) = try state.dataEpoch().addingReportingOverflow(resetData ? 1 : 0)
            guard !overflow else {
                throw FeedPublisherError(layout.path("root.json"), "the data epoch is at its largest")
            }
            let recovering = state.isRecoveryKey(oldKey)
            try state.requireSigner(oldKey, source: oldKeySource, roles: recovering ? [Root.type] : Root.topLevelRoles)
            let givenIDs = Set(try recoveryKeys.map { try $0.keyID })
            if recovering, state.mainKeyIDs == [newKey.keyID], givenIDs.isSubset(of: state.recoveryKeyIDs) {
                // The same recovery again: the root is written; sign the rest with the new key.
                if resetData, try !raisedDataEpoch(state) {
                    throw FeedPublisherError(
                        "--reset-data",
                        "root.json version \(state.root.header.version) already names the new key, with the data "
                            + "epoch of the root before it: rotate to another key with --reset-data to raise it")
                }
                try writer.publish(targets: state.targetFiles, over: state, signedBy: [newKey])
                return state.root.header.version
            }
            guard newKey.keyID != oldKey.keyID, !state.mainKeyIDs.contains(newKey.keyID) else {
                throw FeedPublisherError(
                    newKeySource,
                    "the new key \(newKey.publicHex) is the key root.json already names; to renew root.json "
                        + "before it expires, run `dbgen feed timestamp` (it signs the next root with the same key "
                        + "when root expires within 60 days)")
            }
            // A recovery key made the main key (`--new-key`) is named as that alone (`writeRoot`).
            let recovery =
                state.recoveryKeys
                + (try RecoveryKey.distinct(recoveryKeys, refusing: state.mainKeyIDs.union([newKey.keyID])))
            let version = state.root.header.version + 1
            let keys = [oldKey, newKey]
            if recovering {
                try writer.writeRoot(
                    version: version, naming: newKey, recovery: recovery, dataEpoch: epoch, signedBy: keys)
                try writer.publish(targets: state.targetFiles, over: state, signedBy: [newKey])
            } else {
                try writer.publish(targets: state.targetFiles, over: state, signedBy: keys)
                try writer.writeRoot(
                    version: version, naming: newKey, recovery: recovery, dataEpoch: epoch, signedBy: keys)
            }
            return version
        }
    }

    /// Whether the current root's data epoch is above its predecessor's (`N-1.root.json`).
    private func raisedDataEpoch(_ state: FeedState) throws -> Bool {
        let name = "\(state.root.header.version - 1).root.json"
        let path = layout.path(name)
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        let previous = try FeedPublisherError.about(path) { try Root(try Metadata(data: data, document: name)) }
        return try state.dataEpoch()
            > (try FeedPublisherError.about(path) { try DataEpoch.of(previous, document: path) })
    }
}
