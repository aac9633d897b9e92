#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
import EssentialsSupport

/// The TUF client workflow (specification section 5) over a fetcher and a local metadata store.
///
/// `refresh()` brings root, timestamp, snapshot and top-level targets up to date (5.3–5.6);
/// `targetInfo(for:)` finds a target by a pre-order depth-first walk of the delegations;
/// `targetURL(for:)` is where a target is served (the one place its URL is built);
/// `download(_:to:)` fetches a target under its length cap and verifies its length and hashes.
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

    /// Updates root (following the chain of versions), timestamp, snapshot and top-level targets.
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

    private func loadRoot() async throws {
        // A root at the largest version has no next one; the range stops there rather than overflow.
        let current = trusted.root.header.version
        guard current < Int64.max, configuration.maximumRootRotations > 0 else { return }
        let first = current + 1
        let (end, overflow) = first.addingReportingOverflow(Int64(configuration.maximumRootRotations) - 1)
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
    public func targetInfo(for path: String) async throws -> TargetFile? {
        if !refreshed { try await refresh() }
        var toVisit: [(role: String, delegator: String)] = [(Targets.type, Root.type)]
        var visited: [(String, String)] = []
        var remaining = configuration.maximumDelegations
        while remaining > 0, let (role, delegator) = toVisit.popLast() {
            if visited.contains(where: { $0 == (role, delegator) }) { continue }
            let targets = try await loadTargets(role, delegator: delegator)
            if let target = targets.targets[path] { return target }
            visited.append((role, delegator))
            remaining -= 1
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

    /// Where `target` is served: under the target base URL, its path percent-encoded for a URL path,
    /// its file name prefixed with its first hash (`DIR/HASH.NAME`) when root says consistent snapshots
    /// and the configuration prefixes targets with their hash.
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

    /// Downloads a target (from ``targetURL(for:)``), accepting at most its length, verifies length and
    /// hashes, and writes it atomically into `directory`.
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
