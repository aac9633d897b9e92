import Foundation

/// A tree entry as git's tree diff sees it: the object id and the canonical mode (git reads
/// every regular-file mode as 100644 or 100755, so an old tree's 100664 equals 100644).
struct TreeEntry: Hashable {
    var id: ObjectID
    var mode: UInt32

    static let directoryMode: UInt32 = 0o040000

    var isTree: Bool { mode == TreeEntry.directoryMode }

    /// git's `canon_mode`.
    static func canonical(_ mode: UInt32) -> UInt32 {
        switch mode & 0o170000 {
        case 0o100000: return mode & 0o100 != 0 ? 0o100755 : 0o100644
        case 0o120000: return 0o120000
        case 0o040000: return 0o040000
        default: return 0o160000
        }
    }
}

/// The entries of a tree object, in stored order.
func parseTree(_ bytes: UnsafeBufferPointer<UInt8>, id: ObjectID) throws -> [(name: ArraySlice<UInt8>, entry: TreeEntry)] {
    var result: [(name: ArraySlice<UInt8>, entry: TreeEntry)] = []
    let all = Array(bytes)
    var position = 0
    while position < all.count {
        var mode: UInt32 = 0
        while position < all.count, all[position] != 32 {
            mode = mode << 3 | UInt32(all[position] &- 48) & 7
            position += 1
        }
        guard let nul = all[position...].firstIndex(of: 0), nul + 21 <= all.count else {
            throw HistoryErrors.damaged("tree \(id.hex) is malformed")
        }
        let name = all[(position + 1)..<nul]
        let oid = all.withUnsafeBytes { ObjectID(bytes: $0.baseAddress! + nul + 1) }
        result.append((name, TreeEntry(id: oid, mode: TreeEntry.canonical(mode))))
        position = nul + 21
    }
    return result
}

/// The paths of a path-limited count (`git rev-list HEAD -- PATH...`) and the test git's
/// history simplification asks of each commit: does it differ from a parent under those
/// paths (TREESAME or not)?
///
/// Rather than diffing whole trees per commit, each commit's entry at each path is found by
/// following the path's components from its root tree (lookups memoised by tree id, so a
/// subtree shared by many commits is read once) and the entries are compared; only when two
/// entries differ in id is the subtree compared entry by entry (with canonical modes, so a
/// tree re-written from 100664 to 100644 is no change, as in git).
final class PathFilter {
    private let graph: CommitGraph
    private let paths: [[[UInt8]]]
    private var lookups: [LookupKey: TreeEntry?] = [:]
    private var entriesByCommit: [CommitGraph.Node: [TreeEntry?]] = [:]
    private var deepResults: [PairKey: Bool] = [:]

    private struct LookupKey: Hashable {
        var tree: ObjectID
        var step: Int32
    }

    private struct PairKey: Hashable {
        var a: ObjectID
        var b: ObjectID
    }

    /// A filter for `paths`, each relative to the repository root and already normalised.
    init(graph: CommitGraph, paths: [String]) {
        self.graph = graph
        self.paths = paths.map { path in
            path.split(separator: "/", omittingEmptySubsequences: true).map { Array($0.utf8) }
        }
    }

    /// The root-relative form of `path` (`a/./b/` → `a/b`, `.` → ``); throws when it leads
    /// outside the repository whose work tree is `root`.
    static func normalize(_ path: String, root: String?) throws -> String {
        var relative = path
        if path.hasPrefix("/") {
            let base = (root ?? "").hasSuffix("/") ? (root ?? "") : (root ?? "") + "/"
            guard let root, path == root || path.hasPrefix(base) else {
                throw HistoryErrors.pathOutside(path, root: root)
            }
            relative = String(path.dropFirst(min(path.count, base.count)))
        }
        var components: [Substring] = []
        for component in relative.split(separator: "/", omittingEmptySubsequences: true) {
            if component == "." { continue }
            if component == ".." {
                guard components.popLast() != nil else { throw HistoryErrors.pathOutside(path, root: root) }
                continue
            }
            components.append(component)
        }
        return components.joined(separator: "/")
    }

    /// True when `commit` and `parent` hold the same content under every path (git's
    /// REV_TREE_SAME).
    func isSame(_ parent: CommitGraph.Node, _ commit: CommitGraph.Node) throws -> Bool {
        let a = try entries(parent), b = try entries(commit)
        for k in 0..<paths.count where try !sameContent(a[k], b[k]) { return false }
        return true
    }

    /// True when `commit` holds nothing under the paths (a root commit that adds none of them).
    func isEmpty(_ commit: CommitGraph.Node) throws -> Bool {
        let b = try entries(commit)
        for k in 0..<paths.count where try !sameContent(nil, b[k]) { return false }
        return true
    }

    private func entries(_ commit: CommitGraph.Node) throws -> [TreeEntry?] {
        if let known = entriesByCommit[commit] { return known }
        let root = TreeEntry(id: try graph.tree(commit), mode: TreeEntry.directoryMode)
        var result: [TreeEntry?] = []
        for (k, components) in paths.enumerated() {
            var entry: TreeEntry? = root
            for (depth, name) in components.enumerated() {
                guard let current = entry, current.isTree else { entry = nil; break }
                entry = try lookup(name, in: current.id, step: Int32(k * 4096 + depth))
            }
            result.append(entry)
        }
        entriesByCommit[commit] = result
        return result
    }

    private func lookup(_ name: [UInt8], in tree: ObjectID, step: Int32) throws -> TreeEntry? {
        let key = LookupKey(tree: tree, step: step)
        if let known = lookups[key] { return known }
        let found = try graph.store.withObject(tree, .tree) { bytes, _ in
            try parseTree(bytes, id: tree).first { $0.name.elementsEqual(name) }?.entry
        }
        lookups[key] = .some(found)
        return found
    }

    /// True when git's recursive tree diff finds no change between `a` and `b` (nil: absent).
    private func sameContent(_ a: TreeEntry?, _ b: TreeEntry?) throws -> Bool {
        if a == b { return true }
        switch (a, b) {
        case let (a?, b?) where a.isTree && b.isTree: return try sameTrees(a.id, b.id)
        case let (a?, nil) where a.isTree: return try sameTrees(a.id, nil)
        case let (nil, b?) where b.isTree: return try sameTrees(nil, b.id)
        default: return false
        }
    }

    /// Compares two trees (nil: the empty tree) entry by entry.
    private func sameTrees(_ a: ObjectID?, _ b: ObjectID?) throws -> Bool {
        let key = PairKey(a: a ?? b!, b: b ?? a!)
        if a != nil && b != nil, let known = deepResults[key] { return known }
        var left: [ArraySlice<UInt8>: TreeEntry] = [:]
        if let a {
            try graph.store.withObject(a, .tree) { bytes, _ in
                for item in try parseTree(bytes, id: a) { left[item.name] = item.entry }
            }
        }
        var right: [(name: ArraySlice<UInt8>, entry: TreeEntry)] = []
        if let b {
            right = try graph.store.withObject(b, .tree) { bytes, _ in try parseTree(bytes, id: b) }
        }
        var same = true
        for item in right {
            let other = left.removeValue(forKey: item.name)
            if try !sameContent(other, item.entry) { same = false; break }
        }
        if same {
            for entry in left.values where try !sameContent(entry, nil) { same = false; break }
        }
        if a != nil && b != nil { deepResults[key] = same }
        return same
    }
}
