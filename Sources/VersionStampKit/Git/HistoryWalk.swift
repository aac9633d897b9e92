import CGit2

/// Entry points of the history engine for the existing reader: whole-history counts read
/// through the engine's own object store (faster than a libgit2 revision walk).
enum HistoryWalk {
    /// `git rev-list --count TIP`.
    static func countAll(from tip: git_oid, in repository: GitRepository) throws -> Int {
        let graph = CommitGraph(store: try ObjectStore(repository: repository))
        return try graph.countReachable(from: ObjectID(tip))
    }
}
