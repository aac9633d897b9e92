import FeedClient
import FileSystemKit
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

/// Signs and writes the feed's documents, each atomically and durably, in the order that keeps
/// the feed verifiable after a kill at any moment: targets files first (by the caller), then
/// `N.targets.json`, `N.snapshot.json`, and `timestamp.json` last, the one document that makes
/// the others live. Roots go to `N.root.json` before `root.json`.
struct MetadataWriter {
    let layout: FeedLayout
    let clock: FeedClock

    /// Writes the next targets (`targets` as given), snapshot and timestamp, each version one
    /// above `state`'s, signed by `keys`.
    func publish(targets: [TargetFile], over state: FeedState, signedBy keys: [Ed25519SigningKey]) throws {
        try publish(
            targets: targets, targetsVersion: state.targets.header.version + 1,
            snapshotVersion: state.snapshot.header.version + 1, timestampVersion: state.timestamp.header.version + 1,
            signedBy: keys)
    }

    /// Writes targets, snapshot and timestamp at the versions given.
    func publish(
        targets: [TargetFile], targetsVersion: Int64, snapshotVersion: Int64, timestampVersion: Int64,
        signedBy keys: [Ed25519SigningKey]
    ) throws {
        let targetsData = try sign(
            Targets.signed(
                version: targetsVersion, expires: clock.expiry(clock.targetsLifetime),
                targets: targets.sorted { $0.path < $1.path }), keys)
        try write(targetsData, as: "\(targetsVersion).targets.json")
        try writeSnapshot(
            version: snapshotVersion, meta: ["targets.json": meta(of: targetsData, version: targetsVersion)],
            timestampVersion: timestampVersion, signedBy: keys)
    }

    /// Writes `N.snapshot.json` listing `meta`, then the timestamp naming it.
    func writeSnapshot(
        version: Int64, meta files: [String: MetaFile], timestampVersion: Int64, signedBy keys: [Ed25519SigningKey]
    ) throws {
        let snapshotData = try sign(
            Snapshot.signed(version: version, expires: clock.expiry(clock.snapshotLifetime), meta: files), keys)
        try write(snapshotData, as: "\(version).snapshot.json")
        try writeTimestamp(
            version: timestampVersion, snapshot: meta(of: snapshotData, version: version), signedBy: keys)
    }

    /// Writes `timestamp.json`.
    func writeTimestamp(version: Int64, snapshot: MetaFile, signedBy keys: [Ed25519SigningKey]) throws {
        let data = try sign(
            Timestamp.signed(version: version, expires: clock.expiry(clock.timestampLifetime), snapshot: snapshot),
            keys)
        try write(data, as: "timestamp.json")
    }

    /// Writes root version `version` naming `key` for all four roles and each of `recovery` for
    /// the root role only (threshold 1; one that is `key` is named as the main key alone), with
    /// the data epoch `dataEpoch` (FeedClient's `DataEpoch`; written only above 0; every root after the
    /// first carries its predecessor's unless a rotation raises it), signed by `keys`:
    /// `N.root.json`, then `root.json`.
    func writeRoot(
        version: Int64, naming key: Ed25519SigningKey, recovery: [PublicKey] = [], dataEpoch: Int64,
        signedBy keys: [Ed25519SigningKey]
    ) throws {
        let keyID = key.keyID
        var publicKeys = [keyID: key.publicKey]
        var rootKeyIDs = [keyID]
        for recoveryKey in recovery {
            let recoveryID = try FeedPublisherError.about("--recovery-key") { try recoveryKey.keyID }
            guard publicKeys.updateValue(recoveryKey, forKey: recoveryID) == nil else { continue }
            rootKeyIDs.append(recoveryID)
        }
        var roles = TopLevelRoles(all: RoleKeys(keyIDs: [keyID], threshold: 1))
        roles.root = RoleKeys(keyIDs: rootKeyIDs, threshold: 1)
        try writeRoot(version: version, keys: publicKeys, roles: roles, dataEpoch: dataEpoch, signedBy: keys)
    }

    /// Writes root version `version` with these keys and roles and the data epoch `dataEpoch`
    /// (FeedClient's `DataEpoch`, written only above 0; no default, so that no root is written
    /// without its predecessor's epoch: a device refuses a root that lowers it), signed by
    /// `signers`: `N.root.json`, then `root.json`.
    func writeRoot(
        version: Int64, keys: [String: PublicKey], roles: TopLevelRoles, dataEpoch: Int64,
        signedBy signers: [Ed25519SigningKey]
    ) throws {
        var signed = Root.signed(
            version: version, expires: clock.expiry(clock.rootLifetime), keys: keys, roles: roles)
        if dataEpoch > 0 { signed[DataEpoch.rootMember] = .integer(dataEpoch) }
        let data = try sign(signed, signers)
        try write(data, as: "\(version).root.json")
        try write(data, as: "root.json")
    }

    /// A document's entry in the document that names it: version, length and SHA-256.
    func meta(of data: Data, version: Int64) -> MetaFile {
        MetaFile(version: version, length: Int64(data.count), hashes: [FileHash.sha256(data)])
    }

    private func sign(_ signed: JSONObject, _ keys: [Ed25519SigningKey]) throws -> Data {
        try FeedPublisherError.about("metadata") { try Metadata.sign(signed, with: keys) }
    }

    private func write(_ data: Data, as name: String) throws {
        let path = layout.path(name)
        try FeedPublisherError.about(path) { try AtomicFile.replace(path, with: data, tag: "tmp") }
    }
}
