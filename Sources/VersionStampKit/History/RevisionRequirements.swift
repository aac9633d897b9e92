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
