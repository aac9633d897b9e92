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

/// Walks the entries of a raw tree object in stored order without copying them.
struct TreeWalker {
    /// One entry: its name (a view into the tree's bytes), canonical mode and id.
    struct Item {
        var name: UnsafeBufferPointer<UInt8>
        var entry: TreeEntry
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let id: ObjectID
    private var position: Int

    /// A walker over `bytes` starting at the entry at byte `start`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, id: ObjectID, start: Int = 0) {
        self.bytes = bytes
        self.id = id
        position = start
    }

    /// The start of the last entry of `bytes` that begins at or before `limit` (entries are
    /// `MODE NAME\0` and a 20-byte id).
    static func entryStart(atOrBefore limit: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var start = 0
        while start < bytes.count {
            guard let base = bytes.baseAddress,
                let nul = memchr(base + start, 0, bytes.count - start)
            else { return start }
            let next = base.distance(to: nul.assumingMemoryBound(to: UInt8.self)) + 21
            if next > limit { return start }
            start = next
        }
        return start
    }

    /// The next entry, nil at the end; throws on a malformed tree.
    mutating func next() throws -> Item? {
        guard position < bytes.count else { return nil }
        var mode: UInt32 = 0
        while position < bytes.count, bytes[position] != 32 {
            mode = mode << 3 | UInt32(bytes[position] &- 48) & 7
            position += 1
        }
        let nameStart = position + 1
        var nul = nameStart
        while nul < bytes.count, bytes[nul] != 0 { nul += 1 }
        guard nul + 21 <= bytes.count else { throw VersionStampError.unreadableHistory("tree \(id.hex) is malformed") }
        let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<nul])
        // The buffer is not empty here, so it has a base address.
        // swift-format-ignore: NeverForceUnwrap
        let oid = ObjectID(bytes: UnsafeRawPointer(bytes.baseAddress! + nul + 1))
        position = nul + 21
        return Item(name: name, entry: TreeEntry(id: oid, mode: TreeEntry.canonical(mode)))
    }

    /// git's `base_name_compare`: names compared bytewise, a tree's as if it ended in `/`.
    static func order(_ a: Item, _ b: Item) -> Int {
        let common = min(a.name.count, b.name.count)
        // Tree entry names are never empty, so they have a base address.
        // swift-format-ignore: NeverForceUnwrap
        let compared = memcmp(a.name.baseAddress!, b.name.baseAddress!, common)
        if compared != 0 { return Int(compared) }
        let c1: UInt8 = a.name.count > common ? a.name[common] : (a.entry.isTree ? 47 : 0)
        let c2: UInt8 = b.name.count > common ? b.name[common] : (b.entry.isTree ? 47 : 0)
        return c1 < c2 ? -1 : (c1 > c2 ? 1 : 0)
    }
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
    /// Each commit's entry at each path (`paths.count` slots per node), once computed.
    private var entryStore: [TreeEntry?] = []
    private var computed: [Bool] = []
    private var deepResults: [PairKey: Bool] = [:]
    private var recentTrees = [(id: ObjectID, bytes: [UInt8])](
        repeating: (ObjectID(bytes: [UInt8](repeating: 0, count: 20)), []), count: 8)
    private var nextRecent = 0

    private struct LookupKey: Hashable {
        var tree: ObjectID
        var step: Int32
    }

    private struct PairKey: Hashable {
        var a: ObjectID
        var b: ObjectID
    }

    /// A filter for `paths`, each relative to the repository root (`RevisionQuery.relativeToRoot`:
    /// no `.` or `..` components, the root itself `.`).
    init(graph: CommitGraph, paths: [String]) {
        self.graph = graph
        self.paths = paths.map { path in
            path == "." ? [] : path.split(separator: "/", omittingEmptySubsequences: true).map { Array($0.utf8) }
        }
    }

    /// The index of the first path under which `commit` holds nothing, nil when each names
    /// an entry of its tree.
    func firstMissingPath(in commit: CommitGraph.Node) throws -> Int? {
        try paths.indices.first { try entry(commit, $0) == nil }
    }

    /// True when `commit` and `parent` hold the same content under every path (git's
    /// REV_TREE_SAME).
    func isSame(_ parent: CommitGraph.Node, _ commit: CommitGraph.Node) throws -> Bool {
        for k in 0..<paths.count where try !sameContent(try entry(parent, k), try entry(commit, k)) { return false }
        return true
    }

    /// True when `commit` holds nothing under the paths (a root commit that adds none of them).
    func isEmpty(_ commit: CommitGraph.Node) throws -> Bool {
        for k in 0..<paths.count where try !sameContent(nil, try entry(commit, k)) { return false }
        return true
    }

    /// The entry of `commit` at path `k` (nil: nothing there).
    private func entry(_ commit: CommitGraph.Node, _ k: Int) throws -> TreeEntry? {
        let i = Int(commit)
        if i >= computed.count {
            let grow = max(i + 1 - computed.count, computed.count / 2 + 1024)
            computed.append(contentsOf: repeatElement(false, count: grow))
            entryStore.append(contentsOf: repeatElement(nil, count: grow * paths.count))
        }
        if !computed[i] {
            let root = TreeEntry(id: try graph.tree(commit), mode: TreeEntry.directoryMode)
            for (k, components) in paths.enumerated() {
                var entry: TreeEntry? = root
                for (depth, name) in components.enumerated() {
                    guard let current = entry, current.isTree else { entry = nil; break }
                    entry = try lookup(name, in: current.id, step: Int32(k * 4096 + depth))
                }
                entryStore[i * paths.count + k] = entry
            }
            computed[i] = true
        }
        return entryStore[i * paths.count + k]
    }

    private func lookup(_ name: [UInt8], in tree: ObjectID, step: Int32) throws -> TreeEntry? {
        // Root trees are nearly all distinct: only deeper lookups are worth remembering.
        let remembered = step % 4096 != 0
        let key = LookupKey(tree: tree, step: step)
        if remembered, let known = lookups[key] { return known }
        let found = try graph.store.withObject(tree, .tree) { bytes, _ -> TreeEntry? in
            var walker = TreeWalker(bytes, id: tree)
            while let item = try walker.next() {
                // Tree entry names are never empty, so they have a base address.
                // swift-format-ignore: NeverForceUnwrap
                if item.name.count == name.count && memcmp(item.name.baseAddress!, name, name.count) == 0 {
                    return item.entry
                }
            }
            return nil
        }
        if remembered { lookups[key] = .some(found) }
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

    /// Compares two trees (nil: the empty tree) entry by entry in git's tree order, stopping
    /// at the first real difference.
    private func sameTrees(_ a: ObjectID?, _ b: ObjectID?) throws -> Bool {
        // SameTrees is never asked to compare two empty trees: one of a and b is there.
        // swift-format-ignore: NeverForceUnwrap
        let key = PairKey(a: a ?? b!, b: b ?? a!)
        if a != nil && b != nil, let known = deepResults[key] { return known }
        let left = try a.map { try copyTree($0) } ?? [], right = try b.map { try copyTree($0) } ?? []
        let same = try left.withUnsafeBufferPointer { l in
            try right.withUnsafeBufferPointer { r in
                // Entries before the first differing byte are identical in both: skip them.
                let start = TreeWalker.entryStart(atOrBefore: Self.commonPrefix(l, r), in: l)
                // As above: one of a and b is there.
                // swift-format-ignore: NeverForceUnwrap
                return try sameEntries(
                    TreeWalker(l, id: a ?? b!, start: start), TreeWalker(r, id: b ?? a!, start: start))
            }
        }
        if a != nil && b != nil { deepResults[key] = same }
        return same
    }

    private func sameEntries(_ left: TreeWalker, _ right: TreeWalker) throws -> Bool {
        var left = left, right = right
        var l = try left.next(), r = try right.next()
        while l != nil || r != nil {
            // The loop runs while l or r is there: order is 1 when l is missing, -1 when r is.
            // swift-format-ignore: NeverForceUnwrap
            let order = l == nil ? 1 : (r == nil ? -1 : TreeWalker.order(l!, r!))
            if order == 0 {
                // Order 0: both are there.
                // swift-format-ignore: NeverForceUnwrap
                if try !sameContent(l!.entry, r!.entry) { return false }
                l = try left.next()
                r = try right.next()
            } else if order < 0 {
                // Order < 0: l is there.
                // swift-format-ignore: NeverForceUnwrap
                if try !sameContent(l!.entry, nil) { return false }
                l = try left.next()
            } else {
                // Order > 0: r is there.
                // swift-format-ignore: NeverForceUnwrap
                if try !sameContent(nil, r!.entry) { return false }
                r = try right.next()
            }
        }
        return true
    }

    /// The length of the longest common prefix of `a` and `b`.
    private static func commonPrefix(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let count = min(a.count, b.count)
        guard let pa = a.baseAddress, let pb = b.baseAddress else { return 0 }
        var i = 0
        while i + 8 <= count,
            UnsafeRawPointer(pa + i).loadUnaligned(as: UInt64.self)
                == UnsafeRawPointer(pb + i).loadUnaligned(as: UInt64.self)
        {
            i += 8
        }
        while i < count && pa[i] == pb[i] { i += 1 }
        return i
    }

    /// The tree's bytes; the last few are kept, as neighbouring commits compare the same trees.
    private func copyTree(_ id: ObjectID) throws -> [UInt8] {
        if let hit = recentTrees.first(where: { $0.id == id }) { return hit.bytes }
        let bytes = try graph.store.objectBytes(id, .tree)
        recentTrees[nextRecent] = (id, bytes)
        nextRecent = (nextRecent + 1) % recentTrees.count
        return bytes
    }
}
