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
