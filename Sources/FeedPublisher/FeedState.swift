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

/// The feed's live metadata as its files say: the newest root (`root.json`), `timestamp.json`,
/// and the snapshot and targets versions they name. Read before a command writes, so that each
/// new document's version is the previous one plus 1.
struct FeedState {
    let layout: FeedLayout
    let root: Root
    let timestamp: Timestamp
    let snapshot: Snapshot
    let targets: Targets
    /// The documents whose `expires` no TUF client reads (a year past 9999, written by a
    /// duration of more than ten years before durations were bounded), by name, with the text:
    /// each is read as if it had expired in 1970, so that the next renewal signs it again.
    let unreadableExpiries: [String: String]
    /// The path of the live targets document (`FEED/N.targets.json`), for errors.
    let targetsPath: String

    /// Reads the live metadata of the feed at `layout`.
    ///
    /// - Throws: ``FeedPublisherError`` naming the document that is missing or malformed.
    static func load(_ layout: FeedLayout) throws -> FeedState {
        try layout.requireFeed()
        var unreadable: [String: String] = [:]
        let root = try Root(document("root.json", in: layout, unreadable: &unreadable))
        let timestamp = try Timestamp(document("timestamp.json", in: layout, unreadable: &unreadable))
        let snapshotName = "\(timestamp.snapshotMeta.version).snapshot.json"
        let snapshot = try Snapshot(document(snapshotName, in: layout, unreadable: &unreadable))
        guard let targetsMeta = snapshot.meta["targets.json"] else {
            throw FeedPublisherError(layout.path(snapshotName), "it does not list targets.json")
        }
        let targetsName = "\(targetsMeta.version).targets.json"
        let targets = try Targets(document(targetsName, in: layout, unreadable: &unreadable))
        return FeedState(
            layout: layout, root: root, timestamp: timestamp, snapshot: snapshot, targets: targets,
            unreadableExpiries: unreadable, targetsPath: layout.path(targetsName))
    }

    private static func document(_ name: String, in layout: FeedLayout, unreadable: inout [String: String]) throws
        -> Metadata
    {
        let path = layout.path(name)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FeedPublisherError(path, "missing: the feed is incomplete (not written by `dbgen feed init`?)")
        }
        do {
            return try Metadata(data: data, document: name)
        } catch {
            guard let (metadata, expires) = expiredCopy(of: data, document: name) else {
                throw FeedPublisherError(path, "\(error)")
            }
            unreadable[name] = expires
            return metadata
        }
    }

    /// A document whose `expires` is a string no parser reads, read with `expires` set to
    /// 1970-01-01T00:00:00Z (its signatures are not checked here: the feed is the publisher's
    /// own), and that string; nil for a document with any other fault.
    private static func expiredCopy(of data: Data, document name: String) -> (Metadata, String)? {
        guard case .object(var envelope)? = try? JSONParser().parse(data),
            var signed = envelope["signed"]?.objectValue, let expires = signed["expires"]?.stringValue,
            Expiry.parse(expires) == nil
        else { return nil }
        signed["expires"] = .string(Expiry.format(Date(timeIntervalSince1970: 0)))
        envelope["signed"] = .object(signed)
        guard let bytes = try? CanonicalJSON.encode(.object(envelope)),
            let metadata = try? Metadata(data: bytes, document: name)
        else { return nil }
        return (metadata, expires)
    }

    /// Root's data epoch (FeedClient's `DataEpoch`): what every release is published under.
    ///
    /// - Throws: ``FeedPublisherError`` naming `root.json` when its member is malformed.
    func dataEpoch() throws -> Int64 {
        do {
            return try DataEpoch.of(root, document: layout.path("root.json"))
        } catch let error as TUFError {
            throw FeedPublisherError(error)
        }
    }

    /// The Shipyard targets in effect and where their blobs lie (``ReleaseCatalog``).
    func catalog() throws -> ReleaseCatalog { try ReleaseCatalog(targets, document: targetsPath) }

    /// The targets in effect, by path order.
    var targetFiles: [TargetFile] { targets.targets.values.sorted { $0.path < $1.path } }

    /// The ids of the main key: the keys root names for targets, snapshot or timestamp.
    var mainKeyIDs: Set<String> {
        Set(root.roles.targets.keyIDs + root.roles.snapshot.keyIDs + root.roles.timestamp.keyIDs)
    }

    /// The ids of the recovery keys: those root names for the root role and for nothing else.
    var recoveryKeyIDs: Set<String> { Set(root.roles.root.keyIDs).subtracting(mainKeyIDs) }

    /// The recovery keys, in root's order.
    var recoveryKeys: [PublicKey] {
        let ids = recoveryKeyIDs
        return root.roles.root.keyIDs.filter { ids.contains($0) }.compactMap { root.keys[$0] }
    }

    /// Whether `key` is one of ``recoveryKeys``.
    func isRecoveryKey(_ key: Ed25519SigningKey) -> Bool { recoveryKeyIDs.contains(key.keyID) }

    /// The public keys root names for `role`, as `dbgen keys generate` prints them.
    func publicKeys(of role: String) -> String {
        (root.roles[role]?.keyIDs ?? []).map { root.keys[$0]?.publicValue ?? "id \($0)" }.joined(separator: ", ")
    }

    /// Checks that root names `key` for each of `roles` with threshold 1 (one signature suffices).
    /// `action` says what the command does, for the error about a recovery key ("publish").
    ///
    /// - Throws: ``FeedPublisherError`` naming the key's source and its public key.
    func requireSigner(_ key: Ed25519SigningKey, source: String, roles: [String], action: String? = nil) throws {
        let keyID = key.keyID
        for role in roles {
            guard let roleKeys = root.roles[role], roleKeys.keyIDs.contains(keyID) else {
                if isRecoveryKey(key) {
                    throw FeedPublisherError(
                        source,
                        "key \(key.publicHex) is this feed's recovery key: it signs only root (`dbgen feed rotate`, "
                            + "when the main key is lost or leaked); \(action ?? "sign \(role)") with the main key "
                            + "(\(publicKeys(of: Targets.type)))")
                }
                throw FeedPublisherError(
                    source,
                    "key \(key.publicHex) is not a \(role) key of root.json (version \(root.header.version)), "
                        + "which names \(publicKeys(of: role)): clients would refuse what it signs")
            }
            guard roleKeys.threshold <= 1 else {
                throw FeedPublisherError(
                    source, "root.json asks for \(roleKeys.threshold) signatures on \(role); one key gives one")
            }
        }
    }
}
