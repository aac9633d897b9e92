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
import EssentialsSupport

/// A recovery key: an Ed25519 key the feed's root names for the root role only, whose private
/// half is kept offline. It signs nothing a device installs (targets, snapshot and timestamp
/// name the main key only); it signs the next root when the main key is lost or leaked
/// (``Feed/rotate(oldKey:oldKeySource:newKey:newKeySource:recoveryKeys:)``).
///
/// Only its public key is given to the feed: the 64 hexadecimal digits `dbgen keys generate`
/// prints.
public enum RecoveryKey {
    /// The public key `text` holds (surrounding whitespace ignored).
    ///
    /// - Throws: ``FeedPublisherError`` naming `source` when `text` is not 64 hexadecimal digits.
    public static func publicKey(fromHex text: String, source: String = "--recovery-key") throws -> PublicKey {
        let hex = text.trimmingWhitespaceAndNewlines()
        guard hex.utf8.count == 64, let raw = Hex.decode(hex) else {
            throw FeedPublisherError(
                source,
                "\"\(text)\" is not an Ed25519 public key (expected the 64 hexadecimal digits "
                    + "`dbgen keys generate` prints; the private key stays offline)")
        }
        return PublicKey(ed25519: raw)
    }

    /// The distinct keys of `keys`, refusing one of `mainKeyIDs` (a key that signs releases is
    /// no recovery key: its loss or leak would take the recovery with it).
    ///
    /// - Throws: ``FeedPublisherError`` naming `--recovery-key`.
    static func distinct(_ keys: [PublicKey], refusing mainKeyIDs: Set<String>) throws -> [PublicKey] {
        var seen = Set<String>()
        var distinct: [PublicKey] = []
        for key in keys {
            let keyID = try FeedPublisherError.about("--recovery-key") { try key.keyID }
            guard !mainKeyIDs.contains(keyID) else {
                throw FeedPublisherError(
                    "--recovery-key",
                    "\(key.publicValue) is a key that signs releases: a recovery key is another key, kept offline")
            }
            if seen.insert(keyID).inserted { distinct.append(key) }
        }
        return distinct
    }
}

extension Feed {
    /// Names each of `recoveryKeys` for the root role in the next root, signed by `key` (the
    /// main key, which root names for every role): a feed made without a recovery key gets one,
    /// and a device that trusts an earlier root follows (the new root is signed by a key the
    /// old one names for root). Root is otherwise as it was: the same keys for the same roles,
    /// the same data epoch.
    /// Returns the new root version, or nil when root names every one of them already (nothing
    /// is then written).
    ///
    /// - Throws: ``FeedPublisherError`` naming `keySource` when `key` is not the main key (a
    ///   recovery key stays offline), or `--recovery-key` when one is a key that signs releases.
    @discardableResult
    public func addRecoveryKeys(_ recoveryKeys: [PublicKey], key: Ed25519SigningKey, keySource: String) throws
        -> Int64?
    {
        try withLock {
            let state = try FeedState.load(layout)
            try state.requireSigner(key, source: keySource, roles: Root.topLevelRoles, action: "add a recovery key")
            var keys = state.root.keys
            var rootKeyIDs = state.root.roles.root.keyIDs
            for recoveryKey in try RecoveryKey.distinct(recoveryKeys, refusing: state.mainKeyIDs) {
                let keyID = try FeedPublisherError.about("--recovery-key") { try recoveryKey.keyID }
                guard !rootKeyIDs.contains(keyID) else { continue }
                keys[keyID] = recoveryKey
                rootKeyIDs.append(keyID)
            }
            guard rootKeyIDs.count > state.root.roles.root.keyIDs.count else { return nil }
            var roles = state.root.roles
            roles.root = RoleKeys(keyIDs: rootKeyIDs, threshold: state.root.roles.root.threshold)
            let version = state.root.header.version + 1
            try writer.writeRoot(
                version: version, keys: keys, roles: roles, dataEpoch: try state.dataEpoch(), signedBy: [key])
            return version
        }
    }
}
