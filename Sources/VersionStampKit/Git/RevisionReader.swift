import CGit2
import Foundation

/// Reads the facts about HEAD that the format tokens need, each computed at most once and
/// only when asked for (describe, the short id and the dirty check cost time on big
/// repositories).
///
/// Opening checks, in order: the repository exists, libgit2 can read it (extensions),
/// it is not shallow, HEAD has a commit. Each failure is a `VersionStampError` saying what to do.
public final class RevisionReader: @unchecked Sendable {
    let repository: GitRepository
    /// The commit HEAD points to.
    let head: git_oid
    private let lock = NSLock()
    private var info: RevisionInfo
    private var known: RevisionRequirements = []
    /// The commit-count cache under the git dir; nil when switched off.
    private let countCache: CommitCountCache?
    /// The history the facts are read over; its paths are relative to the repository root.
    public let query: RevisionQuery

    /// Opens the repository discovered from `start` (like `git -C START`; default: the current
    /// directory) and checks that its history can be read. `{count}` uses a cache under the
    /// git dir (see `CommitCountCache`) unless `useCountCache` is false or the environment
    /// sets `VERSIONSTAMP_COUNT_CACHE=0`. The `query`'s paths are relative to `start` (or
    /// absolute) and must lie inside the work tree.
    public init(discoveringFrom start: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
                query: RevisionQuery = RevisionQuery(), useCountCache: Bool = true) throws {
        repository = try GitRepository(discoveringFrom: start, environment: environment)
        self.query = try query.relativeToRoot(of: repository, from: start)
        countCache = useCountCache && environment["VERSIONSTAMP_COUNT_CACHE"] != "0"
            ? CommitCountCache(repository: repository) : nil
        let path = repository.displayPath
        if repository.isShallow {
            throw VersionStampError(.shallowClone,
                path: path,
                message: "the repository is a shallow clone: its history is incomplete, so the commit count would be wrong "
                    + "(and libgit2 cannot walk it); fetch the full history with 'git fetch --unshallow' "
                    + "(GitHub Actions: actions/checkout with 'fetch-depth: 0'), or set VERSIONSTAMP_VERSION")
        }
        if repository.isHeadUnborn {
            throw VersionStampError(.noCommits,
                path: path,
                message: "the repository has no commits yet (HEAD is unborn); commit first, or set VERSIONSTAMP_VERSION")
        }
        head = try repository.headCommitID()
        info = RevisionInfo(count: 0, sha: head.hex, short: "", isDirty: false, describe: "",
                            tag: nil, distance: 0, branch: "", commitTime: 0)
        known = .sha
    }

    /// The revision with (at least) the `requirements` filled in; other fields hold
    /// placeholders (0, empty) until asked for.
    public func revision(_ requirements: RevisionRequirements = .all) throws -> RevisionInfo {
        lock.lock()
        defer { lock.unlock() }
        let missing = requirements.subtracting(known)
        if missing.contains(.count) {
            info.count = try commitCount()
            known.insert(.count)
        }
        if missing.contains(.short) {
            info.short = try repository.shortID(head)
            known.insert(.short)
        }
        if missing.contains(.dirty) {
            info.isDirty = try repository.hasTrackedChanges()
            known.insert(.dirty)
        }
        if missing.contains(.branch) {
            info.branch = try branchName()
            known.insert(.branch)
        }
        if missing.contains(.commitTime) {
            info.commitTime = try repository.commitTime(head)
            known.insert(.commitTime)
        }
        if missing.contains(.describe) {
            try describe()
            known.insert(.describe)
        }
        return info
    }

    /// `git rev-list --count HEAD`.
    private func commitCount() throws -> Int {
        if let countCache { return try countCache.count(head, in: repository) }
        return try repository.countCommits(from: head)
    }

    /// `git describe --tags --long --always --dirty`, and the tag and distance it is made of.
    /// Called with the lock held; fills in the short id, dirty flag and count it needs.
    private func describe() throws {
        if !known.contains(.short) { info.short = try repository.shortID(head); known.insert(.short) }
        if !known.contains(.dirty) { info.isDirty = try repository.hasTrackedChanges(); known.insert(.dirty) }
        let suffix = info.isDirty ? "-dirty" : ""
        if let found = try repository.describeTags(head, matching: query.tagPattern) {
            info.tag = found.tag
            info.distance = found.distance
            info.describe = "\(found.tag)-\(found.distance)-g\(info.short)\(suffix)"
        } else {
            // `--long --always` with no tag: just the abbreviated id.
            if !known.contains(.count) { info.count = try commitCount(); known.insert(.count) }
            info.tag = nil
            info.distance = info.count
            info.describe = info.short + suffix
        }
    }

    /// `git rev-parse --abbrev-ref HEAD`: `HEAD` when detached, else the shortest unambiguous
    /// name of the branch (`heads/NAME` when a tag or `refs/NAME` has the same name).
    private func branchName() throws -> String {
        guard let full = try repository.headReferenceName() else { return "HEAD" }
        return ReferenceShortening.shortest(full) { repository.referenceExists($0) }
    }
}

/// git's `shorten_unambiguous_ref` (non-strict): the shortest name that the rev-parse rules
/// resolve back to the same reference.
enum ReferenceShortening {
    /// git's rev-parse rules, most general first: a name resolves to the first that exists.
    static let rules: [(prefix: String, suffix: String)] = [
        ("", ""), ("refs/", ""), ("refs/tags/", ""), ("refs/heads/", ""),
        ("refs/remotes/", ""), ("refs/remotes/", "/HEAD"),
    ]

    /// The shortest unambiguous name of `refname`, using `exists` to look references up.
    static func shortest(_ refname: String, exists: (String) -> Bool) -> String {
        for i in stride(from: rules.count - 1, to: 0, by: -1) {
            let rule = rules[i]
            guard refname.hasPrefix(rule.prefix), refname.hasSuffix(rule.suffix),
                  refname.count > rule.prefix.count + rule.suffix.count else { continue }
            let short = String(refname.dropFirst(rule.prefix.count).dropLast(rule.suffix.count))
            let ambiguous = rules[0..<i].contains { earlier in
                exists(earlier.prefix + short + earlier.suffix)
            }
            if !ambiguous { return short }
        }
        return refname
    }
}
