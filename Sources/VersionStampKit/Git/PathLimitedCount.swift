/// `git rev-list --count [--first-parent] TIP -- PATH...` with git's default history
/// simplification (Documentation/rev-list-options.txt, "History Simplification"):
///
/// - a commit TREESAME to one of its parents (no change under the paths; parents tried in
///   order) is not counted, and the walk follows only that parent;
/// - a commit that differs from every parent is counted, and all its parents are followed;
/// - a root commit is counted when it holds something under the paths;
/// - with `--first-parent`, only the first parent is compared and followed.
///
/// With nothing uninteresting in the walk the order of visits does not change the answer, so
/// this walks depth-first; ranges (`TAG..HEAD`) go through `RangeWalk`, which follows git's
/// date order because there it matters.
enum PathLimitedCount {
    /// The number of commits counted in `tip`'s simplified walk.
    static func count(from tip: CommitGraph.Node, in graph: CommitGraph, filter: PathFilter,
                      firstParent: Bool) throws -> Int {
        var seen = [Bool](repeating: false, count: max(graph.nodeCount, Int(tip) + 1))
        seen[Int(tip)] = true
        var stack = [tip]
        var count = 0
        while let commit = stack.popLast() {
            let (followed, counted) = try step(commit, in: graph, filter: filter, firstParent: firstParent)
            if counted { count += 1 }
            for parent in followed {
                let p = Int(parent)
                if p >= seen.count { seen.append(contentsOf: repeatElement(false, count: p - seen.count + 4096)) }
                if !seen[p] {
                    seen[p] = true
                    stack.append(parent)
                }
            }
        }
        return count
    }

    /// One commit of the simplified walk: the parents it follows and whether it is counted.
    static func step(_ commit: CommitGraph.Node, in graph: CommitGraph, filter: PathFilter,
                     firstParent: Bool) throws -> (followed: [CommitGraph.Node], counted: Bool) {
        let parents = try graph.parents(commit)
        if parents.isEmpty { return ([], try !filter.isEmpty(commit)) }
        if firstParent { return ([parents[0]], try !filter.isSame(parents[0], commit)) }
        if let same = try parents.first(where: { try filter.isSame($0, commit) }) { return ([same], false) }
        return (parents, true)
    }
}
