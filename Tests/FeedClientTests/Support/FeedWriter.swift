import DBGenKit
import FeedClient
import FileSystemKit
import Foundation
import LayeredDatabase
import ShipyardTestSupport
import TUF

/// A feed written the way FEED-SPEC.md lays it out, by the tests' own small publisher (the
/// real one, `dbgen publish`, is built elsewhere): TUF metadata signed with one Ed25519 key in
/// all four roles (or the keys a test sets), consistent snapshots, whole databases and
/// `dbgen diff` patches deflated by `ZlibStream` under hash-prefixed names. Each step is its own
/// method so an attack test can sign what a publisher never would.
final class FeedWriter {
    /// FEED.
    let directory: URL
    /// Copies of every published release, by content hash (the bases of later patches).
    private let releasesKept: URL
    var rootKeys = [Ed25519SigningKey()]
    var timestampKey = Ed25519SigningKey()
    var snapshotKey = Ed25519SigningKey()
    var targetsKey = Ed25519SigningKey()
    var rootThreshold = 1
    /// The data epoch the next root names (``DataEpoch``; 0: none).
    var dataEpoch: Int64 = 0
    var versions: [String: Int64] = ["root": 0, "timestamp": 0, "snapshot": 0, "targets": 0]
    /// Expiry per role (default: a day from now; the timestamp too).
    var expires: [String: Date] = [:]
    /// The targets listed in the next targets.json.
    var targets: [TargetFile] = []
    /// Every release published, oldest first.
    private(set) var releases: [DatabaseVersion] = []
    /// Every timestamp.json written, oldest first (to serve an old one again).
    private(set) var timestamps: [Data] = []
    /// The first root: what the app bundles.
    private(set) var bundledRoot = Data()

    init(in directory: URL) throws {
        self.directory = directory
        releasesKept = directory.deletingLastPathComponent().appendingPathComponent(
            directory.lastPathComponent + "-releases")
        for folder in [directory, releasesKept, directory.appendingPathComponent("targets")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        bundledRoot = try writeRoot()
    }

    func expiry(_ role: String) -> Date { expires[role] ?? Date().addingTimeInterval(86_400) }

    /// Writes the next root (`N.root.json` and `root.json`), signed by `signers` (the root keys).
    @discardableResult
    func writeRoot(signedBy signers: [Ed25519SigningKey]? = nil) throws -> Data {
        versions["root"]! += 1
        var keys: [String: PublicKey] = [:]
        for key in rootKeys + [timestampKey, snapshotKey, targetsKey] { keys[try key.publicKey.keyID] = key.publicKey }
        func role(_ keys: [Ed25519SigningKey], _ threshold: Int = 1) throws -> RoleKeys {
            RoleKeys(keyIDs: try keys.map { try $0.publicKey.keyID }, threshold: threshold)
        }
        var signed = Root.signed(
            version: versions["root"]!, expires: expiry("root"), keys: keys,
            roles: [
                "root": try role(rootKeys, rootThreshold), "timestamp": try role([timestampKey]),
                "snapshot": try role([snapshotKey]), "targets": try role([targetsKey]),
            ])
        if dataEpoch != 0 { signed[DataEpoch.rootMember] = .integer(dataEpoch) }
        let data = try Metadata.sign(signed, with: signers ?? rootKeys)
        try write(data, "\(versions["root"]!).root.json")
        try write(data, "root.json")
        return data
    }

    // MARK: Releases

    /// How a release is published.
    struct Options {
        var channel: String?
        var rollout: Double = 1
        var critical = false
        var dataFormat: ReleaseFacts.DataFormatRange?
        /// Patches from each of the last K releases.
        var patchesFrom = 3
        /// Keeps a patch even when it is not smaller than the whole file.
        var keepLargerPatches = false
        /// The data epoch the targets claim.
        var dataEpoch: Int64 = 0
    }

    /// Publishes the database at `database`: its whole file and patches from the last releases,
    /// then new targets, snapshot and timestamp. Returns the release.
    @discardableResult
    func publish(_ database: URL, _ options: Options = Options()) throws -> DatabaseVersion {
        let release = DatabaseVersion(
            userVersion: try Self.userVersion(database), sha256: try ContentHash.sha256(ofFileAt: database.path))
        let kept = releasesKept.appendingPathComponent(release.sha256 + ".sqlite")
        try? FileManager.default.removeItem(at: kept)
        try FileManager.default.copyItem(at: database, to: kept)
        let whole = try deflate(database)
        let wholeFacts = facts(.database, of: database, base: nil, result: release, options)
        try addTarget("releases/\(release.sha256).sqlite.zlib", blob: whole, facts: wholeFacts)
        for base in releases.filter({ $0.userVersion < release.userVersion }).suffix(options.patchesFrom) {
            let patch = directory.deletingLastPathComponent().appendingPathComponent("patch-\(UUID().uuidString).sql")
            defer { try? FileManager.default.removeItem(at: patch) }
            try Self.diff(from: releasesKept.appendingPathComponent(base.sha256 + ".sqlite"), to: database, into: patch)
            let blob = try deflate(patch)
            guard options.keepLargerPatches || blob.count < whole.count else { continue }
            try addTarget(
                "patches/\(base.sha256)-\(release.sha256).sql.zlib", blob: blob,
                facts: facts(.patch, of: patch, base: base, result: release, options))
        }
        releases.append(release)
        try writeMetadata()
        return release
    }

    /// The facts of a target whose inflated bytes are the file at `file`.
    func facts(
        _ kind: ReleaseFacts.Kind, of file: URL, base: DatabaseVersion?, result: DatabaseVersion,
        _ options: Options
    ) -> ReleaseFacts {
        let length = ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int) ?? 0
        return ReleaseFacts(
            kind: kind, uncompressedLength: Int64(length),
            uncompressedSHA256: (try? ContentHash.sha256(ofFileAt: file.path)) ?? "",
            base: base, result: result, dataFormat: options.dataFormat, channel: options.channel,
            rollout: options.rollout, critical: options.critical, dataEpoch: options.dataEpoch)
    }

    /// Puts `blob` under its consistent-snapshot name and lists it (replacing a target of the
    /// same path) in the next targets.json.
    @discardableResult
    func addTarget(_ path: String, blob: Data, facts: ReleaseFacts?) throws -> TargetFile {
        try addTarget(path, blob: blob, custom: facts?.custom)
    }

    /// As ``addTarget(_:blob:facts:)``, with a `custom` object of any content.
    @discardableResult
    func addTarget(_ path: String, blob: Data, custom: JSONValue?) throws -> TargetFile {
        let target = TargetFile(path: path, data: blob, custom: custom)
        targets.removeAll { $0.path == path }
        targets.append(target)
        try blob.write(to: blobURL(of: target))
        return target
    }

    /// Where a target's blob is served from (`targets/DIR/SHA256.NAME`).
    func blobURL(of target: TargetFile) -> URL {
        let name = (target.path as NSString).lastPathComponent
        let folder = directory.appendingPathComponent("targets")
            .appendingPathComponent((target.path as NSString).deletingLastPathComponent)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("\(target.hashes[0].hex).\(name)")
    }

    /// The target listed under `path`.
    func target(_ path: String) -> TargetFile? { targets.first { $0.path == path } }

    /// The whole-database target of a release, and a patch between two.
    func wholeTarget(_ release: DatabaseVersion) -> TargetFile? { target("releases/\(release.sha256).sqlite.zlib") }
    func patchTarget(_ base: DatabaseVersion, _ result: DatabaseVersion) -> TargetFile? {
        target("patches/\(base.sha256)-\(result.sha256).sql.zlib")
    }

    // MARK: Metadata

    /// Writes the next targets, snapshot and timestamp.
    func writeMetadata() throws {
        try writeTargets()
        try writeSnapshot()
        try writeTimestamp()
    }

    @discardableResult
    func writeTargets(signedBy signers: [Ed25519SigningKey]? = nil) throws -> Data {
        versions["targets"]! += 1
        let data = try Metadata.sign(
            Targets.signed(version: versions["targets"]!, expires: expiry("targets"), targets: targets),
            with: signers ?? [targetsKey])
        try write(data, "\(versions["targets"]!).targets.json")
        return data
    }

    @discardableResult
    func writeSnapshot(version: Int64? = nil, signedBy signers: [Ed25519SigningKey]? = nil) throws -> Data {
        versions["snapshot"]! += 1
        let version = version ?? versions["snapshot"]!
        let targetsBytes = try read("\(versions["targets"]!).targets.json")
        let meta = MetaFile(
            version: versions["targets"]!, length: Int64(targetsBytes.count), hashes: [FileHash.sha256(targetsBytes)])
        let data = try Metadata.sign(
            Snapshot.signed(version: version, expires: expiry("snapshot"), meta: ["targets.json": meta]),
            with: signers ?? [snapshotKey])
        try write(data, "\(version).snapshot.json")
        return data
    }

    /// Writes the next timestamp naming the latest snapshot (or `signed` as given).
    @discardableResult
    func writeTimestamp(
        version: Int64? = nil, signed: JSONObject? = nil, signedBy signers: [Ed25519SigningKey]? = nil
    ) throws -> Data {
        versions["timestamp"]! += 1
        let snapshotVersion = versions["snapshot"]!
        let snapshotBytes = try read("\(snapshotVersion).snapshot.json")
        let meta = MetaFile(
            version: snapshotVersion, length: Int64(snapshotBytes.count), hashes: [FileHash.sha256(snapshotBytes)])
        let content =
            signed
            ?? Timestamp.signed(
                version: version ?? versions["timestamp"]!, expires: expiry("timestamp"), snapshot: meta)
        let data = try Metadata.sign(content, with: signers ?? [timestampKey])
        try write(data, "timestamp.json")
        timestamps.append(data)
        // nginx's ETag is the file's modification time (seconds) and length: two timestamps of
        // one length written in one second would share it. A publisher's runs are seconds apart.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(timestamps.count))],
            ofItemAtPath: directory.appendingPathComponent("timestamp.json").path)
        return data
    }

    func write(_ data: Data, _ name: String) throws { try data.write(to: directory.appendingPathComponent(name)) }
    func read(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }

    // MARK: Files

    /// The deflated bytes of `file` (ZlibStream, as `dbgen publish` deflates).
    func deflate(_ file: URL) throws -> Data {
        let output = directory.deletingLastPathComponent().appendingPathComponent("deflate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        try ZlibStream.deflate(fileAt: file.path, to: output.path)
        return try Data(contentsOf: output)
    }

    /// `dbgen diff OLD NEW > patch` (DBGenKit's code: the header included).
    static func diff(from old: URL, to new: URL, into patch: URL) throws {
        _ = FileManager.default.createFile(atPath: patch.path, contents: nil)
        let handle = try FileHandle(forWritingTo: patch)
        defer { try? handle.close() }
        try DatabaseDiff(oldPath: old.path, newPath: new.path).writePatch { bytes in
            handle.write(Data(bytes))
        }
    }

    static func userVersion(_ database: URL) throws -> Int64 {
        let text = try Oracle.sqlite3Script(database.path, "PRAGMA user_version;")
        return Int64(text.trimmingCharacters(in: .whitespacesAndNewlines))!
    }
}
