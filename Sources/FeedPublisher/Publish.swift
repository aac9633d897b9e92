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
import LayeredDatabase
import TUF
import EssentialsSupport

extension Feed {
    /// Adds the database at `database` to the feed as a new release: the whole file encoded
    /// (compressed) under its content-addressed name, patches from the newest `options.patchesFrom` releases
    /// (each kept only when smaller than the whole file, each proven by ``PatchMaker``), then
    /// the next targets, snapshot and timestamp signed by `key` (and the next root, naming the
    /// same keys, when root expires soon: ``FeedClock/renewalMargin``). Every base-only release
    /// older than it (``ReleaseFacts/baseOnly``) gets a patch too, however old: devices bundle it.
    /// With `options.baseOnly`, the database is added as such a base instead
    /// (``addBase(_:key:keySource:options:)``).
    ///
    /// Every target is published under the feed's data epoch (FeedClient's `DataEpoch`, root's). A release
    /// already in the feed under this epoch (same file SHA-256) with the same facts is a no-op
    /// (``PublishSummary/wasAlreadyPublished``), so a publish re-run after a success changes
    /// nothing; with other facts it is an error. Its `user_version` must be greater than that of
    /// every release of this epoch: after `rotate --reset-data`, a release below what a leaked key
    /// published is accepted, and one of an earlier epoch may be published again (its targets
    /// are replaced). Patches are made from the newest releases below it, of any epoch (a device
    /// that drops the data of an earlier epoch patches from its bundled database). The earlier
    /// releases' databases are decoded from their whole-database targets.
    ///
    /// - Throws: ``FeedPublisherError`` naming the file, key, target or document; the feed's
    ///   metadata is then as it was.
    @discardableResult
    public func publish(
        _ database: String, key: Ed25519SigningKey, keySource: String, options: PublishOptions = PublishOptions()
    ) throws -> PublishSummary {
        try options.validate()
        if !layout.isFeed, FeedLayout(directory: database).isFeed {
            throw FeedPublisherError(
                layout.directory,
                "no feed at \(layout.directory), but \(database) is one: the arguments are swapped "
                    + "(dbgen publish FEED NEW.sqlite)")
        }
        if options.baseOnly { return try addBase(database, key: key, keySource: keySource, options: options) }
        return try withLock {
            let state = try FeedState.load(layout)
            try state.requireSigner(
                key, source: keySource, roles: [Targets.type, Snapshot.type, Timestamp.type], action: "publish")
            let catalog = try state.catalog()
            let epoch = try state.dataEpoch()
            let work = try makeWorkDirectory()
            let compression = options.compression
            let release = DatabaseVersion(
                userVersion: try Self.userVersion(of: database),
                sha256: try FeedPublisherError.about(database) { try DatabaseFile.sha256(of: database) })
            var wholeFacts = options.facts(
                kind: .database, encoding: TargetEncoding(compression: compression),
                uncompressedLength: try Self.length(of: database), uncompressedSHA256: release.sha256, base: nil,
                result: release)
            wholeFacts.dataEpoch = epoch
            var summary = PublishSummary(
                release: release, wasAlreadyPublished: false, databaseLength: 0, patches: [],
                targetsVersion: state.targets.header.version)
            if let existing = catalog.release(release.sha256, epoch: epoch) {
                // The same release compressed otherwise is still the same release.
                var asPublished = wholeFacts
                asPublished.compression = existing.facts.compression
                guard existing.facts == asPublished else {
                    throw FeedPublisherError(
                        database,
                        "release \(release.sha256) is already in the feed with other facts "
                            + "(channel, rollout, critical, data format or base-only); publish a new user_version")
                }
                summary.wasAlreadyPublished = true
                summary.databaseLength = existing.target.length
                return summary
            }
            if let newest = catalog.releases.first(where: { $0.facts.dataEpoch == epoch }),
                release.userVersion <= newest.facts.result.userVersion
            {
                throw FeedPublisherError(
                    database,
                    "user_version \(release.userVersion) is not greater than that of the newest release "
                        + "(\(newest.facts.result.userVersion)): devices install only newer data; raise "
                        + "`PRAGMA user_version` in the schema script (to \(newest.facts.result.userVersion + 1) or more) "
                        + "and build again")
            }
            // The whole file and every patch are made side by side, each in its own directory;
            // then the patches smaller than the whole file are proven side by side.
            let bases =
                Array(
                    catalog.releases.filter {
                        $0.facts.result.userVersion < release.userVersion && $0.facts.result.sha256 != release.sha256
                    }.prefix(options.patchesFrom))
                + catalog.bases.filter { $0.facts.result.userVersion < release.userVersion }
            let made = try ConcurrentWork.map(bases.count + 1) { index -> (PatchMaker?, TargetBlob.Encoded) in
                guard index < bases.count else {
                    let whole = try TargetBlob.encode(
                        database, to: work + "/release.sqlite." + compression.fileExtension,
                        encoding: TargetEncoding(compression: compression))
                    return (nil, whole)
                }
                let directory = work + "/patch-\(index)"
                let basePath = try restore(bases[index], into: directory)
                let maker = PatchMaker(
                    basePath: basePath, releasePath: database, work: directory,
                    encoding: TargetEncoding(compression: compression, packing: options.packing))
                return (maker, try maker.make())
            }
            let whole = made[bases.count].1
            guard whole.uncompressedSHA256 == release.sha256, whole.uncompressedLength == wholeFacts.uncompressedLength
            else {
                throw FeedPublisherError(database, "the file changed while it was being published; publish it again")
            }
            summary.databaseLength = whole.length
            var kept: [(maker: PatchMaker, patch: TargetBlob.Encoded, path: String, base: DatabaseVersion)] = []
            for (index, base) in bases.enumerated() {
                // Every index below the results' count made a patch maker (as in BaseRelease).
                // swift-format-ignore: NeverForceUnwrap
                let (maker, patch) = (made[index].0!, made[index].1)
                summary.patches.append(
                    .init(
                        base: base.facts.result, result: release, length: patch.length,
                        kept: patch.length < whole.length))
                guard patch.length < whole.length else { continue }
                let path = FeedLayout.patchPath(
                    base: base.facts.result.sha256, result: release.sha256, encoding: patch.encoding)
                kept.append((maker, patch, path, base.facts.result))
            }
            _ = try ConcurrentWork.map(kept.count) { try kept[$0].maker.prove(kept[$0].patch, target: kept[$0].path) }
            var added: [TargetFile] = []
            var blobs: [(TargetBlob.Encoded, String)] = []
            for patch in kept {
                var facts = options.facts(kind: .patch, blob: patch.patch, base: patch.base, result: release)
                facts.dataEpoch = epoch
                added.append(try Self.target(patch.path, patch.patch, facts))
                blobs.append((patch.patch, patch.path))
            }
            let wholePath = FeedLayout.releasePath(result: release.sha256, compression: compression)
            added.append(try Self.target(wholePath, whole, wholeFacts))
            blobs.append((whole, wholePath))
            // A release of an earlier epoch published again: its targets of the same paths are replaced.
            let addedPaths = Set(added.map(\.path))
            let targets = state.targetFiles.filter { !addedPaths.contains($0.path) } + added
            for (blob, path) in blobs { try place(blob, as: path) }
            summary.renewedRootVersion = try renewRootIfDue(state, key: key, keySource: keySource)
            try writer.publish(targets: targets, over: state, signedBy: [key])
            summary.targetsVersion = state.targets.header.version + 1
            return summary
        }
    }

    /// The length of a file.
    static func length(of file: String) throws -> Int64 {
        try FeedPublisherError.about(file) {
            try FileManager.default.sizeOfItem(atPath: file)
        }
    }

    /// The `user_version` of a database file.
    static func userVersion(of database: String) throws -> Int64 {
        do {
            return try DatabaseInEffect.select(bundledPath: database, updatesDirectory: nil).userVersion
        } catch let error as LayeredDatabaseError {
            throw FeedPublisherError(database, error.message)
        }
    }

    /// The target entry of a blob.
    static func target(_ path: String, _ blob: TargetBlob.Encoded, _ facts: ReleaseFacts) throws -> TargetFile {
        let data = try FeedPublisherError.about(blob.path) { try Data(contentsOf: URL(fileURLWithPath: blob.path)) }
        return TargetFile(path: path, data: data, custom: facts.custom)
    }

    /// Decodes an earlier release's whole database from the feed into `directory`, checking it
    /// is the release its facts name; returns its path.
    func restore(_ release: ReleaseCatalog.Entry, into directory: String) throws -> String {
        let facts = release.facts
        let output = directory + "/base.sqlite"
        let blob = layout.path(release.stored)
        try FeedPublisherError.about(blob) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let (_, sha256) = try facts.encoding.decode(
                fileAt: blob, limit: facts.uncompressedLength, into: output, mode: 0o644)
            guard sha256 == facts.result.sha256 else {
                throw FeedPublisherError(blob, "decodes to \(sha256), not release \(facts.result.sha256)")
            }
        }
        return output
    }

    /// Moves a blob to its hash-prefixed name under `targets/` (durably; an identical file already
    /// there is kept).
    func place(_ blob: TargetBlob.Encoded, as path: String) throws {
        let destination = layout.path(try FeedLayout.storedName(of: path, sha256: blob.sha256))
        try FeedPublisherError.about(destination) {
            try FileManager.default.createDirectory(
                atPath: PathText.deletingLastComponent(destination), withIntermediateDirectories: true)
            if (try? ContentHash.sha256(ofFileAt: destination)) == blob.sha256 { return }
            try AtomicFile.moveIntoPlace(blob.path, as: destination)
        }
    }
}
