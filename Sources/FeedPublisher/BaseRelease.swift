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

extension Feed {
    /// Adds the database at `database` as a patch base only: the release an app bundles, when
    /// the feed does not hold it (a feed started after the app shipped). Its whole database is
    /// stored under its content-addressed name with ``ReleaseFacts/baseOnly`` facts, so no device
    /// is ever offered it; a patch from it to each of the newest `options.patchesFrom` releases
    /// newer than it is made now (each proven by ``PatchMaker``, kept only when smaller than that
    /// release's whole file, carrying that release's channel, rollout and data formats), and every
    /// later ``publish(_:key:keySource:options:)`` makes one from it too. Then the next targets,
    /// snapshot and timestamp are signed by `key` (and the next root, when root expires soon, as
    /// ``publish(_:key:keySource:options:)`` renews it).
    ///
    /// A database the feed already holds (as a release or a base) writes nothing
    /// (``PublishSummary/wasAlreadyPublished``): a release is a patch base already.
    ///
    /// The base is written under the feed's data epoch (FeedClient's `DataEpoch`), and patches are
    /// made only to releases of that epoch (devices install no other), but a base stays one
    /// across `rotate --reset-data`: it is the data an app bundles, which devices that drop an
    /// earlier epoch's data have in effect again, so every later publish, of any epoch, makes a
    /// patch from it and `prune` keeps it.
    ///
    /// - Throws: ``FeedPublisherError`` naming the file, key, target or document; the feed's
    ///   metadata is then as it was.
    @discardableResult
    public func addBase(
        _ database: String, key: Ed25519SigningKey, keySource: String, options: PublishOptions = PublishOptions()
    ) throws -> PublishSummary {
        var options = options
        options.baseOnly = true
        try options.validate()
        return try withLock {
            let state = try FeedState.load(layout)
            try state.requireSigner(
                key, source: keySource, roles: [Targets.type, Snapshot.type, Timestamp.type], action: "add a base")
            let catalog = try state.catalog()
            let epoch = try state.dataEpoch()
            let work = try makeWorkDirectory()
            let encoding = TargetEncoding(compression: options.compression)
            let base = DatabaseVersion(
                userVersion: try Self.userVersion(of: database),
                sha256: try FeedPublisherError.about(database) { try DatabaseFile.sha256(of: database) })
            var summary = PublishSummary(
                release: base, isBaseOnly: true, wasAlreadyPublished: false, databaseLength: 0, patches: [],
                targetsVersion: state.targets.header.version)
            if let existing = catalog.database(base.sha256) {
                summary.isBaseOnly = existing.facts.baseOnly
                summary.wasAlreadyPublished = true
                summary.databaseLength = existing.target.length
                return summary
            }
            // The base is read by every patch maker; a copy in the scratch directory keeps the
            // updater that proves each patch away from the file given.
            let basePath = work + "/base.sqlite"
            try FeedPublisherError.about(database) { try Self.copyDatabase(database, to: basePath) }
            // Patches only to releases of the current epoch: devices install no other.
            let results = Array(
                catalog.releases.filter {
                    $0.facts.dataEpoch == epoch && $0.facts.result.userVersion > base.userVersion
                }.prefix(options.patchesFrom))
            let made = try ConcurrentWork.map(results.count + 1) { index -> (PatchMaker?, TargetBlob.Encoded) in
                guard index < results.count else {
                    return (
                        nil,
                        try TargetBlob.encode(
                            basePath, to: work + "/base.sqlite." + options.compression.fileExtension, encoding: encoding
                        )
                    )
                }
                let directory = work + "/patch-\(index)"
                let resultPath = try restore(results[index], into: directory)
                let maker = PatchMaker(
                    basePath: basePath, releasePath: resultPath, work: directory,
                    encoding: TargetEncoding(compression: options.compression, packing: options.packing))
                return (maker, try maker.make())
            }
            let whole = made[results.count].1
            guard whole.uncompressedSHA256 == base.sha256 else {
                throw FeedPublisherError(database, "the file changed while it was being added; add it again")
            }
            summary.databaseLength = whole.length
            var kept: [(maker: PatchMaker, patch: TargetBlob.Encoded, path: String, facts: ReleaseFacts)] = []
            for (index, result) in results.enumerated() {
                // swift-format-ignore: NeverForceUnwrap
                let (maker, patch) = (made[index].0!, made[index].1) // every index below results.count made one
                let smaller = patch.length < result.target.length
                summary.patches.append(
                    .init(base: base, result: result.facts.result, length: patch.length, kept: smaller))
                guard smaller else { continue }
                var facts = result.facts
                facts.kind = .patch
                facts.compression = patch.encoding.compression
                facts.packing = patch.encoding.packing
                facts.uncompressedLength = patch.uncompressedLength
                facts.uncompressedSHA256 = patch.uncompressedSHA256
                facts.base = base
                let path = FeedLayout.patchPath(
                    base: base.sha256, result: result.facts.result.sha256, encoding: patch.encoding)
                kept.append((maker, patch, path, facts))
            }
            _ = try ConcurrentWork.map(kept.count) { try kept[$0].maker.prove(kept[$0].patch, target: kept[$0].path) }
            var targets = state.targetFiles
            var blobs: [(TargetBlob.Encoded, String)] = []
            for patch in kept {
                targets.append(try Self.target(patch.path, patch.patch, patch.facts))
                blobs.append((patch.patch, patch.path))
            }
            let wholePath = FeedLayout.releasePath(result: base.sha256, compression: options.compression)
            var wholeFacts = options.facts(kind: .database, blob: whole, base: nil, result: base)
            wholeFacts.dataEpoch = epoch
            targets.append(try Self.target(wholePath, whole, wholeFacts))
            blobs.append((whole, wholePath))
            for (blob, path) in blobs { try place(blob, as: path) }
            summary.renewedRootVersion = try renewRootIfDue(state, key: key, keySource: keySource)
            try writer.publish(targets: targets, over: state, signedBy: [key])
            summary.targetsVersion = state.targets.header.version + 1
            return summary
        }
    }

    /// Copies the database at `source` into a new file at `destination`, read through SQLite's
    /// VFS (`DatabaseFile`): a descriptor of the source opened and closed here (as
    /// `FileManager.copyItem` does) would drop every lock a connection of the process holds
    /// on it, SQLite's SHARED lock included.
    static func copyDatabase(_ source: String, to destination: String) throws {
        let descriptor = POSIXFile.open(destination, O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
        guard descriptor >= 0 else { throw FileSystemError(.open, path: destination, code: errno) }
        defer { close(descriptor) }
        try DatabaseFile.forEachChunk(ofFileAt: source) { bytes in
            let code = POSIXFile.writeAll(descriptor, bytes)
            guard code == 0 else { throw FileSystemError(.write, path: destination, code: code) }
        }
    }
}
