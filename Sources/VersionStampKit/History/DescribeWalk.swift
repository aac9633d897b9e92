import CGit2
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
    static func describe(
        _ head: CommitGraph.Node, in graph: CommitGraph,
        names: [CommitGraph.Node: TagMatcher.Name], firstParent: Bool
    ) throws -> Result? {
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
                    candidates.append(
                        Candidate(
                            name: name, commit: commit, depth: seenCommits - 1,
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
    private static func finishDepth(
        _ best: inout Candidate, queue: inout DateQueue,
        flags: inout NodeFlags, graph: CommitGraph
    ) throws {
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
            if Int(node) >= bits.count {
                bits.append(contentsOf: repeatElement(0, count: Int(node) - bits.count + 1024))
            }
            bits[Int(node)] = newValue
        }
    }
}

/// The tags `git describe --tags --match GLOB` may use, one per tagged commit, chosen as git
/// chooses: tags are read in reference-name order; an annotated tag wins over a lightweight
/// one on the same commit, and of two annotated tags the one with the later tagger date
/// (the first read on a tie); of two lightweight tags, the first read.
struct TagMatcher {
    /// A tag naming a commit.
    struct Name: Equatable {
        /// What describe prints: the tag object's own name for an annotated tag (which may
        /// differ from its reference), else the reference name after `refs/tags/`.
        var display: String
        /// 2 for an annotated tag, 1 for a lightweight one.
        var priority: Int
        /// The tagger date of an annotated tag (0 without a tagger line).
        var taggerDate: Int64
    }

    /// The glob (`fnmatch` without `FNM_PATHNAME`, as git's `wildmatch` with no flags: `*`
    /// also matches `/`), nil for every tag.
    let pattern: String?

    /// True when `name` (without `refs/tags/`) matches the pattern.
    func matches(_ name: String) -> Bool {
        guard let pattern else { return true }
        return fnmatch(pattern, name, 0) == 0
    }

    /// The matching `refs/tags/` references and the objects they point to, sorted by name:
    /// everything the chosen names depend on.
    func matchingReferences(in repository: GitRepository) throws -> [(name: String, target: git_oid)] {
        try tagReferences(repository).filter { matches(String($0.0.dropFirst("refs/tags/".count))) }
    }

    /// The tags of `references` (from `matchingReferences`) by the commit they name (tags of
    /// trees or blobs are left out, as describe leaves them out).
    func names(of references: [(name: String, target: git_oid)], in repository: GitRepository) throws -> [ObjectID:
        Name]
    {
        var result: [ObjectID: Name] = [:]
        for (refname, target) in references {
            let short = String(refname.dropFirst("refs/tags/".count))
            guard let peeled = try peel(target, in: repository) else { continue }
            let candidate = Name(
                display: peeled.tagName ?? short, priority: peeled.tagName == nil ? 1 : 2,
                taggerDate: peeled.taggerDate)
            if let existing = result[peeled.commit] {
                guard
                    existing.priority < candidate.priority
                        || (existing.priority == 2 && candidate.priority == 2
                            && existing.taggerDate < candidate.taggerDate)
                else { continue }
            }
            result[peeled.commit] = candidate
        }
        return result
    }

    /// Every `refs/tags/` reference and the object it points to, sorted by name.
    private func tagReferences(_ repository: GitRepository) throws -> [(String, git_oid)] {
        try repository.references(under: "refs/tags/").sorted {
            Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8))
        }
    }

    /// True when the object `id` is a commit, told by its header alone: libgit2 cannot parse
    /// some commits git reads (a date beyond its range), and describe needs only the id.
    private static func isCommit(_ id: git_oid, in repository: GitRepository) -> Bool {
        var odb: OpaquePointer?
        guard git_repository_odb(&odb, repository.handle) == 0 else { return false }
        defer { git_odb_free(odb) }
        var oid = id
        var size = 0
        var type = GIT_OBJECT_INVALID
        return git_odb_read_header(&size, &type, odb, &oid) == 0 && type == GIT_OBJECT_COMMIT
    }

    /// Follows tag objects to the commit; the outermost tag's name and date when annotated.
    private func peel(_ target: git_oid, in repository: GitRepository)
        throws -> (commit: ObjectID, tagName: String?, taggerDate: Int64)?
    {
        var id = target
        var tagName: String?
        var taggerDate: Int64 = 0
        let replacements = try repository.replacements()
        for _ in 0..<32 {
            if Self.isCommit(id, in: repository) { return (ObjectID(id), tagName, taggerDate) }
            var object: OpaquePointer?
            // A replaced tag or commit reads as its replacement.
            var content = replacements.content(of: ObjectID(id)).gitOID
            guard git_object_lookup(&object, repository.handle, &content, GIT_OBJECT_ANY) == 0 else { return nil }
            defer { git_object_free(object) }
            switch git_object_type(object) {
            case GIT_OBJECT_COMMIT:
                return (ObjectID(id), tagName, taggerDate)
            case GIT_OBJECT_TAG:
                if tagName == nil {
                    tagName = String(cString: git_tag_name(object))
                    taggerDate = git_tag_tagger(object).map { Int64($0.pointee.when.time) } ?? 0
                }
                id = git_tag_target_id(object).pointee
            default:
                return nil
            }
        }
        return nil
    }
}
