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
