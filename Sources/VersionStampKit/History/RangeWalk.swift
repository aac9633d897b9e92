/// `git rev-list --count [--first-parent] BOTTOM..TIP [-- PATH...]`, walked as git's
/// `limit_list` walks it.
///
/// With an uninteresting bottom the order of visits matters: whether a parent is already
/// known to be uninteresting when its child is simplified decides which parent the walk
/// follows, and which commits are still taken for interesting when the walk stops. So this
/// follows git step by step: the date-ordered list, the flags (uninteresting, bottom, seen,
/// added, TREESAME), parent lists rewritten by simplification, marking only through commits
/// already parsed, and the stop after five uninteresting commits in a row (`SLOP`).
final class RangeWalk {
    private static let uninteresting: UInt8 = 1, bottom: UInt8 = 2, seen: UInt8 = 4
    private static let added: UInt8 = 8, treesame: UInt8 = 16, parsed: UInt8 = 32
    private static let slopLimit = 5

    private let graph: CommitGraph
    private let filter: PathFilter?
    private let firstParent: Bool
    private var flags: [UInt8] = []
    private var rewritten: [CommitGraph.Node: [CommitGraph.Node]] = [:]
    private var queue = DateQueue()
    private var interestingCache: CommitGraph.Node?

    private init(graph: CommitGraph, filter: PathFilter?, firstParent: Bool) {
        self.graph = graph
        self.filter = filter
        self.firstParent = firstParent
    }

    /// The number of commits git lists for `BOTTOM..TIP` with these options.
    static func count(
        bottom: CommitGraph.Node, tip: CommitGraph.Node, graph: CommitGraph,
        filter: PathFilter?, firstParent: Bool
    ) throws -> Int {
        try RangeWalk(graph: graph, filter: filter, firstParent: firstParent).run(bottom: bottom, tip: tip)
    }

    private func run(bottom: CommitGraph.Node, tip: CommitGraph.Node) throws -> Int {
        try parse(bottom)
        set(bottom, Self.uninteresting | Self.bottom)
        try markParentsUninteresting(bottom)
        try parse(tip)
        for start in [bottom, tip] where !has(start, Self.seen) {
            set(start, Self.seen)
            queue.insert(start, date: try graph.date(start))
        }
        var date = Int64.max
        var slop = Self.slopLimit
        var listed: [CommitGraph.Node] = []
        while let commit = queue.pop() {
            if commit == interestingCache { interestingCache = nil }
            try processParents(commit)
            if has(commit, Self.uninteresting) {
                try markParentsUninteresting(commit)
                slop = stillInteresting(after: date, slop: slop)
                if slop > 0 { continue }
                break
            }
            date = try graph.date(commit)
            listed.append(commit)
        }
        return listed.filter { !has($0, Self.uninteresting) && !has($0, Self.treesame) }.count
    }

    private func has(_ node: CommitGraph.Node, _ flag: UInt8) -> Bool {
        Int(node) < flags.count && flags[Int(node)] & flag != 0
    }

    private func set(_ node: CommitGraph.Node, _ flag: UInt8) {
        if Int(node) >= flags.count { flags.append(contentsOf: repeatElement(0, count: Int(node) - flags.count + 256)) }
        flags[Int(node)] |= flag
    }

    private func parse(_ node: CommitGraph.Node) throws {
        try graph.load(node, full: true)
        set(node, Self.parsed)
    }

    private func currentParents(_ node: CommitGraph.Node) throws -> [CommitGraph.Node] {
        if let parents = rewritten[node] { return parents }
        return try graph.parents(node)
    }

    /// Counted as relevant: interesting, or the bottom itself.
    private func isRelevant(_ node: CommitGraph.Node) -> Bool {
        !has(node, Self.uninteresting) || has(node, Self.bottom)
    }

    private func enqueue(_ node: CommitGraph.Node) throws {
        if has(node, Self.seen) { return }
        set(node, Self.seen)
        queue.insert(node, date: try graph.date(node))
    }

    private func processParents(_ commit: CommitGraph.Node) throws {
        if has(commit, Self.added) { return }
        set(commit, Self.added)
        if has(commit, Self.uninteresting) {
            for parent in try currentParents(commit) {
                set(parent, Self.uninteresting)
                try parse(parent)
                if try !currentParents(parent).isEmpty { try markParentsUninteresting(parent) }
                try enqueue(parent)
            }
            return
        }
        if let filter { try simplify(commit, filter) }
        for parent in try currentParents(commit) {
            try parse(parent)
            try enqueue(parent)
            if firstParent { break }
        }
    }

    /// git's `try_to_simplify_commit`: sets TREESAME, and cuts the parents to the first
    /// relevant one the commit is TREESAME to.
    private func simplify(_ commit: CommitGraph.Node, _ filter: PathFilter) throws {
        let parents = try currentParents(commit)
        if parents.isEmpty {
            if try filter.isEmpty(commit) { set(commit, Self.treesame) }
            return
        }
        var relevantParents = 0, relevantChange = false, irrelevantChange = false
        for (n, parent) in parents.enumerated() {
            if isRelevant(parent) { relevantParents += 1 }
            if n == 1 && firstParent { break }
            try parse(parent)
            if try filter.isSame(parent, commit) {
                if !isRelevant(parent) { continue }
                rewritten[commit] = [parent]
                set(commit, Self.treesame)
                return
            }
            if isRelevant(parent) { relevantChange = true } else { irrelevantChange = true }
        }
        if relevantParents > 0 ? !relevantChange : !irrelevantChange { set(commit, Self.treesame) }
    }

    private func markParentsUninteresting(_ commit: CommitGraph.Node) throws {
        var pending = try currentParents(commit)
        pending.reverse() // popped in parent order
        while let node = pending.popLast() {
            if has(node, Self.uninteresting) { continue }
            set(node, Self.uninteresting)
            if has(node, Self.parsed) { pending.append(contentsOf: try currentParents(node).reversed()) }
        }
    }

    /// git's `still_interesting`: how much longer to walk once only uninteresting commits
    /// are being popped.
    private func stillInteresting(after date: Int64, slop: Int) -> Int {
        guard let first = queue.first else { return 0 }
        if date <= first.date { return Self.slopLimit }
        if let cached = interestingCache, !has(cached, Self.uninteresting) { return Self.slopLimit }
        if let interesting = queue.nodes.first(where: { !has($0, Self.uninteresting) }) {
            interestingCache = interesting
            return Self.slopLimit
        }
        return slop - 1
    }
}
