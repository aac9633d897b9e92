import CGit2
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
import EssentialsSupport

/// Reads the facts about HEAD that the format tokens need, each computed at most once and
/// only when asked for (describe, the short id and the dirty check cost time on big
/// repositories).
///
/// Opening checks, in order: the repository exists, libgit2 can read it (extensions), HEAD
/// has a commit. Each failure is a `VersionStampError` saying what to do.
/// The history answers (`{count}`, `{tag}`, `{distance}`, describe's tag) come from the
/// `HistoryEngine`; the rest from libgit2 (`GitRepository`).
///
/// A shallow clone (CI's default `--depth 1` checkout) is read as far as it is complete:
/// `{sha}`, `{short}`, `{branch}`, `{dirty}`, `{date}` and `{timestamp}` need HEAD alone and are
/// answered; the history answers are refused (`shallowClone`), since the history is cut.
public final class RevisionReader: @unchecked Sendable {
    let repository: GitRepository
    /// The commit HEAD points to.
    let head: git_oid
    private let lock = Lock()
    private var info: RevisionInfo
    private var known: RevisionRequirements = []
    /// The history the facts are read over; its paths are relative to the repository root.
    public let query: RevisionQuery
    /// The history engine answering for `query`.
    private let engine: HistoryEngine
    /// The nearest tag once read (`nearestTag()`).
    private var nearest: HistoryEngine.Description?
    /// The environment git runs with where libgit2 cannot answer (`GitFallback`).
    private let environment: [String: String]

    /// Opens the repository discovered from `start` (like `git -C START`; default: the current
    /// directory) and checks that its history can be read. `query` limits the history the
    /// counts and the tag are read over (tag pattern, first parent, paths); its paths are
    /// relative to `start` (or absolute) and must lie inside the work tree. History answers are
    /// remembered where `caching` says (under the git dir by default), unless the environment
    /// sets `VERSIONSTAMP_COUNT_CACHE=0`.
    public init(
        discoveringFrom start: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        query: RevisionQuery = RevisionQuery(), caching: HistoryCaching = .inGitDirectory
    ) throws {
        repository = try GitRepository(discoveringFrom: start, environment: environment)
        self.environment = environment
        self.query = try query.relativeToRoot(of: repository, from: start)
        let path = repository.displayPath
        if repository.isHeadUnborn {
            throw VersionStampError(
                .noCommits,
                path: path,
                message: "the repository has no commits yet (HEAD is unborn); commit first, or set VERSIONSTAMP_VERSION"
            )
        }
        head = try repository.headCommitID()
        let cache = environment["VERSIONSTAMP_COUNT_CACHE"] == "0" ? nil : HistoryCache(caching, repository: repository)
        engine = HistoryEngine(
            repository: repository, query: self.query, givenPaths: query.paths, head: ObjectID(head), cache: cache)
        info = RevisionInfo(
            count: 0, sha: head.hex, short: "", isDirty: false, describe: "",
            tag: nil, distance: 0, branch: "", commitTime: 0)
        known = .sha
    }

    /// The revision with (at least) the `requirements` filled in; other fields hold
    /// placeholders (0, empty) until asked for.
    public func revision(_ requirements: RevisionRequirements = .all) throws -> RevisionInfo {
        lock.lock()
        defer { lock.unlock() }
        let missing = requirements.subtracting(known)
        if missing.contains(.count) { try readCount() }
        if missing.contains(.short) { try readShortID() }
        if missing.contains(.dirty) { try readDirty() }
        if missing.contains(.branch) {
            info.branch = try repository.branchName()
            known.insert(.branch)
        }
        if missing.contains(.commitTime) {
            info.commitTime = try committerTime()
            known.insert(.commitTime)
        }
        if missing.contains(.nearestTag) { try nearestTag() }
        if missing.contains(.describe) {
            try describe()
            known.insert(.describe)
        }
        return info
    }

    // The readers below are called with the lock held, each at most once.

    /// Throws for a shallow clone: its history stops at the shallow boundary, so a count or a
    /// nearest tag read there would be wrong.
    private func requireWholeHistory() throws {
        guard repository.isShallow else { return }
        throw VersionStampError(
            .shallowClone,
            path: repository.displayPath,
            message:
                "the repository is a shallow clone: its history is incomplete, so the commit count would be wrong; "
                + "fetch the full history with 'git fetch --unshallow' (GitHub Actions: actions/checkout with 'fetch-depth: 0'), "
                + "or set VERSIONSTAMP_VERSION ({sha}, {short}, {branch}, {dirty}, {date} and {timestamp} need no history)"
        )
    }

    private func readCount() throws {
        if known.contains(.count) { return }
        try requireWholeHistory()
        info.count = try engine.count()
        known.insert(.count)
    }

    private func readShortID() throws {
        if known.contains(.short) { return }
        info.short = try repository.shortID(head)
        known.insert(.short)
    }

    private func readDirty() throws {
        if known.contains(.dirty) { return }
        // libgit2 peels HEAD to its tree for the status unless given the tree; where it cannot
        // parse HEAD (a date beyond its range), the history reader's tree is given.
        let headTree = repository.canParseCommit(head) ? nil : try engine.headCommit().tree
        info.isDirty = try repository.hasTrackedChanges(headTree: headTree, environment: environment)
        known.insert(.dirty)
    }

    /// HEAD's committer time, as `git log -1 --format=%ct` prints it: libgit2's, or where
    /// libgit2 rejects the commit (git 2.39 writes 1970-01-01T00:30+0100 as 2^64-1800) or
    /// reads a time before 1970 (a signed one, which git does not read), the history
    /// reader's, which reads the date as git does. Throws where git prints no time.
    private func committerTime() throws -> UInt64 {
        if repository.canParseCommit(head), let time = try? repository.commitTime(head), time >= 0 {
            return UInt64(time)
        }
        guard let time = try engine.headCommit().time else { throw Self.noCommitterTime(head) }
        return time
    }

    /// HEAD's committer line holds no time git prints (`CommitterTime`): a date before 1970,
    /// or none; `{date}` and `{timestamp}` refuse it rather than print a number git would not.
    static func noCommitterTime(_ head: git_oid) -> VersionStampError {
        VersionStampError(
            .gitFailure,
            message: "HEAD's commit \(head.hex) has no committer date git can read (a date before 1970, or none), "
                + "so 'git log -1 --format=%ct' prints nothing; {date} and {timestamp} cannot be given: "
                + "leave them out of the format, or set VERSIONSTAMP_VERSION")
    }

    /// `git describe --tags --long --always --dirty`, and the tag and distance it is made of.
    private func describe() throws {
        try nearestTag()
        try readShortID()
        try readDirty()
        let suffix = info.isDirty ? "-dirty" : ""
        if let found = nearest, let tag = info.tag {
            info.describe = "\(tag)-\(found.depth)-g\(info.short)\(suffix)"
        } else {
            info.describe = info.short + suffix // `--long --always` with no tag: just the abbreviated id
        }
    }

    /// `{tag}` and `{distance}` alone (the `.nearestTag` requirement): no short id or dirty
    /// check, which only the `{describe}` string needs.
    private func nearestTag() throws {
        if known.contains(.nearestTag) { return }
        try requireWholeHistory()
        nearest = try engine.describe()
        if let found = nearest {
            info.tag = found.tag
            info.distance = found.distance
        } else {
            try readCount()
            info.tag = nil
            info.distance = info.count
        }
        known.insert(.nearestTag)
    }
}
