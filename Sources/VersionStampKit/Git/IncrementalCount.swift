/// A count of HEAD derived from the cached count of another commit X:
/// `count(HEAD) = count(X) + counted(S(HEAD) − S(X)) − counted(S(X) − S(HEAD))`, where S(C) is
/// the set a walk from C visits. Each commit's step (the parents it follows, whether it is
/// counted) depends only on the commit, so S(C) is fixed by C and the two differences are found
/// by walking from both, newest first, marking what each reaches, until every queued commit is
/// reached by both: everything below is in both sets.
///
/// A commit dated before one of its descendants (clock skew) could be visited before all its
/// marks arrive; a mark reaching a commit already visited gives up (nil), as does a walk of
/// more than `budget` commits: the caller then walks HEAD's history in full.
enum IncrementalCount {
    /// `count(head) - count(base)`, or nil when it cannot be trusted.
    static func difference(head: CommitGraph.Node, base: CommitGraph.Node, graph: CommitGraph, budget: Int,
                           step: (CommitGraph.Node) throws -> (followed: [CommitGraph.Node], counted: Bool)) throws -> Int? {
        let fromHead: UInt8 = 1, fromBase: UInt8 = 2, both: UInt8 = 3
        var marks: [CommitGraph.Node: UInt8] = [head: fromHead]
        marks[base, default: 0] |= fromBase
        var visited = Set<CommitGraph.Node>()
        var queue = DateQueue()
        var single = 0  // queued commits reached from one side only
        for start in Set([head, base]) {
            queue.insert(start, date: try graph.date(start))
            if marks[start] != both { single += 1 }
        }
        var difference = 0
        while single > 0, let commit = queue.pop() {
            let mark = marks[commit]!
            if mark != both { single -= 1 }
            visited.insert(commit)
            if visited.count > budget { return nil }
            let (followed, counted) = try step(commit)
            if counted && mark == fromHead { difference += 1 }
            if counted && mark == fromBase { difference -= 1 }
            for parent in followed {
                let old = marks[parent] ?? 0
                let new = old | mark
                if new == old { continue }
                if visited.contains(parent) { return nil }  // a mark after the visit: clock skew
                marks[parent] = new
                if old == 0 {
                    queue.insert(parent, date: try graph.date(parent))
                    if new != both { single += 1 }
                } else if new == both {
                    single -= 1  // queued with one mark, now both
                }
            }
        }
        return difference
    }
}
