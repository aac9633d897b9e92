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

/// Keeps an app's shipped database up to date from a signed feed (a TUF repository that
/// `dbgen publish` writes): checks what is new, downloads the cheapest path to it, verifies
/// every byte and installs it through `UpdateInstaller`.
///
/// ```swift
/// let updater = FeedUpdater(
///     feedURL: URL(string: "https://cdn.example.com/food-feed/")!,
///     bundledRoot: try Data(contentsOf: Bundle.main.url(forResource: "root", withExtension: "json")!),
///     bundledDatabasePath: Bundle.main.path(forResource: "food", ofType: "sqlite")!,
///     updatesDirectory: appSupport + "/food-updates", dataFormat: 3)
/// for try await event in updater.events() { show(event) }   // or: try await updater.update()
/// ```
///
/// What it guarantees:
/// - Every document is verified as TUF's client workflow says (root chain, signatures and
///   thresholds, expiry, versions that only go up, lengths and hashes) under a size cap before
///   anything else is read; the timestamp is fetched with a conditional GET, so a check that
///   finds nothing new costs two requests (the next root's 404 and the timestamp's 304).
/// - A release is offered when its channel (if any) is one the app follows, its data-format
///   range (if any) holds the app's, and its rollout fraction is above the device's bucket (a
///   random number kept in the updates directory, never sent) or it is critical, and it was
///   published under the trusted root's ``DataEpoch``. The newest offered release newer than the
///   database in effect is installed, by the cheapest chain of patches from the content in
///   effect or the whole file; when root raised the data epoch, the installed update of the
///   earlier epoch is removed first and the newest release is installed from the bundled
///   database, whatever the `user_version` removed (``UpdatePlan/resetsData``). A newer release
///   of the epoch this client is not offered is in the plan's ``UpdatePlan/withheld``, with why
///   (channel, data format, rollout).
/// - Downloads go to the updates directory's staging area, resumable across launches (Range
///   with If-Range), hashed as they arrive, never longer than the metadata says; each is
///   decoded under its declared length and checked before `UpdateInstaller` installs it
///   (atomically: the old database or the new, never a mix).
/// - The metadata it has seen is recorded in the updates directory only after the install (or
///   after a check that installs nothing), so an older feed served again is refused as a
///   rollback, also after the app is reinstalled over its data.
///
/// Everything it writes is under `updatesDirectory` (see `UpdateInstaller`, and `.feed/`).
/// The bundled database and the user database are never written.
public final class FeedUpdater: Sendable {
    /// Where the feed is served (`root.json`, `timestamp.json`, `targets/` under it).
    public let feedURL: URL
    /// The root document the app bundles: trusted on the first run.
    public let bundledRoot: Data
    /// The app's data format: a release whose `data_format` range leaves it out is never installed.
    public let dataFormat: Int64
    /// The channels the app follows (a release with no channel is for every app).
    public let channels: Set<String>
    /// The database shipped in the app (only read).
    public let bundledDatabasePath: String
    /// The app-owned directory updates go into.
    public let updatesDirectory: String
    private let directory: FeedDirectory
    private let metadataFetcher: HTTPFetcher
    private let downloader: ResumableDownloader
    private let limits: UpdaterConfiguration

    #if canImport(Darwin)
    /// An updater for the feed at `feedURL`.
    ///
    /// - Parameters:
    ///   - feedURL: Where the feed is served (the directory holding `root.json`).
    ///   - bundledRoot: The feed's `root.json` as the app bundles it.
    ///   - bundledDatabasePath: The database shipped in the app (only read).
    ///   - updatesDirectory: The app-owned directory updates go into (created when missing).
    ///   - dataFormat: The data format this build of the app reads.
    ///   - channels: The channels the app follows (none: only releases for everyone).
    ///   - session: The app's own session, whose configuration every request uses (a default
    ///     or ephemeral one: `allowsExpensiveNetworkAccess = false`, proxies, additional
    ///     headers...); nil: an ephemeral one. Not a background configuration: background
    ///     sessions run no data task, and every byte is checked as it streams in, so each
    ///     request with one fails (``FeedUpdateError/Check/network``). To update while the app
    ///     is not running, see the Background Assets extension in <doc:UpdatingOverTheAir>.
    ///   - stallTimeout: How long a request may go without a byte.
    public convenience init(
        feedURL: URL, bundledRoot: Data, bundledDatabasePath: String, updatesDirectory: String, dataFormat: Int64,
        channels: Set<String> = [], session: URLSession? = nil, stallTimeout: TimeInterval = 60
    ) {
        let configuration = session?.configuration ?? .ephemeral
        self.init(
            feedURL: feedURL, bundledRoot: bundledRoot, bundledDatabasePath: bundledDatabasePath,
            updatesDirectory: updatesDirectory, dataFormat: dataFormat, channels: channels,
            metadataFetcher: HTTPFetcher(configuration: configuration, stallTimeout: stallTimeout),
            downloader: ResumableDownloader(configuration: configuration, stallTimeout: stallTimeout))
    }
    #else
    /// An updater for the feed at `feedURL` (Linux: libcurl, loaded at the first request).
    ///
    /// - Parameters:
    ///   - feedURL: Where the feed is served (the directory holding `root.json`).
    ///   - bundledRoot: The feed's `root.json` as the app bundles it.
    ///   - bundledDatabasePath: The database shipped in the app (only read).
    ///   - updatesDirectory: The app-owned directory updates go into (created when missing).
    ///   - dataFormat: The data format this build of the app reads.
    ///   - channels: The channels the app follows (none: only releases for everyone).
    ///   - stallTimeout: How long a request may go without a byte.
    public convenience init(
        feedURL: URL, bundledRoot: Data, bundledDatabasePath: String, updatesDirectory: String, dataFormat: Int64,
        channels: Set<String> = [], stallTimeout: TimeInterval = 60
    ) {
        self.init(
            feedURL: feedURL, bundledRoot: bundledRoot, bundledDatabasePath: bundledDatabasePath,
            updatesDirectory: updatesDirectory, dataFormat: dataFormat, channels: channels,
            metadataFetcher: HTTPFetcher(stallTimeout: stallTimeout),
            downloader: ResumableDownloader(stallTimeout: stallTimeout))
    }
    #endif

    private init(
        feedURL: URL, bundledRoot: Data, bundledDatabasePath: String, updatesDirectory: String, dataFormat: Int64,
        channels: Set<String>, metadataFetcher: HTTPFetcher, downloader: ResumableDownloader
    ) {
        self.feedURL = feedURL
        self.bundledRoot = bundledRoot
        self.dataFormat = dataFormat
        self.channels = channels
        self.bundledDatabasePath = bundledDatabasePath
        self.updatesDirectory = updatesDirectory
        directory = FeedDirectory(updatesDirectory: updatesDirectory)
        self.metadataFetcher = metadataFetcher
        self.downloader = downloader
        limits = UpdaterConfiguration()
    }

    /// The installer of the database the app ships, into ``updatesDirectory``.
    public var updateInstaller: UpdateInstaller {
        UpdateInstaller(bundledPath: bundledDatabasePath, updatesDirectory: updatesDirectory)
    }

    // MARK: Check

    /// Fetches and verifies the feed's metadata and plans the update: nothing new, or the
    /// release to install and the cheapest path to it. Installs nothing; records the metadata
    /// only when nothing is to be installed.
    ///
    /// - Throws: ``FeedUpdateError`` naming the document and the check that failed.
    public func check() async throws -> UpdatePlan {
        try directory.prepare()
        let lock = try await directory.lock()
        defer { lock.release() }
        return try await checkHoldingLock()
    }

    private func checkHoldingLock() async throws -> UpdatePlan {
        do {
            let plan = try plan(from: try await refreshMetadata())
            if plan.isNothingNew { try directory.commitMetadata() }
            return plan
        } catch {
            directory.discardStagedMetadata()
            throw error
        }
    }

    /// Refreshes a staged copy of the trusted metadata (TUF's workflow, in the calling task:
    /// the fetcher is async, and cancelling the task stops the request under way) and returns
    /// the updater, whose top-level targets and root are trusted.
    private func refreshMetadata() async throws -> Updater {
        let hasTrustedRoot = try directory.stageMetadata()
        let staged = directory.stagedMetadata
        let bootstrap = hasTrustedRoot && !bundledRootIsNewer() ? nil : bundledRoot
        let fetcher = ConditionalTimestampFetcher(http: metadataFetcher, stored: directory.storedTimestamp())
        let updater: Updater
        do {
            updater = try Updater(
                metadataDirectory: staged, metadataBaseURL: feedURL,
                targetBaseURL: feedURL.appendingPathComponent("targets", isDirectory: true), fetcher: fetcher,
                bootstrapRoot: bootstrap, configuration: limits)
            do {
                try await updater.refresh()
            } catch let error as TUFError {
                guard case .belowThreshold(let document, _, _, _, _) = error,
                    let reason = await ForeignRoot.reason(
                        for: error, trusted: updater.trusted.root, feedURL: feedURL, fetcher: fetcher,
                        rootName: bootstrap == nil ? "the root this device trusts" : "the bundled root.json")
                else { throw error }
                throw FeedUpdateError(subject: document, check: .signature, reason: reason)
            }
            guard updater.trusted.targets[Targets.type] != nil else {
                throw TUFError.missingMeta(document: "targets.json", reason: "not trusted")
            }
        } catch {
            throw FeedUpdateError(fetching: error)
        }
        if let timestamp = fetcher.timestamp { try directory.stageETag(timestamp.etag, of: timestamp.data) }
        return updater
    }

    /// Whether the app bundles a newer root than the one kept (an app update after a rotation).
    private func bundledRootIsNewer() -> Bool {
        let stored = FileManager.default.contents(atPath: directory.metadata.appendingPathComponent("root.json").path)
        func version(_ data: Data?) -> Int64 {
            data.flatMap { try? Metadata(data: $0, document: "root.json", maximumBytes: limits.rootMaximumLength) }?
                .header.version ?? 0
        }
        return version(bundledRoot) > version(stored)
    }

    /// The plan: the newest release offered of the trusted root's data epoch, from the data in
    /// effect, or, when that epoch is above the one the installed update came under, from the
    /// bundled database (the installed update is removed first, whatever its `user_version`).
    private func plan(from updater: Updater) throws -> UpdatePlan {
        let choice = try ReleaseChoice(targets: updater.trusted.targets[Targets.type]?.targets ?? [:])
        let epoch: Int64
        do {
            epoch = try DataEpoch.of(updater.trusted.root)
        } catch let error as TUFError {
            throw FeedUpdateError(error)
        }
        let recorded = directory.recordedEpoch()
        guard epoch >= recorded else {
            throw FeedUpdateError(
                subject: "root.json", check: .rollback,
                reason: "data epoch \(epoch) is below \(recorded), the epoch of the data this device has installed")
        }
        let policy = ClientPolicy(
            channels: channels, dataFormat: dataFormat, bucket: try directory.rolloutBucket(), dataEpoch: epoch)
        let inEffect = try inEffect { try updateInstaller.databaseInEffect() }
        let resets = epoch > recorded && inEffect.isInstalledUpdate
        let base =
            resets
            ? try self.inEffect { try DatabaseInEffect.select(bundledPath: bundledDatabasePath, updatesDirectory: nil) }
            : inEffect
        let identity = directory.stagedTimestampIdentity() ?? ""
        func plan(_ release: DatabaseVersion?, _ steps: [UpdateStep]) -> UpdatePlan {
            UpdatePlan(
                userVersionInEffect: inEffect.userVersion, release: release, steps: steps,
                withheld: choice.withheld(newerThan: release?.userVersion ?? base.userVersion, policy: policy),
                metadataIdentity: identity, resetsData: resets, dataEpoch: epoch)
        }
        guard let release = choice.newestOffered(to: policy), release.facts.result.userVersion > base.userVersion
        else { return plan(nil, []) }
        let identities: Set<String> =
            try self.inEffect {
                resets
                    ? [try DatabaseFile.sha256(of: bundledDatabasePath)]
                    : try updateInstaller.contentIdentitiesInEffect()
            }
        if identities.contains(release.facts.result.sha256) { return plan(nil, []) }
        let steps = try choice.cheapestPath(from: identities, to: release, policy: policy).map {
            try step(for: $0, from: updater)
        }
        return plan(release.facts.result, steps)
    }

    private func inEffect<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw FeedUpdateError(target: updateInstaller.bundledPath, installing: error)
        }
    }

    /// The step of a target, at the URL TUF's updater gives it (the consistent-snapshot name
    /// `targets/DIR/SHA256.NAME` of a feed `dbgen publish` writes, every name checked).
    private func step(for candidate: ReleaseChoice.Candidate, from updater: Updater) throws -> UpdateStep {
        let target = candidate.target
        let url: URL
        do {
            url = try updater.targetURL(for: target)
        } catch {
            throw FeedUpdateError(fetching: error)
        }
        return UpdateStep(
            path: target.path, url: url, length: target.length, sha256: candidate.digest.hex, facts: candidate.facts)
    }

    // MARK: Update

    /// Checks (unless given the `plan` of a check just made) and installs what is new: each
    /// step downloaded (resuming what an earlier run staged), verified and installed in order;
    /// then the metadata is recorded. Returns the plan carried out.
    ///
    /// Cancelling the task stops the download before anything more is installed; what was
    /// downloaded stays staged for the next run to resume.
    ///
    /// - Throws: ``FeedUpdateError`` naming the document or target and the check that failed.
    @discardableResult
    public func update(_ plan: UpdatePlan? = nil, progress: (@Sendable (UpdateEvent) -> Void)? = nil)
        async throws -> UpdatePlan
    {
        try directory.prepare()
        let lock = try await directory.lock()
        defer { lock.release() }
        let plan = try await currentPlan(plan, progress: progress)
        guard !plan.isNothingNew else {
            progress?(.nothingNew(userVersion: plan.userVersionInEffect))
            return plan
        }
        progress?(.planned(plan))
        do {
            try resetData(for: plan)
            try await carryOut(plan, progress: progress)
        } catch {
            directory.discardStagedMetadata()
            throw error
        }
        try directory.commitMetadata()
        return plan
    }

    private func currentPlan(_ plan: UpdatePlan?, progress: (@Sendable (UpdateEvent) -> Void)?) async throws
        -> UpdatePlan
    {
        guard let plan else {
            progress?(.checking)
            return try await checkHoldingLock()
        }
        guard plan.isNothingNew || directory.stagedTimestampIdentity() == plan.metadataIdentity else {
            throw FeedUpdateError(
                subject: "timestamp.json", check: .outdatedPlan,
                reason: "the plan is not the latest check's: check again")
        }
        return plan
    }

    /// Before anything of a newer data epoch is installed: the installed update of an earlier
    /// one is removed (the bundled database is then in effect), then the epoch is recorded. A
    /// kill in between leaves the bundled database in effect and the old record, which the next
    /// run finds with nothing installed and records again.
    private func resetData(for plan: UpdatePlan) throws {
        guard plan.dataEpoch > directory.recordedEpoch() else { return }
        if plan.resetsData {
            do {
                try updateInstaller.removeInstalledUpdate()
            } catch {
                throw FeedUpdateError(target: updateInstaller.bundledPath, installing: error)
            }
        }
        try directory.recordEpoch(plan.dataEpoch)
    }

    private func carryOut(_ plan: UpdatePlan, progress: (@Sendable (UpdateEvent) -> Void)?) async throws {
        let installer = TargetInstaller(updateInstaller: updateInstaller, stagingDirectory: directory.staging)
        var done: Int64 = 0
        for step in plan.steps {
            let before = done
            let file: URL
            do {
                file = try await downloader.download(step.download, into: directory.staging) { bytes in
                    progress?(
                        .downloading(
                            target: step.path, completedBytes: before &+ bytes.completedBytes,
                            totalBytes: plan.byteCount))
                }
            } catch let error as DownloadError {
                throw FeedUpdateError(target: step.path, downloading: error)
            }
            done = done &+ step.length
            if Task.isCancelled {
                throw FeedUpdateError(subject: step.path, check: .cancelled, reason: "cancelled before the install")
            }
            progress?(.installing(target: step.path))
            let userVersion = try installer.install(step, from: file)
            progress?(.installed(target: step.path, userVersion: userVersion))
        }
    }

    /// The update as an `AsyncSequence` of its events: ``update(_:progress:)`` run in a task
    /// that ends the stream (with its error, if any), and is cancelled when the consumer stops
    /// iterating.
    public func events() -> AsyncThrowingStream<UpdateEvent, Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await update { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
