import FeedClient
import Foundation
import TUF

/// The feed's live metadata as its files say: the newest root (`root.json`), `timestamp.json`,
/// and the snapshot and targets versions they name. Read before a command writes, so that each
/// new document's version is the previous one plus 1.
struct FeedState {
    let layout: FeedLayout
    let root: Root
    let timestamp: Timestamp
    let snapshot: Snapshot
    let targets: Targets
    /// The path of the live targets document (`FEED/N.targets.json`), for errors.
    let targetsPath: String

    /// Reads the live metadata of the feed at `layout`.
    ///
    /// - Throws: ``FeedPublisherError`` naming the document that is missing or malformed.
    static func load(_ layout: FeedLayout) throws -> FeedState {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: layout.directory, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw FeedPublisherError(layout.directory, "no such feed directory (create one with `dbgen feed init`)")
        }
        let root = try Root(document("root.json", in: layout))
        let timestamp = try Timestamp(document("timestamp.json", in: layout))
        let snapshotName = "\(timestamp.snapshotMeta.version).snapshot.json"
        let snapshot = try Snapshot(document(snapshotName, in: layout))
        guard let targetsMeta = snapshot.meta["targets.json"] else {
            throw FeedPublisherError(layout.path(snapshotName), "it does not list targets.json")
        }
        let targetsName = "\(targetsMeta.version).targets.json"
        let targets = try Targets(document(targetsName, in: layout))
        return FeedState(
            layout: layout, root: root, timestamp: timestamp, snapshot: snapshot, targets: targets,
            targetsPath: layout.path(targetsName))
    }

    private static func document(_ name: String, in layout: FeedLayout) throws -> Metadata {
        let path = layout.path(name)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FeedPublisherError(path, "missing: the feed is incomplete (not written by `dbgen feed init`?)")
        }
        do {
            return try Metadata(data: data, document: name)
        } catch {
            throw FeedPublisherError(path, "\(error)")
        }
    }

    /// Root's data epoch (FeedClient's `DataEpoch`): what every release is published under.
    ///
    /// - Throws: ``FeedPublisherError`` naming `root.json` when its member is malformed.
    func dataEpoch() throws -> Int64 {
        do {
            return try DataEpoch.of(root, document: layout.path("root.json"))
        } catch let error as TUFError {
            throw FeedVerifier.error(error)
        }
    }

    /// The Shipyard targets in effect and where their blobs lie (``ReleaseCatalog``).
    func catalog() throws -> ReleaseCatalog { try ReleaseCatalog(targets, document: targetsPath) }

    /// The targets in effect, by path order.
    var targetFiles: [TargetFile] { targets.targets.values.sorted { $0.path < $1.path } }

    /// The ids of the main key: the keys root names for targets, snapshot or timestamp.
    var mainKeyIDs: Set<String> {
        Set([Targets.type, Snapshot.type, Timestamp.type].flatMap { root.roles[$0]?.keyIDs ?? [] })
    }

    /// The ids of the recovery keys: those root names for the root role and for nothing else.
    var recoveryKeyIDs: Set<String> { Set(root.roles[Root.type]?.keyIDs ?? []).subtracting(mainKeyIDs) }

    /// The recovery keys, in root's order.
    var recoveryKeys: [PublicKey] {
        let ids = recoveryKeyIDs
        return (root.roles[Root.type]?.keyIDs ?? []).filter { ids.contains($0) }.compactMap { root.keys[$0] }
    }

    /// Whether `key` is one of ``recoveryKeys``.
    func isRecoveryKey(_ key: Ed25519SigningKey) -> Bool { recoveryKeyIDs.contains(key.keyID) }

    /// Checks that root names `key` for each of `roles` with threshold 1 (one signature suffices).
    ///
    /// - Throws: ``FeedPublisherError`` naming the key's source and its key id.
    func requireSigner(_ key: Ed25519SigningKey, source: String, roles: [String]) throws {
        let keyID = key.keyID
        for role in roles {
            guard let roleKeys = root.roles[role], roleKeys.keyIDs.contains(keyID) else {
                throw FeedPublisherError(
                    source,
                    "key \(keyID) is not a \(role) key of root.json (version \(root.header.version)): "
                        + "clients would refuse what it signs")
            }
            guard roleKeys.threshold <= 1 else {
                throw FeedPublisherError(
                    source, "root.json asks for \(roleKeys.threshold) signatures on \(role); one key gives one")
            }
        }
    }
}
