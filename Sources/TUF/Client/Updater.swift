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
import EssentialsSupport

/// The TUF client workflow (specification section 5, "Detailed client workflow") over a fetcher
/// and a local metadata store; <doc:ClientWorkflow> maps each step to its code and its tests.
///
/// `refresh()` brings root, timestamp, snapshot and top-level targets up to date (5.3–5.6);
/// `targetInfo(for:)` finds a target by a pre-order depth-first walk of the delegations (5.6.7);
/// `targetURL(for:)` is where a target is served (the one place its URL is built, 5.7.3);
/// `download(_:to:)` fetches a target under its length cap and verifies its length and hashes (5.7).
/// Each trusted document is stored only after it is verified. The fetcher is async, and so are the
/// steps that fetch: the caller's task waits without holding a thread, and its cancellation reaches
/// the transport.
public final class Updater {
    /// The configuration's caps and limits.
    public let configuration: UpdaterConfiguration
    /// The trusted metadata so far.
    public private(set) var trusted: TrustedMetadataSet
    private let store: MetadataStore
    private let metadataBaseURL: String
    private let targetBaseURL: String?
    private let fetcher: Fetcher
    private let log: (String) -> Void
    private var refreshed = false

    /// An updater whose trusted root is `root.json` in `metadataDirectory` (put the bundled root there
    /// first, or pass `bootstrapRoot`).
    /// - Parameters:
    ///   - metadataDirectory: where the trusted metadata is kept (the client's own directory).
    ///   - metadataBaseURL: where `N.root.json`, `timestamp.json`, ... are served.
    ///   - targetBaseURL: where targets are served (needed only to download).
    ///   - fetcher: the transport.
    ///   - bootstrapRoot: a root to trust instead of the stored one (it is verified and stored).
    ///   - configuration: caps and limits.
    ///   - referenceTime: the time expiry is checked against.
    ///   - log: receives one line per step (verbose output).
    public init(
        metadataDirectory: URL, metadataBaseURL: URL, targetBaseURL: URL? = nil, fetcher: Fetcher,
        bootstrapRoot: Data? = nil, configuration: UpdaterConfiguration = UpdaterConfiguration(),
        referenceTime: Date = Date(), log: @escaping (String) -> Void = { _ in }
    ) throws {
        // 5.1: the fixed update start time is `referenceTime`, which every expiry check uses.
        // 5.2: the trusted root is the one stored (or given), verified by its own keys.
        store = MetadataStore(directory: metadataDirectory)
        let rootData: Data
        if let bootstrapRoot {
            rootData = bootstrapRoot
        } else {
            guard let stored = store.load(Root.type) else {
                throw TUFError.storage(path: try store.url(for: Root.type).path, reason: "no trusted root")
            }
            rootData = stored
        }
        trusted = try TrustedMetadataSet(
            root: rootData, referenceTime: referenceTime, maximumBytes: configuration.rootMaximumLength
        )
        if bootstrapRoot != nil { try store.store(rootData, for: Root.type) }
        self.metadataBaseURL = Self.withSlash(metadataBaseURL.absoluteString)
        self.targetBaseURL = targetBaseURL.map { Self.withSlash($0.absoluteString) }
        self.fetcher = fetcher
        self.configuration = configuration
        self.log = log
    }

    private static func withSlash(_ url: String) -> String { url.hasSuffix("/") ? url : url + "/" }

    /// Updates root (following the chain of versions), timestamp, snapshot and top-level targets
    /// (5.3, 5.4, 5.5, 5.6.1–5.6.6); each step stops the refresh with its error.
    public func refresh() async throws {
        try await loadRoot()
        try await loadTimestamp()
        try await loadSnapshot()
        _ = try await loadTargets(Targets.type, delegator: Root.type)
        refreshed = true
    }

    private func metadataURL(_ role: String, version: Int64?) throws -> URL {
        let name = (version.map { "\($0)." } ?? "") + URLQuoting.quote(role) + ".json"
        guard let url = URL(string: metadataBaseURL + name) else {
            throw TUFError.download(url: metadataBaseURL + name, reason: "not a valid URL")
        }
        return url
    }

    private func download(_ role: String, version: Int64?, maximumLength: Int) async throws -> Data {
        let url = try metadataURL(role, version: version)
        log("fetching \(url.absoluteString) (at most \(maximumLength) bytes)")
        return try await fetcher.fetch(url, maximumLength: maximumLength)
    }

    /// The cap on a snapshot or targets document: the length the signed metadata listing it
    /// declares, else the configuration's own cap; a declared length above the hard maximum is
    /// refused before anything is fetched.
    private func cap(_ declared: Int64?, default own: Int, document: String) throws -> Int {
        guard let declared else { return min(own, configuration.metadataHardMaximumLength) }
        guard declared <= Int64(configuration.metadataHardMaximumLength) else {
            throw TUFError.tooLarge(document: document, limit: configuration.metadataHardMaximumLength)
        }
        return Int(max(0, declared))
    }

    /// 5.3: the root chain, 5.3.1's line of continuity from the trusted root to the newest.
    /// 5.3.2–5.3.3: version N+1, up to `rootMaximumLength` bytes, until
    /// the server has none or `maximumRootRotations` were read; 5.3.4–5.3.7 in
    /// ``TrustedMetadataSet/updateRoot(_:document:maximumBytes:)``; 5.3.8: each one stored.
    /// 5.3.10 (root's freeze check) comes with the timestamp; 5.3.11 needs no deleting: a stored
    /// timestamp or snapshot signed by rotated-out keys fails its check in 5.4 and 5.5 and is
    /// replaced; 5.3.12: ``Root/consistentSnapshot`` names the documents fetched after.
    private func loadRoot() async throws {
        // A root at the largest version has no next one; the range stops there rather than overflow.
        let current = trusted.root.header.version
        guard current < Int64.max, configuration.maximumRootRotations > 0 else { return }
        let first = current + 1
        let (end, overflow) = first.addingReportingOverflow(Int64(configuration.maximumRootRotations) - 1)
        // 5.3.9: repeat from 5.3.2 with the root just trusted.
        for version in first...(overflow ? Int64.max : end) {
            let data: Data
            do {
                data = try await download(Root.type, version: version, maximumLength: configuration.rootMaximumLength)
            } catch FetchError.notFound {
                break
            }
            try trusted.updateRoot(
                data, document: "\(version).root.json", maximumBytes: configuration.rootMaximumLength
            )
            try store.store(data, for: Root.type)
            log("trusted root version \(version)")
        }
    }

    /// 5.4: the timestamp. The stored one, if it verifies, is trusted first so that the new one
    /// is checked against its versions (5.4.3); 5.4.1: `timestamp.json`, up to
    /// `timestampMaximumLength` bytes; 5.4.2–5.4.4 in ``TrustedMetadataSet/updateTimestamp(_:maximumBytes:)``;
    /// 5.4.5: stored. The same version as the trusted one ends the refresh's timestamp step
    /// (nothing new), not the refresh.
    private func loadTimestamp() async throws {
        if let local = store.load(Timestamp.type) {
            do {
                try trusted.updateTimestamp(local, maximumBytes: configuration.timestampMaximumLength)
            } catch let error as TUFError {
                log("local timestamp not trusted as final: \(error)")
            }
        }
        let data = try await download(
            Timestamp.type, version: nil, maximumLength: configuration.timestampMaximumLength)
        do {
            try trusted.updateTimestamp(data, maximumBytes: configuration.timestampMaximumLength)
        } catch TUFError.sameVersion {
            log("timestamp unchanged")
            return
        }
        try store.store(data, for: Timestamp.type)
    }

    /// 5.5: the snapshot. The stored one is kept when it is still the timestamp's (checked as
    /// the new one would be, but for its hashes); 5.5.1: else `N.snapshot.json` (consistent
    /// snapshots) or `snapshot.json`, up to the length the timestamp declares; 5.5.2–5.5.6 in
    /// ``TrustedMetadataSet/updateSnapshot(_:trusted:maximumBytes:)``; 5.5.7: stored.
    private func loadSnapshot() async throws {
        if let local = store.load(Snapshot.type) {
            do {
                try trusted.updateSnapshot(local, trusted: true, maximumBytes: configuration.snapshotMaximumLength)
                log("local snapshot is current")
                return
            } catch let error as TUFError {
                log("local snapshot not trusted as final: \(error)")
            }
        }
        guard let meta = trusted.timestamp?.snapshotMeta else { throw TUFError.outOfOrder("no timestamp") }
        let length = try cap(meta.length, default: configuration.snapshotMaximumLength, document: "snapshot.json")
        let data = try await download(
            Snapshot.type, version: trusted.root.consistentSnapshot ? meta.version : nil, maximumLength: length
        )
        try trusted.updateSnapshot(data, maximumBytes: length)
        try store.store(data, for: Snapshot.type)
    }

    /// 5.6 (and each role of 5.6.7): a targets document. The stored one is kept when it still
    /// verifies against the snapshot; 5.6.1: else `N.ROLE.json` (consistent snapshots) or
    /// `ROLE.json`, up to the length the snapshot declares; 5.6.2–5.6.5 in
    /// ``TrustedMetadataSet/updateTargets(_:role:delegator:maximumBytes:)``; 5.6.6: stored.
    private func loadTargets(_ role: String, delegator: String) async throws -> Targets {
        if let targets = trusted.targets[role], trusted.delegators[role] == delegator { return targets }
        if let local = store.load(role) {
            do {
                return try trusted.updateTargets(
                    local, role: role, delegator: delegator, maximumBytes: configuration.targetsMaximumLength
                )
            } catch let error as TUFError {
                log("local \(role) not trusted: \(error)")
            }
        }
        guard let meta = trusted.snapshot?.meta["\(role).json"] else {
            throw TUFError.missingMeta(document: "snapshot.json", reason: "\(role).json is not listed")
        }
        let length = try cap(meta.length, default: configuration.targetsMaximumLength, document: "\(role).json")
        let data = try await download(
            role, version: trusted.root.consistentSnapshot ? meta.version : nil, maximumLength: length
        )
        let targets = try trusted.updateTargets(data, role: role, delegator: delegator, maximumBytes: length)
        try store.store(data, for: role)
        return targets
    }

    /// The trusted description of a target, found by the delegation walk (refreshing first if needed),
    /// or nil when no role trusted for the path lists it.
    ///
    /// 5.6.7: a pre-order depth-first search from the top-level targets, each delegator's roles
    /// in the order it lists them. 5.6.7.1: a role visited before is skipped (a cycle, or a role
    /// two delegators name); after the top-level targets and ``UpdaterConfiguration/maximumDelegations``
    /// delegated roles the search stops. 5.6.7.2.1: a terminating delegation (and a succinct
    /// one, TAP 15) ends the search below it: the roles still waiting are dropped. A document
    /// that cannot be fetched or verified ends the search with its error.
    public func targetInfo(for path: String) async throws -> TargetFile? {
        if !refreshed { try await refresh() }
        var toVisit: [(role: String, delegator: String)] = [(Targets.type, Root.type)]
        var visited: Set<String> = []
        while visited.count <= configuration.maximumDelegations, let (role, delegator) = toVisit.popLast() {
            if visited.contains(role) { continue }
            let targets = try await loadTargets(role, delegator: delegator)
            if let target = targets.targets[path] { return target }
            visited.insert(role)
            guard let delegations = targets.delegations else { continue }
            var children: [(String, String)] = []
            for child in delegations.roles(for: path) {
                children.append((child.name, role))
                if child.terminating {
                    toVisit.removeAll()
                    break
                }
            }
            toVisit.append(contentsOf: children.reversed())
        }
        return nil
    }

    /// The file name under which a target is kept in a target directory: its path percent-encoded.
    public static func localName(of target: TargetFile) -> String { URLQuoting.quote(target.path) }

    /// The local copy of a target if it exists and matches the trusted length and hashes.
    public func cachedTarget(_ target: TargetFile, in directory: URL) -> URL? {
        guard let url = try? TargetLocation.localFile(of: target, in: directory),
            let data = try? Data(contentsOf: url), (try? target.verify(data)) != nil
        else { return nil }
        return url
    }

    /// Where `target` is served (5.7.3): under the target base URL, its path percent-encoded for a
    /// URL path, its file name prefixed with its first hash (`DIR/HASH.NAME`) when root says
    /// consistent snapshots and the configuration prefixes targets with their hash. Every name is
    /// checked (FileSystemKit's `RelativePath`): no path a key holder signs climbs out of the base.
    public func targetURL(for target: TargetFile) throws -> URL {
        guard let targetBaseURL else { throw TUFError.outOfOrder("no target base URL") }
        let prefix = trusted.root.consistentSnapshot && configuration.prefixTargetsWithHash ? target.hashes.first : nil
        let path = try TargetLocation.served(target, hashPrefix: prefix).string
        let encoded = path.percentEncodedForURLPath
        guard let url = URL(string: targetBaseURL + encoded) else {
            throw TUFError.download(url: targetBaseURL + encoded, reason: "not a valid URL")
        }
        return url
    }

    /// 5.7: downloads a target (from ``targetURL(for:)``), accepting at most its length, verifies
    /// its length and every hash (5.7.1, 5.7.3), and writes it atomically into `directory`
    /// under its path percent-encoded (5.7.3's FILENAME.EXT, ``localName(of:)``). 5.7.2, a target
    /// no trusted role lists, is ``targetInfo(for:)`` returning nil.
    @discardableResult
    public func download(_ target: TargetFile, to directory: URL) async throws -> URL {
        let url = try targetURL(for: target)
        log("fetching \(url.absoluteString) (\(target.length) bytes)")
        let data = try await fetcher.fetch(url, maximumLength: Int(clamping: target.length))
        try target.verify(data)
        let destination = try TargetLocation.localFile(of: target, in: directory)
        try AtomicWrite.write(data, to: destination)
        return destination
    }
}
