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

/// The metadata of a feed as it is hosted, read as a device holding the app's root would read
/// it (TUF's ``Updater``: the root chain, then timestamp, snapshot and targets, each signature,
/// threshold, version, length and hash checked), with the exact bytes of every current document
/// and of every root version from 1 on. Expiry is not checked: devices that fetched these
/// versions while they were valid hold them still, and an expired feed is what a publish
/// renews.
struct HostedFeed {
    /// Where it is hosted.
    let url: URL
    /// The trusted root.
    let root: Root
    /// The trusted timestamp, snapshot and top-level targets.
    let timestamp: Timestamp
    let snapshot: Snapshot
    let targets: Targets
    /// The updater that read it, which says where each target is served
    /// (``Updater/targetURL(for:)``).
    let updater: Updater
    /// The bytes of each document by name: `N.root.json` for every version, `root.json` (the
    /// newest), `timestamp.json`, `N.snapshot.json`, `N.targets.json`.
    let documents: [String: Data]
    /// The directory holding the trusted metadata as a device keeps it (``MetadataStore``).
    let store: URL

    /// Reads the feed at `url` trusting `root` (the root the app bundles), keeping the device's
    /// metadata in `store` (created).
    ///
    /// - Throws: ``FeedPublisherError`` naming the hosted document (its URL) and the check that
    ///   failed, a root version the host lacks, or a hosted copy of `root`'s version that is not
    ///   `root` (a feed created anew, which devices holding the old one refuse).
    static func read(_ url: URL, root: Data, fetcher: Fetcher, store: URL) async throws -> HostedFeed {
        let recorder = RecordingFetcher(fetcher)
        let updater: Updater
        do {
            try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
            updater = try Updater(
                metadataDirectory: store, metadataBaseURL: url, targetBaseURL: url.appendingPathComponent("targets"),
                fetcher: recorder, bootstrapRoot: root, referenceTime: .distantPast)
            try await updater.refresh()
        } catch let error as TUFError {
            let local = FeedPublisherError(error)
            throw FeedPublisherError(Self.name(local.subject, at: url), local.reason)
        } catch FetchError.notFound(let missing) {
            throw FeedPublisherError(
                missing, "not found: no feed is hosted at \(url.absoluteString) (the first upload is made by hand)")
        } catch FetchError.tooLarge(let large, let limit) {
            throw FeedPublisherError(large, "more than \(limit) bytes")
        } catch {
            throw FeedPublisherError(url.absoluteString, "\(error)")
        }
        let trusted = updater.trusted
        guard let timestamp = trusted.timestamp, let snapshot = trusted.snapshot,
            let targets = trusted.targets[Targets.type]
        else {
            throw FeedPublisherError(url.absoluteString, "the refresh trusted no targets")
        }
        var documents = recorder.documents
        documents["root.json"] = documents["\(trusted.root.header.version).root.json"] ?? root
        try await readEarlierRoots(upTo: root, at: url, fetcher: fetcher, into: &documents)
        return HostedFeed(
            url: url, root: trusted.root, timestamp: timestamp, snapshot: snapshot, targets: targets, updater: updater,
            documents: documents, store: store)
    }

    /// Fetches `1.root.json` up to the version of `root` and checks that they chain (each
    /// signed by the one before) into a copy of `root` itself.
    private static func readEarlierRoots(
        upTo root: Data, at url: URL, fetcher: Fetcher, into documents: inout [String: Data]
    ) async throws {
        let version = try FeedPublisherError.about("--root") { try Metadata(data: root, document: "root.json") }
            .header.version
        var chain: TrustedMetadataSet?
        for number in 1...max(version, 1) {
            let document = "\(number).root.json"
            let data: Data
            do {
                data = try await fetcher.fetch(url.appendingPathComponent(document), maximumLength: 512_000)
                if var trusted = chain {
                    try trusted.updateRoot(data, document: document)
                    chain = trusted
                } else {
                    chain = try TrustedMetadataSet(root: data, referenceTime: .distantPast)
                }
            } catch FetchError.notFound {
                throw FeedPublisherError(
                    name(document, at: url),
                    "missing on the host: devices bundling root version \(number) cannot follow")
            } catch let error as TUFError {
                throw FeedPublisherError(name(document, at: url), error.detail)
            } catch {
                throw FeedPublisherError(name(document, at: url), "\(error)")
            }
            documents[document] = data
        }
        guard documents["\(version).root.json"] == root else {
            throw FeedPublisherError(
                name("\(version).root.json", at: url),
                "not the root given with --root: the hosted feed is not the one the app trusts (was it created anew?)")
        }
    }

    /// The URL of a document of the feed at `url`, as a subject (`https://…/timestamp.json`).
    static func name(_ document: String, at url: URL) -> String {
        let base = url.absoluteString
        return (base.hasSuffix("/") ? base : base + "/") + document
    }
}
