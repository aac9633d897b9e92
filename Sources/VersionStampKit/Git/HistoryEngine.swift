import CGit2

/// The history answers of one `RevisionQuery`, each equal to git's:
/// - count: `git rev-list --count [--first-parent] HEAD [-- PATH...]`;
/// - describe: `git describe --tags [--first-parent] [--match GLOB]`'s tag and depth;
/// - distance: the depth, or with `--first-parent` or paths
///   `git rev-list --count [--first-parent] TAG..HEAD [-- PATH...]`.
///
/// The history is read lazily into one `CommitGraph` shared by all three.
final class HistoryEngine {
    /// The answer of describe for HEAD.
    struct Description: Equatable {
        /// The tag's name as describe prints it.
        var tag: String
        /// The tagged commit.
        var tagCommit: String
        /// describe's distance (`TAG-DEPTH-gSHORT`).
        var depth: Int
        /// `{distance}`: the depth, or the counted range when the query limits counting.
        var distance: Int
    }

    let repository: GitRepository
    let query: RevisionQuery
    /// The query's paths, normalised relative to the repository root.
    let paths: [String]
    private var loadedGraph: CommitGraph?
    private var loadedFilter: PathFilter?

    /// An engine for `query`; throws when a path lies outside the repository.
    init(repository: GitRepository, query: RevisionQuery) throws {
        self.repository = repository
        self.query = query
        paths = try query.paths.map { try PathFilter.normalize($0, root: repository.workDirectory) }
    }

    /// The error for a `{version}` that needs a tag when none matches: the one throw site
    /// for it, so callers report it alike.
    static func missingTagError(pattern: String?) -> VersionStampError {
        if let pattern {
            return VersionStampError(message: "no tag matching '\(pattern)' is reachable from HEAD, so there is no version to read; "
                + "tag a release (git tag -a v1.0.0) or change --tag-pattern")
        }
        return VersionStampError(message: "no tag is reachable from HEAD, so there is no version to read; tag a release (git tag -a v1.0.0)")
    }

    private func graph() throws -> CommitGraph {
        if let loadedGraph { return loadedGraph }
        let graph = CommitGraph(store: try ObjectStore(repository: repository))
        loadedGraph = graph
        return graph
    }

    private func filter() throws -> PathFilter? {
        if paths.isEmpty { return nil }
        if let loadedFilter { return loadedFilter }
        let filter = PathFilter(graph: try graph(), paths: paths)
        loadedFilter = filter
        return filter
    }

    /// `git rev-list --count [--first-parent] HEAD [-- PATH...]`.
    func count(head: git_oid) throws -> Int {
        let graph = try graph()
        if let filter = try filter() {
            let tip = graph.node(ObjectID(head)).node
            return try PathLimitedCount.count(from: tip, in: graph, filter: filter, firstParent: query.firstParent)
        }
        return query.firstParent ? try graph.countFirstParents(from: ObjectID(head))
            : try graph.countReachable(from: ObjectID(head))
    }

    /// The nearest matching tag of HEAD, nil when none is reachable.
    func describe(head: git_oid) throws -> Description? {
        let graph = try graph()
        let tagged = try TagMatcher(pattern: query.tagPattern).names(in: repository)
        var names: [CommitGraph.Node: TagMatcher.Name] = [:]
        for (commit, name) in tagged { names[graph.node(commit).node] = name }
        let tip = graph.node(ObjectID(head)).node
        guard let found = try DescribeWalk.describe(tip, in: graph, names: names, firstParent: query.firstParent) else {
            return nil
        }
        var distance = found.depth
        if query.firstParent || !paths.isEmpty {
            distance = try RangeWalk.count(bottom: found.commit, tip: tip, graph: graph, filter: try filter(),
                                           firstParent: query.firstParent)
        }
        return Description(tag: found.name.display, tagCommit: graph.ids[Int(found.commit)].hex,
                           depth: found.depth, distance: distance)
    }
}
