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

/// What `dbgen feed verify FEED --against URL` compared: the hosted feed's versions, and
/// whether FEED is that feed unchanged.
public struct HostedFeedCheck: Equatable, Sendable {
    /// The hosted root, timestamp, snapshot and targets versions.
    public var rootVersion: Int64
    public var timestampVersion: Int64
    public var snapshotVersion: Int64
    public var targetsVersion: Int64
    /// True when every current document of the feed is the hosted one, byte for byte: nothing to upload.
    public var isUnchanged: Bool
}

extension FeedVerifier {
    /// Checks that devices holding the feed hosted at `hostedURL` (read from this verifier's
    /// root with `hostedFetcher`, ``HostedFeed``) would take this feed once it is uploaded over
    /// it, rather than refuse it or ignore it:
    ///
    /// - every root version both have is the same document, and this feed's newest root is not
    ///   older than the hosted one (its chain continues the hosted one);
    /// - timestamp, snapshot and targets are each at a greater version than hosted, or the same
    ///   version with the same bytes (a device never fetches a version it holds again);
    /// - a device holding the hosted metadata refreshes from this feed without an error (TUF's
    ///   ``Updater``, as a device runs it: rollbacks, signatures by the keys it trusts);
    /// - this feed's root does not lower the hosted root's data epoch (FeedClient's `DataEpoch`);
    /// - every release and base hosted is still in this feed, but releases older than all of
    ///   this feed's, by data epoch then `user_version` (what `dbgen feed prune` drops).
    ///
    /// Run it after ``verify()``: the targets' bytes are that check's.
    ///
    /// - Throws: ``FeedPublisherError`` naming this feed's document (or the hosted target) and why.
    public func check(againstHosted hostedURL: URL, fetcher hostedFetcher: Fetcher) async throws -> HostedFeedCheck {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "shipyard-feed-against-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let hosted = try await HostedFeed.read(hostedURL, root: root, fetcher: hostedFetcher, store: scratch)
        let rootData = try await local("root.json")
        let localRoot = try parse("root.json", rootData, Root.init)
        for version in 1...min(localRoot.header.version, hosted.root.header.version) {
            let name = "\(version).root.json"
            guard let data = try? await local(name) else { continue } // an upload leaves the hosted copy
            guard data == hosted.documents[name] else {
                throw FeedPublisherError(
                    localName(name),
                    "not the hosted \(name): this feed's root chain does not continue the hosted one"
                        + Self.startFromPull)
            }
        }
        let timestampData = try await local("timestamp.json")
        let timestamp = try parse("timestamp.json", timestampData, Timestamp.init)
        let snapshotName = "\(timestamp.snapshotMeta.version).snapshot.json"
        let snapshotData = try await local(snapshotName)
        let snapshot = try parse(snapshotName, snapshotData, Snapshot.init)
        guard let targetsMeta = snapshot.meta["targets.json"] else {
            throw FeedPublisherError(localName(snapshotName), "it does not list targets.json")
        }
        let targetsName = "\(targetsMeta.version).targets.json"
        let targetsData = try await local(targetsName)
        let comparisons: [(String, Int64, Int64, Data, String)] = [
            ("root.json", localRoot.header.version, hosted.root.header.version, rootData, "root.json"),
            (
                "timestamp.json", timestamp.header.version, hosted.timestamp.header.version, timestampData,
                "timestamp.json"
            ),
            (
                snapshotName, snapshot.header.version, hosted.snapshot.header.version, snapshotData,
                "\(hosted.snapshot.header.version).snapshot.json"
            ),
            (
                targetsName, targetsMeta.version, hosted.targets.header.version, targetsData,
                "\(hosted.targets.header.version).targets.json"
            ),
        ]
        for (name, version, hostedVersion, data, hostedName) in comparisons {
            if version < hostedVersion {
                throw FeedPublisherError(
                    localName(name),
                    "version \(version) is below the hosted version \(hostedVersion): devices holding the hosted "
                        + "feed refuse it as a rollback" + Self.startFromPull)
            }
            if version == hostedVersion, data != hosted.documents[hostedName] {
                throw FeedPublisherError(
                    localName(name),
                    "version \(version) is the hosted version but not the hosted document: devices holding the "
                        + "hosted one keep it and never see this one (nothing new for them)" + Self.startFromPull)
            }
        }
        let taken = try await refreshAsADevice(holding: hosted)
        guard taken.header.version == targetsMeta.version else {
            throw FeedPublisherError(
                localName(targetsName), "devices holding the hosted feed keep targets version \(taken.header.version)")
        }
        try checkDataEpoch(local: localRoot, hosted: hosted.root)
        try checkReleasesKept(
            hosted: try ReleaseCatalog(
                hosted.targets,
                document: HostedFeed.name("\(hosted.targets.header.version).targets.json", at: hostedURL)),
            local: try ReleaseCatalog(taken, document: localName(targetsName)))
        return HostedFeedCheck(
            rootVersion: hosted.root.header.version, timestampVersion: hosted.timestamp.header.version,
            snapshotVersion: hosted.snapshot.header.version, targetsVersion: hosted.targets.header.version,
            isUnchanged: comparisons.allSatisfy { $0.3 == hosted.documents[$0.4] })
    }

    private static let startFromPull =
        " (a feed created anew, or an old copy? start from the hosted one: `dbgen feed pull URL FEED --root ROOT`)"

    /// What a device holding the hosted metadata trusts after refreshing from this feed.
    private func refreshAsADevice(holding hosted: HostedFeed) async throws -> Targets {
        do {
            let updater = try Updater(
                metadataDirectory: hosted.store, metadataBaseURL: feedURL, fetcher: fetcher,
                referenceTime: referenceTime)
            try await updater.refresh()
            guard let targets = updater.trusted.targets[Targets.type] else {
                throw FeedPublisherError(feedURL.absoluteString, "the refresh trusted no targets")
            }
            return targets
        } catch let error as TUFError {
            let local = FeedPublisherError(error)
            throw FeedPublisherError(
                localName(local.subject), "devices holding the hosted feed refuse it: \(local.reason)")
        } catch let error as FeedPublisherError {
            throw error
        } catch {
            throw FeedPublisherError(feedURL.absoluteString, "\(error)")
        }
    }

    /// This feed's root does not lower the hosted root's data epoch (FeedClient's `DataEpoch`):
    /// devices that installed data under the hosted one refuse a root that does.
    private func checkDataEpoch(local: Root, hosted: Root) throws {
        let (localEpoch, hostedEpoch): (Int64, Int64)
        do {
            (localEpoch, hostedEpoch) = (try DataEpoch.of(local), try DataEpoch.of(hosted))
        } catch let error as TUFError {
            throw FeedPublisherError(localName("root.json"), "\(error)")
        }
        guard localEpoch >= hostedEpoch else {
            throw FeedPublisherError(
                localName("root.json"),
                "data epoch \(localEpoch) is below the hosted root's \(hostedEpoch): devices that installed the "
                    + "hosted feed's data refuse it as a rollback" + Self.startFromPull)
        }
    }

    /// Every hosted base, and every hosted release not older than all of this feed's (by data
    /// epoch, then `user_version`, as devices order them), is in this feed.
    private func checkReleasesKept(hosted: ReleaseCatalog, local: ReleaseCatalog) throws {
        let kept = Set((local.releases + local.bases).map(\.facts.result.sha256))
        for base in hosted.bases where !kept.contains(base.facts.result.sha256) {
            throw FeedPublisherError(
                base.target.path,
                "the hosted base user_version \(base.facts.result.userVersion) is not in this feed: devices bundling "
                    + "it would download whole files" + Self.startFromPull)
        }
        let oldest = local.releases.last.map { ($0.facts.dataEpoch, $0.facts.result.userVersion) }
        for release in hosted.releases where !kept.contains(release.facts.result.sha256) {
            // Pruned: the oldest go first (an earlier epoch's, whatever their user_version).
            if let oldest, (release.facts.dataEpoch, release.facts.result.userVersion) < oldest { continue }
            throw FeedPublisherError(
                release.target.path,
                "the hosted release user_version \(release.facts.result.userVersion) is not in this feed, and "
                    + "`dbgen feed prune` drops only releases older than every one kept: devices on it would get "
                    + "no patch" + Self.startFromPull)
        }
    }

    /// The bytes of one of this feed's documents.
    private func local(_ name: String) async throws -> Data {
        do {
            return try await fetcher.fetch(feedURL.appendingPathComponent(name), maximumLength: 5_000_000)
        } catch {
            throw FeedPublisherError(localName(name), "cannot read it: \(error)")
        }
    }

    private func parse<Role>(_ name: String, _ data: Data, _ role: (Metadata) throws -> Role) throws -> Role {
        do {
            return try role(try Metadata(data: data, document: name))
        } catch {
            throw FeedPublisherError(localName(name), "\(error)")
        }
    }

    /// A document of this feed as a subject: its path (a directory, as it was given) or URL.
    private func localName(_ name: String) -> String {
        feedURL.isFileURL ? FeedLayout(directory: feedURL.relativePath).path(name) : HostedFeed.name(name, at: feedURL)
    }
}
