#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import EssentialsSupport

/// versionstamp's own reader of git history. Every history answer of a `RevisionQuery` comes
/// from here, read over one `CommitGraph` per run and remembered in one `HistoryCache`, and each
/// equals git's:
/// - count (`{count}`): `git rev-list --count [--first-parent] HEAD [-- PATH...]`;
/// - describe (`{tag}`, `{describe}`, `{version}`): `git describe --tags [--first-parent]
///   [--match GLOB]`'s tag and depth;
/// - distance (`{distance}`): the depth, or with `--first-parent` or paths
///   `git rev-list --count [--first-parent] TAG..HEAD [-- PATH...]`;
/// - a count for a HEAD that moved since a cached count, derived from it (see `difference`).
///
/// ## Why a history reader of its own
/// - Speed. libgit2 1.5 (Debian's) ignores the commit-graph file that git writes and parses
///   every commit whole, so a cold revision walk of a long history takes several times
///   `git rev-list --count`'s time (docs/Performance.md). Here commits are read straight from the
///   packs (`ObjectStore`, `PackFile`), only as far as the lines a walk needs (parents, then
///   the committer date), and a warm run reads the answer from the cache without opening the
///   object database at all.
/// - Parity with git. libgit2 has no history simplification (`rev-list HEAD -- PATH`), no
///   first-parent describe and no `TAG..HEAD` range with paths. These are git 2.39's algorithms
///   transcribed, with their orders and stopping rules: the simplified walk below, `RangeWalk`
///   (`limit_list`), `DescribeWalk` (builtin/describe.c) and `DateQueue` (the date-ordered
///   commit list). The oracle tests compare every answer with git's on built and random
///   histories.
///
/// ## What it covers, and what stays with libgit2
/// It reads commits and trees: packed objects (whole or deltified, in every object directory)
/// itself, loose objects through libgit2's object database. libgit2 remains where it is
/// the right tool: discovering and opening the repository (extensions, ownership, linked
/// worktrees), references (HEAD, branches, tags and their annotated objects), configuration,
/// the work-tree status (`{dirty}`), abbreviated ids (`{short}`) and HEAD's committer time.
/// Replace refs and grafts are honoured as git honours them (`ObjectReplacements`).
///
/// ## Repository shapes and environment variables
/// - A work tree with `.git` found upwards from `--repo` (stopping at
///   `GIT_CEILING_DIRECTORIES`), a linked worktree (`git worktree add`), a submodule (`.git`
///   file), a bare repository.
/// - The repository git's environment variables name (`RepositoryEnvironment`): `GIT_DIR` (a
///   hook, `GIT_DIR=/path/src/.git versionstamp print` inside another repository),
///   `GIT_WORK_TREE` (a dotfiles-style bare repository used with both), `GIT_INDEX_FILE`
///   (`{dirty}`), `GIT_OBJECT_DIRECTORY`, `GIT_ALTERNATE_OBJECT_DIRECTORIES`, and
///   `GIT_COMMON_DIR` when it names the git dir's own common dir.
/// - Objects in alternate stores (`git clone --shared`, `--reference`, CI reference
///   repositories): their packs are read here as fast as the repository's own.
/// - Replace refs (`git replace`, `git replace --graft`; off with `GIT_NO_REPLACE_OBJECTS` or
///   `core.useReplaceRefs=false`, moved by `GIT_REPLACE_REF_BASE`) and grafts
///   (`info/grafts`, `GIT_GRAFT_FILE`): honoured, and part of every cache key.
/// - A shallow clone (`--depth 1`, CI's default checkout): the tokens of HEAD alone (`{sha}`,
///   `{short}`, `{branch}`, `{dirty}`, `{date}`, `{timestamp}`) are answered; the history
///   answers are refused by `RevisionReader` before the engine runs (the history is cut).
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
    /// The query, its paths relative to the repository root (`RevisionQuery.relativeToRoot`).
    let query: RevisionQuery
    /// The query's paths as the caller wrote them, for messages.
    private let givenPaths: [String]
    /// The commit HEAD points to.
    let head: ObjectID
    /// Where answers are remembered between runs; nil: always computed.
    let cache: HistoryCache?
    private var loadedGraph: CommitGraph?
    private var loadedFilter: PathFilter?
    /// How many commits a derived count may walk before a full walk is cheaper.
    private static let derivationBudget = 25_000

    /// An engine answering `query` (paths relative to the root; `givenPaths` as written) for `head`.
    init(repository: GitRepository, query: RevisionQuery, givenPaths: [String], head: ObjectID, cache: HistoryCache?) {
        self.repository = repository
        self.query = query
        self.givenPaths = givenPaths
        self.head = head
        self.cache = cache
    }

    /// The history, read lazily: a warm run answered from the cache never opens it.
    private func graph() throws -> CommitGraph {
        if let loadedGraph { return loadedGraph }
        let graph = CommitGraph(store: try ObjectStore(repository: repository))
        loadedGraph = graph
        return graph
    }

    /// HEAD's tree and committer time as git reads them, for a HEAD commit libgit2 rejects:
    /// the time as `git log -1 --format=%ct` prints it (2^64-1800 for git 2.39's
    /// 1970-01-01T00:30+0100), nil where git prints none (`CommitterTime`).
    func headCommit() throws -> (tree: ObjectID, time: UInt64?) {
        let graph = try graph()
        let tree = try graph.tree(graph.node(head).node)
        let bytes = try graph.store.objectBytes(head, .commit)
        return (tree, bytes.withUnsafeBufferPointer { CommitterTime.printed(inCommit: $0) })
    }

    /// The path filter of a path-limited query, nil without paths. Throws for a path that
    /// names nothing in HEAD's tree: it would count no commit, which is never what was meant.
    private func filter() throws -> PathFilter? {
        if query.paths.isEmpty { return nil }
        if let loadedFilter { return loadedFilter }
        let graph = try graph()
        let filter = PathFilter(graph: graph, paths: query.paths)
        if let missing = try filter.firstMissingPath(in: graph.node(head).node) {
            throw VersionStampError(
                .pathNotInHead, path: givenPaths[missing],
                message: "the path matches nothing in HEAD's tree (commit \(head.hex)), so no commit would be counted; "
                    + "--path must name a directory or file tracked at HEAD, relative to --repo or the current directory"
            )
        }
        loadedFilter = filter
        return filter
    }

    /// What the replace refs and grafts in force add to a cache key: nothing when there are
    /// none, else a digest of them, so an answer cached before a `git replace` or a grafts
    /// edit is not served after it.
    private func replacementKey() throws -> [String] {
        let entries = try repository.replacements().entries
        return entries.isEmpty ? [] : ["replacements " + HistoryCache.key(entries)]
    }

    // MARK: Counts

    /// `git rev-list --count [--first-parent] HEAD [-- PATH...]`.
    ///
    /// Cached by `OPTIONS-COMMIT`. When HEAD moved since the count of another commit with the
    /// same options was cached, the count is derived from that one (`difference`), else walked
    /// in full.
    func count() throws -> Int {
        let options = HistoryCache.key(
            ["count", query.firstParent ? "first-parent" : "all"] + query.paths
                + (try replacementKey()))
        let key = options + "-" + head.hex
        let cached = cache?.entries(withPrefix: options + "-") ?? []
        if let known = cached.first(where: { $0.key == key }).flatMap({ Int($0.value) }), known >= 0 { return known }
        var count: Int?
        for (otherKey, value) in cached.prefix(3) {
            // A cached commit that is gone (a rebase, a gc) or whose walk fails is skipped.
            guard let base = Int(value), base >= 0, let baseID = ObjectID(hex: otherKey.dropFirst(options.count + 1)),
                let difference = try? countSince(base: baseID), base + difference >= 0
            else { continue }
            count = base + difference
            break
        }
        let result = try count ?? walkCount()
        cache?.store(String(result), for: key)
        return result
    }

    /// `count(HEAD) - count(base)`; nil when it cannot be derived within the budget.
    private func countSince(base: ObjectID) throws -> Int? {
        let graph = try graph()
        let filter = try filter()
        let firstParent = query.firstParent
        return try difference(from: graph.node(base).node, in: graph) { commit in
            if let filter {
                return try Self.simplifiedStep(commit, in: graph, filter: filter, firstParent: firstParent)
            }
            if firstParent { return (try graph.firstParent(commit).map { [$0] } ?? [], true) }
            return (try graph.parents(commit), true)
        }
    }

    /// The count walked from HEAD in full.
    private func walkCount() throws -> Int {
        let graph = try graph()
        if let filter = try filter() {
            return try Self.simplifiedCount(
                from: graph.node(head).node, in: graph, filter: filter, firstParent: query.firstParent)
        }
        return query.firstParent ? try graph.countFirstParents(from: head) : try graph.countReachable(from: head)
    }

    /// `count(HEAD) - count(base)` from the walk each commit's `step` makes (the parents it
    /// follows, whether it is counted):
    /// `count(HEAD) = count(X) + counted(S(HEAD) − S(X)) − counted(S(X) − S(HEAD))`, where S(C)
    /// is the set a walk from C visits. A step depends only on its commit, so S(C) is fixed by
    /// C, and the two differences are found by walking from both, newest first (`DateQueue`),
    /// marking what each reaches, until every queued commit is reached by both (everything
    /// below them is in both sets) and, as git's `limit_list` stops, the newest of them is older
    /// than every commit reached from one side only, five times in a row: a commit dated like
    /// its descendant, or an unvisited merge of the two sides above an old commit, is then
    /// still walked and marked.
    ///
    /// A commit dated before one of its descendants (clock skew) could be visited before all
    /// its marks arrive; a mark reaching a commit already visited gives up (nil), as does a walk
    /// of more than `derivationBudget` commits: the caller then walks HEAD's history in full.
    private func difference(
        from base: CommitGraph.Node, in graph: CommitGraph,
        step: (CommitGraph.Node) throws -> (followed: [CommitGraph.Node], counted: Bool)
    ) throws -> Int? {
        let tip = graph.node(head).node
        let fromHead: UInt8 = 1, fromBase: UInt8 = 2, both: UInt8 = 3
        var marks: [CommitGraph.Node: UInt8] = [tip: fromHead]
        marks[base, default: 0] |= fromBase
        var visited = Set<CommitGraph.Node>()
        var queue = DateQueue()
        var single = 0 // queued commits reached from one side only
        for start in tip == base ? [tip] : [tip, base] {
            queue.insert(start, date: try graph.date(start))
            if marks[start] != both { single += 1 }
        }
        var difference = 0
        var oldestSingle = Int64.max // the oldest date of a commit visited from one side only
        var slop = 5
        while let commit = queue.pop() {
            // Every commit queued was marked when it was queued.
            // swift-format-ignore: NeverForceUnwrap
            let mark = marks[commit]!
            if mark != both {
                single -= 1
                oldestSingle = min(oldestSingle, try graph.date(commit))
            }
            visited.insert(commit)
            if visited.count > Self.derivationBudget { return nil }
            let (followed, counted) = try step(commit)
            if counted && mark == fromHead { difference += 1 }
            if counted && mark == fromBase { difference -= 1 }
            for parent in followed {
                let old = marks[parent] ?? 0
                let new = old | mark
                if new == old { continue }
                if visited.contains(parent) { return nil } // a mark after the visit: clock skew
                marks[parent] = new
                if old == 0 {
                    queue.insert(parent, date: try graph.date(parent))
                    if new != both { single += 1 }
                } else if new == both {
                    single -= 1 // queued with one mark, now both
                }
            }
            guard single == 0 else { continue }
            guard let newest = queue.first?.date, oldestSingle != .max else { break }
            if newest >= oldestSingle {
                slop = 5
            } else {
                slop -= 1
                if slop == 0 { break }
            }
        }
        return difference
    }

    // MARK: Path-limited counts

    /// `git rev-list --count [--first-parent] TIP -- PATH...` with git's default history
    /// simplification (Documentation/rev-list-options.txt, "History Simplification"): the
    /// number of commits counted in `tip`'s simplified walk (see `simplifiedStep`).
    ///
    /// With nothing uninteresting in the walk the order of visits does not change the answer,
    /// so this walks depth-first; ranges (`TAG..HEAD`) go through `RangeWalk`, which follows
    /// git's date order because there it matters.
    private static func simplifiedCount(
        from tip: CommitGraph.Node, in graph: CommitGraph, filter: PathFilter,
        firstParent: Bool
    ) throws -> Int {
        try graph.countDepthFirst(from: tip) { commit, follow in
            let (followed, counted) = try simplifiedStep(commit, in: graph, filter: filter, firstParent: firstParent)
            followed.forEach(follow)
            return counted
        }
    }

    /// One commit of the simplified walk, the parents it follows and whether it is counted:
    /// - a commit TREESAME to one of its parents (no change under the paths; parents tried in
    ///   order) is not counted, and the walk follows only that parent;
    /// - a commit that differs from every parent is counted, and all its parents are followed;
    /// - a root commit is counted when it holds something under the paths;
    /// - with `--first-parent`, only the first parent is compared and followed.
    private static func simplifiedStep(
        _ commit: CommitGraph.Node, in graph: CommitGraph, filter: PathFilter,
        firstParent: Bool
    ) throws -> (followed: [CommitGraph.Node], counted: Bool) {
        let parents = try graph.parents(commit)
        if parents.isEmpty { return ([], try !filter.isEmpty(commit)) }
        if firstParent { return ([parents[0]], try !filter.isSame(parents[0], commit)) }
        if let same = try parents.first(where: { try filter.isSame($0, commit) }) { return ([same], false) }
        return (parents, true)
    }

    // MARK: Describe

    /// The nearest matching tag of HEAD, nil when none is reachable.
    ///
    /// Cached by everything it depends on: HEAD, the options, the tag pattern and each
    /// matching tag reference with the object it points to.
    func describe() throws -> Description? {
        let matcher = TagMatcher(pattern: query.tagPattern)
        let references = try matcher.matchingReferences(in: repository)
        let fingerprint = HistoryCache.key(references.map { "\($0.name) \($0.target.hex)" })
        let key = HistoryCache.key(
            [
                "describe", head.hex, query.firstParent ? "first-parent" : "all",
                query.tagPattern.map { "match " + $0 } ?? "all tags", fingerprint,
            ] + query.paths
                + (try replacementKey()))
        if let known = cache?.value(for: key) {
            if known == "-" { return nil } // cached: no matching tag is reachable
            if let cached = Description(cacheValue: known) { return cached }
        }
        let found = try search(names: try matcher.names(of: references, in: repository))
        cache?.store(Description.cacheValue(found), for: key)
        return found
    }

    private func search(names tagged: [ObjectID: TagMatcher.Name]) throws -> Description? {
        let graph = try graph()
        var names: [CommitGraph.Node: TagMatcher.Name] = [:]
        for (commit, name) in tagged { names[graph.node(commit).node] = name }
        let tip = graph.node(head).node
        guard let found = try DescribeWalk.describe(tip, in: graph, names: names, firstParent: query.firstParent) else {
            return nil
        }
        var distance = found.depth
        if query.firstParent || !query.paths.isEmpty {
            distance = try RangeWalk.count(
                bottom: found.commit, tip: tip, graph: graph, filter: try filter(),
                firstParent: query.firstParent)
        }
        return Description(
            tag: found.name.display, tagCommit: graph.ids[Int(found.commit)].hex,
            depth: found.depth, distance: distance)
    }
}

extension HistoryEngine.Description {
    /// `-` for no tag, else `TAG-AS-HEX,DEPTH,DISTANCE,COMMIT` (a tag object's name may hold
    /// any byte but NUL, so it is stored as hex).
    static func cacheValue(_ description: HistoryEngine.Description?) -> String {
        guard let description else { return "-" }
        let name = description.tag.utf8.map { PrintfFormat.string("%02x", $0) }.joined()
        return "\(name),\(description.depth),\(description.distance),\(description.tagCommit)"
    }

    /// Parses a cached value other than `-`; nil when malformed.
    init?(cacheValue value: String) {
        let fields = value.split(separator: ",").map(String.init)
        guard fields.count == 4, fields[0].count % 2 == 0, let depth = Int(fields[1]), let distance = Int(fields[2])
        else { return nil }
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
