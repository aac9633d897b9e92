import Foundation
import ShipyardTestSupport
import TUF

/// A TUF repository the tests sign with the Swift side: ed25519 keys, consistent snapshots, metadata under
/// `metadata/` (`N.root.json`, `timestamp.json`, `N.snapshot.json`, `N.targets.json`) and targets under
/// `targets/HASH.NAME`. Each `publish...` writes the role's next version; tests then tamper with what is
/// served.
final class RepositoryFixture {
    let directory: TemporaryDirectory
    var rootKeys = [Ed25519SigningKey()]
    var rootThreshold = 1
    var timestampKeys = [Ed25519SigningKey()]
    var timestampThreshold = 1
    let snapshotKey = Ed25519SigningKey()
    let targetsKey = Ed25519SigningKey()
    var versions = ["root": Int64(0), "timestamp": 0, "snapshot": 0, "targets": 0]
    var expires: [String: Date] = [:]
    var targets: [TargetFile] = []
    /// Whether timestamp lists snapshot's length and hashes.
    var hashesInTimestamp = true
    /// Whether the next root says consistent snapshots (the documents this fixture writes are
    /// versioned and its targets hash-prefixed whatever root says).
    var consistentSnapshot = true
    private(set) var rootDocuments: [Data] = []

    init(_ test: AnyObject? = nil) throws {
        directory = try TemporaryDirectory("tuf-repository")
        try FileManager.default.createDirectory(at: metadataURL, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: targetsURL, withIntermediateDirectories: true)
        try publishRoot()
        try addTarget("file.txt", Data("the target's content\n".utf8))
        try publishTargets()
        try publishSnapshot()
        try publishTimestamp()
    }

    var metadataURL: URL { directory.url("metadata") }
    var targetsURL: URL { directory.url("targets") }
    var initialRoot: Data { rootDocuments[0] }

    func expiry(_ role: String) -> Date { expires[role] ?? Date().addingTimeInterval(86_400) }

    func keyMap() throws -> [String: PublicKey] {
        var keys: [String: PublicKey] = [:]
        for key in rootKeys + timestampKeys + [snapshotKey, targetsKey] {
            keys[try key.publicKey.keyID] = key.publicKey
        }
        return keys
    }

    func rootSigned(version: Int64) throws -> JSONObject {
        func ids(_ keys: [Ed25519SigningKey]) throws -> [String] { try keys.map { try $0.publicKey.keyID } }
        return Root.signed(
            version: version, expires: expiry("root"), keys: try keyMap(),
            roles: TopLevelRoles(
                root: RoleKeys(keyIDs: try ids(rootKeys), threshold: rootThreshold),
                timestamp: RoleKeys(keyIDs: try ids(timestampKeys), threshold: timestampThreshold),
                snapshot: RoleKeys(keyIDs: try ids([snapshotKey]), threshold: 1),
                targets: RoleKeys(keyIDs: try ids([targetsKey]), threshold: 1)),
            consistentSnapshot: consistentSnapshot
        )
    }

    /// Writes the next root, signed by `signers` (the current root keys by default).
    @discardableResult
    func publishRoot(signedBy signers: [Ed25519SigningKey]? = nil) throws -> Data {
        versions["root", default: 0] += 1
        let version = versions["root", default: 0]
        let data = try Metadata.sign(try rootSigned(version: version), with: signers ?? rootKeys)
        try write(data, "\(version).root.json")
        rootDocuments.append(data)
        return data
    }

    func addTarget(_ path: String, _ data: Data) throws {
        let target = TargetFile(path: path, data: data)
        targets.append(target)
        let directory = targetsURL.appendingPathComponent(path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let name = URL(fileURLWithPath: path).lastPathComponent
        try data.write(to: directory.appendingPathComponent("\(target.hashes[0].hex).\(name)"))
    }

    @discardableResult
    func publishTargets(signedBy signers: [Ed25519SigningKey]? = nil) throws -> Data {
        versions["targets", default: 0] += 1
        let data = try Metadata.sign(
            Targets.signed(version: versions["targets", default: 0], expires: expiry("targets"), targets: targets),
            with: signers ?? [targetsKey]
        )
        try write(data, "\(versions["targets", default: 0]).targets.json")
        return data
    }

    @discardableResult
    func publishSnapshot(targetsVersion: Int64? = nil, signedBy signers: [Ed25519SigningKey]? = nil) throws -> Data {
        versions["snapshot", default: 0] += 1
        let signed = Snapshot.signed(
            version: versions["snapshot", default: 0], expires: expiry("snapshot"),
            meta: ["targets.json": MetaFile(version: targetsVersion ?? versions["targets", default: 0])]
        )
        let data = try Metadata.sign(signed, with: signers ?? [snapshotKey])
        try write(data, "\(versions["snapshot", default: 0]).snapshot.json")
        return data
    }

    /// Writes the next timestamp (naming the current snapshot unless told otherwise).
    @discardableResult
    func publishTimestamp(
        snapshotVersion: Int64? = nil, signed: JSONObject? = nil, signedBy signers: [Ed25519SigningKey]? = nil
    ) throws -> Data {
        versions["timestamp", default: 0] += 1
        let snapshotVersion = snapshotVersion ?? versions["snapshot", default: 0]
        var meta = MetaFile(version: snapshotVersion)
        let snapshotFile = metadataURL.appendingPathComponent("\(snapshotVersion).snapshot.json")
        if hashesInTimestamp, let bytes = try? Data(contentsOf: snapshotFile) {
            meta = MetaFile(version: snapshotVersion, length: Int64(bytes.count), hashes: [FileHash.sha256(bytes)])
        }
        let content =
            signed
            ?? Timestamp.signed(
                version: versions["timestamp", default: 0], expires: expiry("timestamp"), snapshot: meta)
        let data = try Metadata.sign(content, with: signers ?? timestampKeys)
        try write(data, "timestamp.json")
        return data
    }

    func write(_ data: Data, _ name: String) throws {
        try data.write(to: metadataURL.appendingPathComponent(name))
    }

    func read(_ name: String) throws -> Data { try Data(contentsOf: metadataURL.appendingPathComponent(name)) }
}
