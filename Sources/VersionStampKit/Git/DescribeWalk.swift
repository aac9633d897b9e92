/// git's describe search (`git describe --tags [--first-parent]`, builtin/describe.c), on
/// the in-memory history:
///
/// 1. a tag on HEAD itself wins at distance 0;
/// 2. otherwise commits are visited newest first (committer date, then the order they were
///    queued); each tagged commit met becomes a candidate (at most 10) whose depth is the
///    number of visited commits it cannot reach; the search stops early once an annotated
///    candidate exists and the last queued path is covered by the best candidates;
/// 3. candidates are ranked by depth, then by the order they were found, and the winner's
///    depth is finished by walking on until only commits it reaches remain (all parents
///    here, even with `--first-parent`, as git 2.39 does).
enum DescribeWalk {
    /// The chosen tag and its depth (describe's `-N-g` number).
    struct Result: Equatable {
        var name: TagMatcher.Name
        var commit: CommitGraph.Node
        var depth: Int
    }

    private struct Candidate {
        var name: TagMatcher.Name
        var commit: CommitGraph.Node
        var depth: Int
        var within: UInt32
        var foundOrder: Int
    }

    static let maxCandidates = 10
    private static let seen: UInt32 = 1

    /// The description of `head`, nil when no tag in `names` is reachable.
    static func describe(_ head: CommitGraph.Node, in graph: CommitGraph,
                         names: [CommitGraph.Node: TagMatcher.Name], firstParent: Bool) throws -> Result? {
        if let exact = names[head] { return Result(name: exact, commit: head, depth: 0) }
        var flags = NodeFlags()
        flags[head] = seen
        var queue = DateQueue()
        queue.insert(head, date: try graph.date(head))
        var candidates: [Candidate] = []
        var annotated = 0
        var gaveUpOn: CommitGraph.Node?
        var seenCommits = 0
        while let commit = queue.pop() {
            seenCommits += 1
            if let name = names[commit] {
                if candidates.count < maxCandidates {
                    let within = UInt32(1) << UInt32(candidates.count + 1)
                    candidates.append(Candidate(name: name, commit: commit, depth: seenCommits - 1,
                                                within: within, foundOrder: candidates.count + 1))
                    flags[commit] |= within
                    if name.priority == 2 { annotated += 1 }
                } else {
                    gaveUpOn = commit
                    break
                }
            }
            let commitFlags = flags[commit]
            for k in candidates.indices where commitFlags & candidates[k].within == 0 { candidates[k].depth += 1 }
            if annotated > 0 && queue.isEmpty && coveredByBest(commitFlags, candidates) { break }
            for parent in try graph.parents(commit) {
                if flags[parent] & seen == 0 { queue.insert(parent, date: try graph.date(parent)) }
                flags[parent] |= commitFlags
                if firstParent { break }
            }
        }
        guard !candidates.isEmpty else { return nil }
        candidates.sort { ($0.depth, $0.foundOrder) < ($1.depth, $1.foundOrder) }
        var best = candidates[0]
        if let gaveUpOn { queue.insert(gaveUpOn, date: try graph.date(gaveUpOn)) }
        try finishDepth(&best, queue: &queue, flags: &flags, graph: graph)
        return Result(name: best.name, commit: best.commit, depth: best.depth)
    }

    private static func coveredByBest(_ commitFlags: UInt32, _ candidates: [Candidate]) -> Bool {
        var bestDepth = Int.max
        var bestWithin: UInt32 = 0
        for candidate in candidates {
            if candidate.depth < bestDepth {
                bestDepth = candidate.depth
                bestWithin = candidate.within
            } else if candidate.depth == bestDepth {
                bestWithin |= candidate.within
            }
        }
        return commitFlags & bestWithin == bestWithin
    }

    /// git's `finish_depth_computation`: walks on until every queued commit is reachable from
    /// the best candidate, counting the commits it cannot reach.
    private static func finishDepth(_ best: inout Candidate, queue: inout DateQueue,
                                    flags: inout NodeFlags, graph: CommitGraph) throws {
        while let commit = queue.pop() {
            let commitFlags = flags[commit]
            if commitFlags & best.within != 0 {
                if queue.nodes.allSatisfy({ flags[$0] & best.within != 0 }) { break }
            } else {
                best.depth += 1
            }
            for parent in try graph.parents(commit) {
                if flags[parent] & seen == 0 { queue.insert(parent, date: try graph.date(parent)) }
                flags[parent] |= commitFlags
            }
        }
    }
}

/// Per-commit flag bits in an array indexed by node (0 for a commit not yet flagged).
struct NodeFlags {
    private var bits: [UInt32] = []

    subscript(node: CommitGraph.Node) -> UInt32 {
        get { Int(node) < bits.count ? bits[Int(node)] : 0 }
        set {
            if Int(node) >= bits.count { bits.append(contentsOf: repeatElement(0, count: Int(node) - bits.count + 1024)) }
            bits[Int(node)] = newValue
        }
    }
}
