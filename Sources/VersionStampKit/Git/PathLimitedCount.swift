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
    /// With `barrier`, the walk stops at that commit (neither counted nor followed) and gives
    /// nil when it reaches a root commit or walks more than the budget.
    static func count(from tip: CommitGraph.Node, in graph: CommitGraph, filter: PathFilter,
                      firstParent: Bool, barrier: (node: CommitGraph.Node, budget: Int)? = nil) throws -> Int? {
        var seen = [Bool](repeating: false, count: max(graph.nodeCount, Int(tip) + 1))
        seen[Int(tip)] = true
        var stack = [tip]
        var count = 0
        var walked = 0
        while let commit = stack.popLast() {
            if let barrier {
                if commit == barrier.node { continue }
                walked += 1
                if walked > barrier.budget { return nil }
            }
            let parents = try graph.parents(commit)
            var followed = parents
            if parents.isEmpty {
                if barrier != nil { return nil }
                if try !filter.isEmpty(commit) { count += 1 }
            } else if firstParent {
                followed = [parents[0]]
                if try !filter.isSame(parents[0], commit) { count += 1 }
            } else if let same = try parents.first(where: { try filter.isSame($0, commit) }) {
                followed = [same]
            } else {
                count += 1
            }
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
}
