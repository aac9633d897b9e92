import CGit2
import FileSystemKit
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
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

/// Everything the format tokens can say about HEAD. Each field equals git's own answer for the
/// same repository (the git command is named on each).
public struct RevisionInfo: Equatable, Sendable {
    /// `git rev-list --count HEAD`
    public var count: Int
    /// `git rev-parse HEAD`
    public var sha: String
    /// `git rev-parse --short HEAD` (git's auto-abbreviation, at least 7 digits)
    public var short: String
    /// Tracked files differ from HEAD (index or work tree); untracked files and submodules ignored.
    public var isDirty: Bool
    /// `git describe --tags --long --always --dirty`
    public var describe: String
    /// Nearest tag (`git describe --tags`), nil when there is none.
    public var tag: String?
    /// Commits since `tag`, or `count` when there is no tag.
    public var distance: Int
    /// `git rev-parse --abbrev-ref HEAD`: the branch name, `HEAD` when detached.
    public var branch: String
    /// Committer time of HEAD, Unix seconds (`git log -1 --format=%ct`).
    public var commitTime: UInt64

    /// A revision with every field given (for rendering without a repository).
    public init(
        count: Int, sha: String, short: String, isDirty: Bool, describe: String,
        tag: String?, distance: Int, branch: String, commitTime: UInt64
    ) {
        self.count = count
        self.sha = sha
        self.short = short
        self.isDirty = isDirty
        self.describe = describe
        self.tag = tag
        self.distance = distance
        self.branch = branch
        self.commitTime = commitTime
    }
}

/// Which facts about HEAD a format needs; the reader computes only these.
public struct RevisionRequirements: OptionSet, Sendable {
    /// The bits of the set.
    public let rawValue: Int
    /// The set with these bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `{count}`: the commit count.
    public static let count = RevisionRequirements(rawValue: 1 << 0)
    /// `{sha}`: the commit id.
    public static let sha = RevisionRequirements(rawValue: 1 << 1)
    /// `{short}`: the abbreviated id.
    public static let short = RevisionRequirements(rawValue: 1 << 2)
    /// `{dirty}`: whether tracked files changed.
    public static let dirty = RevisionRequirements(rawValue: 1 << 3)
    /// `{describe}`, `{tag}`, `{distance}`: the nearest tag.
    public static let describe = RevisionRequirements(rawValue: 1 << 4)
    /// `{branch}`: the branch name.
    public static let branch = RevisionRequirements(rawValue: 1 << 5)
    /// `{date}`, `{timestamp}`: the committer time.
    public static let commitTime = RevisionRequirements(rawValue: 1 << 6)
    /// `{tag}` and `{distance}` (and what is read from the tag, such as a version number)
    /// without the `{describe}` string: the nearest tag and the distance to it, but neither
    /// the abbreviated id nor the dirty check (a stat of every tracked file) that only the
    /// string needs. `.describe` includes it.
    public static let nearestTag = RevisionRequirements(rawValue: 1 << 7)
    /// Every fact.
    public static let all: RevisionRequirements = [.count, .sha, .short, .dirty, .describe, .branch, .commitTime]
}

/// Which history the revision facts are read over: the release-numbering options that
/// change what `{count}`, `{tag}`, `{distance}`, `{version}` and `{describe}` mean.
///
/// The default query reads the whole history, as `git rev-list --count HEAD` and
/// `git describe --tags` do.
public struct RevisionQuery: Hashable, Sendable {
    /// Only tags whose name matches this glob count (`git describe --match GLOB`); nil: all tags.
    public var tagPattern: String?
    /// Follow first parents only (`git rev-list --first-parent`).
    public var firstParent: Bool
    /// Count only commits that touch one of these paths, relative to the repository root
    /// (`git rev-list HEAD -- PATH...`, with git's history simplification). Empty: all commits.
    public var paths: [String]

    /// Creates a query; the defaults read the whole history.
    public init(tagPattern: String? = nil, firstParent: Bool = false, paths: [String] = []) {
        self.tagPattern = tagPattern
        self.firstParent = firstParent
        self.paths = paths
    }
}

extension RevisionQuery {
    /// The query with each path made relative to the work tree's root (`git -C START rev-list
    /// HEAD -- PATH` reads PATH relative to START): a relative path is taken from `start` (the
    /// current directory when nil), an absolute one as is; `.` and `..` are resolved, and the
    /// root itself becomes `.`. Throws when a path lies outside the work tree or the repository
    /// is bare, and for a path git would read as a pattern (`*`, `?`, `[`) or pathspec magic (a
    /// leading `:`): refused rather than counted differently from git.
    func relativeToRoot(of repository: GitRepository, from start: String?) throws -> RevisionQuery {
        guard !paths.isEmpty else { return self }
        guard let workDirectory = repository.workDirectory else {
            throw VersionStampError(
                .pathOutsideRepository, path: repository.displayPath,
                message: "--path needs a work tree, and this repository is bare")
        }
        let root = Self.canonical(workDirectory)
        let base = Self.canonical(start ?? FileManager.default.currentDirectoryPath)
        var resolved = self
        resolved.paths = try paths.map { path in
            let relative = try Self.relative(path, root: root, base: base)
            if relative.contains(where: { "*?[".contains($0) }) || relative.hasPrefix(":") {
                throw VersionStampError(
                    .usage, path: path,
                    message: "the path contains a pattern character (* ? [) or starts with ':', "
                        + "which git would read as a pathspec pattern; --path takes a directory or file")
            }
            return relative
        }
        return resolved
    }

    /// `path` relative to `root` (both canonical), `.` for the root itself.
    private static func relative(_ path: String, root: String, base: String) throws -> String {
        let absolute = LexicalPath.normalized(path.hasPrefix("/") ? path : base + "/" + path)
        if canonical(absolute) == root { return "." }
        // The last component is kept as written: a symbolic link in the work tree is a path
        // of its own to git, wherever it points.
        let parent = canonicalExistingPrefix(PathText.deletingLastComponent(absolute))
        let full = (parent == "/" ? "" : parent) + "/" + PathText.lastComponent(absolute)
        guard full.hasPrefix(root == "/" ? "/" : root + "/") else {
            throw VersionStampError(
                .pathOutsideRepository, path: path,
                message: "the path is outside the repository at \(root); --path must name a directory or file inside it"
            )
        }
        return String(full.dropFirst(root == "/" ? 1 : root.count + 1))
    }

    /// `path` with symbolic links resolved (as libgit2 reports the work tree), or as given.
    private static func canonical(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return LexicalPath.normalized(path) }
        defer { free(real) }
        return String(cString: real)
    }

    /// An absolute path whose existing leading part has its symbolic links resolved; the rest
    /// (a directory that no longer exists still names history) is kept as written.
    private static func canonicalExistingPrefix(_ path: String) -> String {
        var existing = path
        var rest: [String] = []
        while existing != "/", !FileManager.default.fileExists(atPath: existing) {
            rest.insert(PathText.lastComponent(existing), at: 0)
            existing = PathText.deletingLastComponent(existing)
        }
        let head = canonical(existing)
        return rest.isEmpty ? head : (head == "/" ? "" : head) + "/" + rest.joined(separator: "/")
    }
}
