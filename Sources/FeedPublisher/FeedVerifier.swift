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

/// Checks a feed as a device would: the root chain from a trusted root, then timestamp,
/// snapshot and targets (TUF's ``Updater``), then every target: its length and SHA-256 (the
/// blob read once, hashed and decoded as it is read), its facts, and its decoded length and
/// SHA-256 as the facts declare; a patch's base and result must be releases the feed lists, and
/// no target may claim a data epoch above root's (devices would ignore it).
public struct FeedVerifier: Sendable {
    /// Where the metadata is (a directory's `file:` URL, or `http(s):`).
    public let feedURL: URL
    /// The trusted root's bytes (the root an app bundles).
    public let root: Data
    /// How documents and targets are fetched.
    public let fetcher: Fetcher
    /// The time expiry is checked against.
    public let referenceTime: Date
    /// How long root, targets and snapshot must stay valid after ``referenceTime``
    /// (`--min-validity`, 30 days; 0: only unexpired), so that CI sees an expiry coming. The
    /// timestamp, a day's document the cron signs again, need only be unexpired.
    public var minimumValidity: TimeInterval = 30 * 86_400
    /// How errors name the trusted root (`--root`'s path): "is ROOT this feed's root?" when
    /// the feed's documents are signed by other keys than it names.
    public var rootName = "the trusted root"

    /// A verifier of the feed at `feedURL`.
    public init(feedURL: URL, root: Data, fetcher: Fetcher, referenceTime: Date = Date()) {
        self.feedURL = feedURL
        self.root = root
        self.fetcher = fetcher
        self.referenceTime = referenceTime
    }

    /// Verifies the feed.
    ///
    /// - Throws: ``FeedPublisherError`` naming the document or target and the check that failed.
    public func verify() async throws -> FeedVerification { try await verifyTargets().verification }

    /// Verifies the feed; returns what was checked and the trusted top-level targets.
    func verifyTargets() async throws -> (verification: FeedVerification, targets: Targets) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "shipyard-feed-verify-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let updater: Updater
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            updater = try Updater(
                metadataDirectory: scratch, metadataBaseURL: feedURL,
                targetBaseURL: feedURL.appendingPathComponent("targets"), fetcher: fetcher, bootstrapRoot: root,
                referenceTime: referenceTime)
            do {
                try await updater.refresh()
            } catch let error as TUFError {
                guard case .belowThreshold(let document, _, _, _, _) = error,
                    let reason = await ForeignRoot.reason(
                        for: error, trusted: updater.trusted.root, feedURL: feedURL, fetcher: fetcher,
                        rootName: rootName)
                else { throw error }
                throw FeedPublisherError(document, reason)
            }
        } catch let error as TUFError {
            throw FeedPublisherError(error)
        } catch let error as FeedPublisherError {
            throw error
        } catch {
            throw FeedPublisherError(feedURL.absoluteString, "\(error)")
        }
        let trusted = updater.trusted
        guard let targets = trusted.targets[Targets.type], let snapshot = trusted.snapshot,
            let timestamp = trusted.timestamp
        else { throw FeedPublisherError(feedURL.absoluteString, "the refresh trusted no targets") }
        try checkValidity([
            ("root.json", trusted.root.header), ("\(snapshot.header.version).snapshot.json", snapshot.header),
            ("\(targets.header.version).targets.json", targets.header),
        ])
        let catalog = try ReleaseCatalog(targets, document: "targets.json")
        let epoch: Int64
        do {
            epoch = try DataEpoch.of(trusted.root)
        } catch let error as TUFError {
            throw FeedPublisherError(error)
        }
        let releaseHashes = Set((catalog.releases + catalog.bases).map(\.facts.result.sha256))
        var total: Int64 = 0
        for entry in catalog.entries {
            let (target, facts) = (entry.target, entry.facts)
            try await check(entry, at: try targetURL(of: target, from: updater))
            if facts.dataEpoch > epoch {
                throw FeedPublisherError(
                    target.path,
                    "custom.shipyard.data_epoch: \(facts.dataEpoch) is above root's data epoch \(epoch): "
                        + "devices ignore it (only a root can raise the epoch)")
            }
            if let base = facts.base, !releaseHashes.contains(base.sha256) {
                throw FeedPublisherError(target.path, "base: release \(base.sha256) is not in the feed")
            }
            if facts.kind == .patch, !releaseHashes.contains(facts.result.sha256) {
                throw FeedPublisherError(target.path, "result: release \(facts.result.sha256) is not in the feed")
            }
            total += target.length
        }
        let verification = FeedVerification(
            rootVersion: trusted.root.header.version, timestampVersion: timestamp.header.version,
            snapshotVersion: snapshot.header.version, targetsVersion: targets.header.version,
            releases: catalog.releases.map(\.facts.result), bases: catalog.bases.map(\.facts.result),
            patchCount: catalog.entries.filter { $0.facts.kind == .patch }.count, totalBytes: total,
            dataEpoch: epoch)
        return (verification, targets)
    }

    /// Refuses a document that expires within ``minimumValidity``.
    private func checkValidity(_ documents: [(String, SignedHeader)]) throws {
        let days = PrintfFormat.string("%g", minimumValidity / 86_400)
        for (document, header) in documents where header.expires.timeIntervalSince(referenceTime) < minimumValidity {
            let left = PrintfFormat.string("%.1f", header.expires.timeIntervalSince(referenceTime) / 86_400)
            throw FeedPublisherError(
                document,
                "expires at \(header.expiresText), in \(left) days: less than --min-validity \(days) days; "
                    + "run `dbgen feed timestamp FEED --key KEY`, which renews every role that expires within 60 "
                    + "days (from a cron job, it keeps the feed valid)")
        }
    }

    /// Where devices fetch `target`: TUF's ``Updater/targetURL(for:)``, which honours root's
    /// consistent snapshots and the hash prefix, as FeedClient's updater does.
    private func targetURL(of target: TargetFile, from updater: Updater) throws -> URL {
        do {
            return try updater.targetURL(for: target)
        } catch let error as TUFError {
            throw FeedPublisherError(error)
        }
    }

    /// Fetches a target at `url` under its length, checks its length and SHA-256, and decodes
    /// it against its facts.
    private func check(_ entry: ReleaseCatalog.Entry, at url: URL) async throws {
        let (target, facts, sha256) = (entry.target, entry.facts, entry.sha256)
        var hash = SHA256Stream(), length: Int64 = 0
        var decoded = SHA256Stream()
        var decodeError: Error?
        let decoder = try facts.encoding.decoder(limit: facts.uncompressedLength)
        let feed: (UnsafeRawBufferPointer) throws -> Void = { chunk in
            length += Int64(chunk.count)
            guard length <= target.length else {
                throw FeedPublisherError(target.path, "length: more than the \(target.length) bytes targets.json lists")
            }
            hash.update(chunk)
            // The length and hash are checked first: a codec error of a tampered blob waits.
            guard decodeError == nil else { return }
            do { try decoder.append(chunk) { decoded.update($0) } } catch { decodeError = error }
        }
        do {
            if url.isFileURL {
                try ContentHash.forEachChunk(ofFileAt: url.path, feed)
            } else {
                try await fetcher.fetch(url, maximumLength: Int(clamping: target.length)).withUnsafeBytes {
                    try feed($0)
                }
            }
            guard length == target.length else {
                throw FeedPublisherError(target.path, "length: \(length) bytes, targets.json lists \(target.length)")
            }
            guard hash.hexDigest() == sha256 else {
                throw FeedPublisherError(
                    target.path, "sha256: the file is \(hash.hexDigest()), targets.json lists \(sha256)")
            }
            if let decodeError { throw decodeError }
            try decoder.finish()
        } catch let error as FeedPublisherError {
            throw error
        } catch let error as any TargetEncodingFailure {
            throw FeedPublisherError(target.path, "\(facts.encoding.name): \(error)")
        } catch {
            throw FeedPublisherError(
                target.path, "cannot read \(url.isFileURL ? url.path : url.absoluteString): \(error)")
        }
        guard decoder.produced == facts.uncompressedLength, decoded.hexDigest() == facts.uncompressedSHA256 else {
            throw FeedPublisherError(
                target.path,
                "custom.shipyard: decodes to \(decoder.produced) bytes with another SHA-256 than declared")
        }
        if facts.kind == .database, facts.uncompressedSHA256 != facts.result.sha256 {
            throw FeedPublisherError(target.path, "custom.shipyard: a whole database whose SHA-256 is not its result's")
        }
    }
}
