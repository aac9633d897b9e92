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
    /// Where answers are remembered between runs; nil: always computed.
    let cache: HistoryAnswerCache?
    private var loadedGraph: CommitGraph?
    private var loadedFilter: PathFilter?

    /// An engine for `query`; throws when a path lies outside the repository.
    init(repository: GitRepository, query: RevisionQuery, cache: HistoryAnswerCache? = nil) throws {
        self.repository = repository
        self.query = query
        self.cache = cache
        paths = try query.paths.map { try PathFilter.normalize($0, root: repository.workDirectory) }
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
    ///
    /// Cached by `OPTIONS-COMMIT`. When HEAD moved since a cached commit, the count is derived
    /// from that commit's (`IncrementalCount`), else walked in full.
    func count(head: git_oid) throws -> Int {
        let options = HistoryAnswerCache.key(["count", query.firstParent ? "first-parent" : "all"] + paths)
        let key = options + "-" + head.hex
        if let known = cache?.value(for: key).flatMap(Int.init) { return known }
        var count: Int?
        for (otherKey, value) in (cache?.entries(withPrefix: options + "-") ?? []).prefix(3) {
            guard let base = Int(value), let baseID = git_oid(hex: String(otherKey.dropFirst(options.count + 1))),
                  let added = try? countSince(head: head, base: ObjectID(baseID)) else { continue }
            count = base + added
            break
        }
        let result = try count ?? walkCount(head: head)
        cache?.store(String(result), for: key)
        return result
    }

    /// `count(HEAD) - count(base)` (see `IncrementalCount`); nil when it cannot be derived.
    private func countSince(head: git_oid, base: ObjectID, budget: Int = 25_000) throws -> Int? {
        let graph = try graph()
        let tip = graph.node(ObjectID(head)).node, other = graph.node(base).node
        if let filter = try filter() {
            let firstParent = query.firstParent
            return try IncrementalCount.difference(head: tip, base: other, graph: graph, budget: budget) { commit in
                try PathLimitedCount.step(commit, in: graph, filter: filter, firstParent: firstParent)
            }
        }
        guard query.firstParent else { return nil }  // the whole-history count has its own cache
        return try IncrementalCount.difference(head: tip, base: other, graph: graph, budget: budget) { commit in
            (try graph.firstParent(commit).map { [$0] } ?? [], true)
        }
    }

    private func walkCount(head: git_oid) throws -> Int {
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
        let matcher = TagMatcher(pattern: query.tagPattern)
        let references = try matcher.matchingReferences(in: repository)
        let fingerprint = HistoryAnswerCache.key(references.map { "\($0.name) \($0.target.hex)" })
        let key = HistoryAnswerCache.key(["describe", head.hex, query.firstParent ? "first-parent" : "all",
                                          query.tagPattern.map { "match " + $0 } ?? "all tags", fingerprint] + paths)
        if let known = cache?.value(for: key) {
            if known == "-" { return nil }  // cached: no matching tag is reachable
            if let cached = Description(cacheValue: known) { return cached }
        }
        let found = try search(head: head, names: try matcher.names(of: references, in: repository))
        cache?.store(Description.cacheValue(found), for: key)
        return found
    }

    private func search(head: git_oid, names tagged: [ObjectID: TagMatcher.Name]) throws -> Description? {
        let graph = try graph()
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

extension HistoryEngine.Description {
    /// `-` for no tag, else `TAG-AS-HEX,DEPTH,DISTANCE,COMMIT` (a tag object's name may hold
    /// any byte but NUL, so it is stored as hex).
    static func cacheValue(_ description: HistoryEngine.Description?) -> String {
        guard let description else { return "-" }
        let name = description.tag.utf8.map { String(format: "%02x", $0) }.joined()
        return "\(name),\(description.depth),\(description.distance),\(description.tagCommit)"
    }

    /// Parses a cached value other than `-`; nil when malformed.
    init?(cacheValue value: String) {
        let fields = value.split(separator: ",").map(String.init)
        guard fields.count == 4, fields[0].count % 2 == 0, let depth = Int(fields[1]), let distance = Int(fields[2]) else { return nil }
        var bytes: [UInt8] = []
        var index = fields[0].startIndex
        while index < fields[0].endIndex {
            let next = fields[0].index(index, offsetBy: 2)
            guard let byte = UInt8(fields[0][index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(tag: String(decoding: bytes, as: UTF8.self), tagCommit: fields[3], depth: depth, distance: distance)
    }
}
