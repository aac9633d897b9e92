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
import EssentialsSupport

extension Feed {
    /// Brings the feed hosted at `url` down into `directory` (new or empty), so that publishing
    /// continues from what devices hold: every root version from 1 on, `root.json`,
    /// `timestamp.json`, and the current snapshot and targets documents, each byte as hosted,
    /// read as a device trusting `root` reads them (``HostedFeed``); then every target they
    /// list, fetched under its length and checked against its SHA-256, each kept under its
    /// content-addressed name (a target path or hash that cannot name a file under `targets/` is
    /// refused, naming the hosted targets document). The copy is then
    /// verified as `feed verify` does (every target decoded against its facts, each patch's base
    /// and result releases of the feed) and only then renamed into place: on any failure
    /// `directory` is as it was. An expired document is refused, as a device refuses it (a host
    /// serving an old feed would otherwise hold the publisher back too), unless `allowExpired`:
    /// then ``PullSummary/expired`` names it, and the publish that follows renews it.
    ///
    /// - Throws: ``FeedPublisherError`` naming the directory (not empty, or its parent missing),
    ///   or the hosted document or target and the check that failed.
    public static func pull(
        from url: URL, into directory: String, root: Data, fetcher: Fetcher, allowExpired: Bool = false,
        now: Date = Date()
    ) async throws -> PullSummary {
        let layout = FeedLayout(directory: directory)
        let staging = try makeStaging(for: layout.directory)
        defer { try? FileManager.default.removeItem(atPath: staging) }
        let hosted = try await HostedFeed.read(
            url, root: root, fetcher: fetcher, store: URL(fileURLWithPath: staging + "/.hosted-metadata"))
        let headers: [(String, SignedHeader)] = [
            ("\(hosted.root.header.version).root.json", hosted.root.header),
            ("timestamp.json", hosted.timestamp.header),
            ("\(hosted.snapshot.header.version).snapshot.json", hosted.snapshot.header),
            ("\(hosted.targets.header.version).targets.json", hosted.targets.header),
        ]
        let expired = headers.filter { $0.1.isExpired(at: now) }
        if !allowExpired, let (name, header) = expired.first {
            throw FeedPublisherError(
                HostedFeed.name(name, at: url),
                "expired at \(header.expiresText): devices refuse the hosted feed until it is renewed; pull it "
                    + "anyway with --allow-expired, then publish or run `dbgen feed timestamp` to renew it")
        }
        var names = ["root.json", "timestamp.json"]
        names += (1...hosted.root.header.version).map { "\($0).root.json" }
        names.append("\(hosted.snapshot.header.version).snapshot.json")
        names.append("\(hosted.targets.header.version).targets.json")
        for name in names {
            guard let data = hosted.documents[name] else {
                throw FeedPublisherError(HostedFeed.name(name, at: url), "not read from the host")
            }
            let path = staging + "/" + name
            try FeedPublisherError.about(path) { try AtomicFile.replace(path, with: data, tag: "tmp") }
        }
        let targetsName = HostedFeed.name("\(hosted.targets.header.version).targets.json", at: url)
        for target in hosted.targets.targets.values.sorted(by: { $0.path < $1.path }) {
            // The path and hash a key holder signed name the file only as checked names: nothing
            // is fetched from outside the hosted targets/ (it is fetched where devices fetch it,
            // TUF's targetURL) nor written outside the feed.
            let stored = try FeedLayout.storedPath(of: target, document: targetsName).path
            let source: URL
            let data: Data
            do {
                source = try hosted.updater.targetURL(for: target)
            } catch let error as TUFError {
                throw FeedPublisherError(error)
            }
            do {
                data = try await fetcher.fetch(source, maximumLength: Int(clamping: target.length))
                try target.verify(data)
            } catch let error as TUFError {
                throw FeedPublisherError(target.path, error.detail + " (\(source.absoluteString))")
            } catch {
                throw FeedPublisherError(target.path, "cannot fetch \(source.absoluteString): \(error)")
            }
            let path = stored.under(staging)
            try FeedPublisherError.about(path) {
                try FileManager.default.createDirectory(
                    atPath: PathText.deletingLastComponent(path), withIntermediateDirectories: true)
                try AtomicFile.replace(path, with: data, tag: "tmp")
            }
        }
        try FeedPublisherError.about(staging) { try FileManager.default.removeItem(atPath: hosted.store.path) }
        let verification = try await FeedVerifier(
            feedURL: URL(fileURLWithPath: staging, isDirectory: true), root: root, fetcher: FileFetcher(),
            referenceTime: .distantPast
        ).verify()
        try FeedPublisherError.about(layout.directory) {
            try AtomicFile.moveDirectoryIntoPlace(staging, as: layout.directory)
        }
        return PullSummary(
            verification: verification, expired: expired.map { "\($0.0) expired at \($0.1.expiresText)" },
            fileCount: names.count + hosted.targets.targets.count)
    }

    /// A new scratch directory beside `directory` (so that it moves into place by rename), after
    /// checking that `directory` is absent or an empty directory and that its parent exists.
    private static func makeStaging(for directory: String) throws -> String {
        if let isDirectory = FileManager.default.isDirectory(atPath: directory) {
            guard isDirectory else { throw FeedPublisherError(directory, "not a directory") }
            let entries = try FeedPublisherError.about(directory) {
                try FileManager.default.contentsOfDirectory(atPath: directory)
            }
            guard entries.isEmpty else {
                throw FeedPublisherError(
                    directory, "not empty: a feed is pulled into a new or empty directory (nothing here is replaced)")
            }
        }
        let parent = PathText.deletingLastComponent(directory)
        let staging =
            (parent.isEmpty ? "." : parent) + "/." + PathText.lastComponent(directory) + ".pull-"
            + UUID().uuidString.prefix(8)
        try FeedPublisherError.about(directory) {
            guard FileManager.default.isDirectory(atPath: parent.isEmpty ? "." : parent) == true else {
                throw FeedPublisherError(directory, "its parent directory \(parent) does not exist")
            }
            try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
        }
        return staging
    }
}
