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

/// The commit history in memory, read lazily: a commit gets a small integer index when it is
/// first named (as a tip or someone's parent), and its parents, committer date and tree are
/// read from the object store only when first asked for (a grafted commit's parents from its
/// graft, see `ObjectReplacements`). Every history answer (counts, the
/// simplified path-limited walk, describe) works on these indices.
final class CommitGraph {
    /// Index of a commit in this graph.
    typealias Node = Int32

    let store: ObjectStore
    private(set) var ids: [ObjectID] = []
    /// Open addressing on the id's first word (ids are uniformly random): slot → node + 1, 0 empty.
    private var slots = [Node](repeating: 0, count: 1 << 12)
    /// 0: only named; 1: parents read; 2: parents, date and tree read.
    private var loaded: [UInt8] = []
    private var parentStart: [Int32] = []
    private var parentCount: [Int32] = []
    private var parentPool: [Node] = []
    private var dates: [Int64] = []
    private var trees: [ObjectID] = []

    /// Grafted commits and their parents (the store's `ObjectReplacements`).
    private let grafts: [ObjectID: [ObjectID]]

    init(store: ObjectStore) {
        self.store = store
        grafts = store.replacements.grafts
    }

    /// How many commits have been named so far.
    var nodeCount: Int { ids.count }

    /// The node of commit `id`, created (unread) when new; `isNew` tells which.
    @inline(__always)
    func node(_ id: ObjectID) -> (node: Node, isNew: Bool) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: id.w0) & mask
        while slots[slot] != 0 {
            let existing = slots[slot] - 1
            if ids[Int(existing)] == id { return (existing, false) }
            slot = (slot + 1) & mask
        }
        let node = Node(ids.count)
        slots[slot] = node + 1
        ids.append(id)
        if ids.count * 2 > slots.count { rehash() }
        loaded.append(0)
        parentStart.append(0)
        parentCount.append(0)
        dates.append(0)
        trees.append(id)
        return (node, true)
    }

    private func rehash() {
        slots = [Node](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (i, id) in ids.enumerated() {
            var slot = Int(truncatingIfNeeded: id.w0) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Node(i + 1)
        }
    }

    /// The parents of `node`, in commit order.
    func parents(_ node: Node) throws -> [Node] {
        try load(node)
        let start = Int(parentStart[Int(node)])
        return Array(parentPool[start..<(start + Int(parentCount[Int(node)]))])
    }

    /// The first parent of `node`, nil for a root commit.
    func firstParent(_ node: Node) throws -> Node? {
        try load(node)
        return parentCount[Int(node)] > 0 ? parentPool[Int(parentStart[Int(node)])] : nil
    }

    /// The committer date of `node` (Unix seconds), as git orders its walks.
    func date(_ node: Node) throws -> Int64 {
        try load(node, full: true)
        return dates[Int(node)]
    }

    /// The root tree of `node`.
    func tree(_ node: Node) throws -> ObjectID {
        try load(node) // the tree line comes first: read even for parents only
        return trees[Int(node)]
    }

    /// Reads `node`'s parents (and with `full`, its date and tree) once.
    @inline(__always)
    func load(_ node: Node, full: Bool = false) throws {
        if loaded[Int(node)] >= (full ? 2 : 1) { return }
        try read(node, full: full)
    }

    private func read(_ node: Node, full: Bool) throws {
        let i = Int(node)
        // A count needs only the parent lines: inflate the first bytes (enough for a merge's
        // two parents), more when cut short.
        var limit = full ? 1024 : 152
        var header: CommitHeader?
        while header == nil {
            header = try store.withObject(ids[i], .commit, limit: limit) { bytes, whole in
                try CommitHeader(bytes, id: ids[i], isWhole: whole, needsDate: full)
            }
            limit = limit < 4096 ? limit * 4 : .max
        }
        if loaded[i] == 0 {
            parentStart[i] = Int32(parentPool.count)
            if !grafts.isEmpty, let graft = grafts[ids[i]] {
                parentCount[i] = Int32(graft.count) // a graft's parents, whatever the commit says
                for parent in graft { parentPool.append(self.node(parent).node) }
            } else {
                // The loop above ends only once header is read.
                // swift-format-ignore: NeverForceUnwrap
                parentCount[i] = Int32(header!.parentCount)
                // As above: header is read.
                // swift-format-ignore: NeverForceUnwrap
                for k in 0..<header!.parentCount { parentPool.append(self.node(header!.parent(k)).node) }
            }
        }
        // As above: header is read.
        // swift-format-ignore: NeverForceUnwrap
        trees[i] = header!.tree
        // As above: header is read.
        // swift-format-ignore: NeverForceUnwrap
        if full { dates[i] = header!.date }
        loaded[i] = full ? 2 : 1
    }

    /// `git rev-list --count TIP` (every commit reachable from `tip`).
    func countReachable(from tip: ObjectID) throws -> Int {
        try countDepthFirst(from: node(tip).node) { commit, follow in
            try load(commit)
            let start = Int(parentStart[Int(commit)])
            for k in start..<(start + Int(parentCount[Int(commit)])) { follow(parentPool[k]) }
            return true
        }
    }

    /// Visits each commit the walk reaches from `tip` once, depth first, and returns how many
    /// `step` counted. `step` reads a commit, calls `follow` with each parent the walk goes on
    /// to, and says whether the commit counts. (Without an uninteresting commit in the walk
    /// the order of visits does not change what is reached.)
    @inline(__always)
    func countDepthFirst(from tip: Node, _ step: (Node, _ follow: (Node) -> Void) throws -> Bool) rethrows -> Int {
        var seen = [Bool](repeating: false, count: max(nodeCount, Int(tip) + 1))
        var stack: [Node] = [tip]
        seen[Int(tip)] = true
        var count = 0
        while let current = stack.popLast() {
            let counted = try step(current) { parent in
                let p = Int(parent)
                if p >= seen.count { seen.append(contentsOf: repeatElement(false, count: p - seen.count + 1024)) }
                if !seen[p] {
                    seen[p] = true
                    stack.append(parent)
                }
            }
            if counted { count += 1 }
        }
        return count
    }

    /// `git rev-list --count --first-parent TIP`: only each commit's first parent line is
    /// read (no nodes are made), so a chain of merges costs no more than a line of commits.
    func countFirstParents(from tip: ObjectID) throws -> Int {
        var current: ObjectID? = tip
        var count = 0
        while let id = current {
            count += 1
            if !grafts.isEmpty, let graft = grafts[id] {
                current = graft.first
                continue
            }
            current = try store.withObject(id, .commit, limit: 94) { bytes, _ -> ObjectID? in
                // Bytes holds at least 46 bytes when memcmp runs (checked first), so it has a base address.
                // swift-format-ignore: NeverForceUnwrap
                guard bytes.count >= 46, memcmp(bytes.baseAddress!, "tree ", 5) == 0 else {
                    throw VersionStampError.unreadableHistory("commit \(id.hex) has no tree line")
                }
                // As above: at least 94 bytes.
                // swift-format-ignore: NeverForceUnwrap
                guard bytes.count >= 94, memcmp(bytes.baseAddress! + 46, "parent ", 7) == 0 else { return nil }
                // As above: at least 94 bytes.
                // swift-format-ignore: NeverForceUnwrap
                guard let parent = ObjectID.parseHex(bytes.baseAddress! + 53) else {
                    throw VersionStampError.unreadableHistory("commit \(id.hex) has a malformed parent line")
                }
                return parent
            }
        }
        return count
    }
}

/// The header fields of a commit object that the history walk needs.
struct CommitHeader {
    var tree: ObjectID
    /// The first two parents inline (no allocation for the usual commit), the rest in `more`.
    private var first: ObjectID
    private var second: ObjectID
    private var more: [ObjectID] = []
    private(set) var parentCount = 0
    var date: Int64 = 0

    /// Parent `k` (0 is the first parent).
    func parent(_ k: Int) -> ObjectID {
        k == 0 ? first : (k == 1 ? second : more[k - 2])
    }

    private mutating func addParent(_ parent: ObjectID) {
        switch parentCount {
        case 0: first = parent
        case 1: second = parent
        default: more.append(parent)
        }
        parentCount += 1
    }

    /// Parses `tree`, `parent` lines and (with `needsDate`) the committer date as git does
    /// (a missing or malformed date is 0). Nil when `bytes`, not the whole object, stop
    /// before the fields needed.
    init?(_ bytes: UnsafeBufferPointer<UInt8>, id: ObjectID, isWhole: Bool, needsDate: Bool) throws {
        guard let base = bytes.baseAddress else { return nil } // no bytes: before every field
        let end = bytes.count
        guard end >= 46, memcmp(base, "tree ", 5) == 0, let tree = ObjectID.parseHex(base + 5) else {
            if !isWhole { return nil }
            throw VersionStampError.unreadableHistory("commit \(id.hex) has no tree line")
        }
        self.tree = tree
        first = tree
        second = tree
        var position = 46
        while position + 48 <= end, memcmp(base + position, "parent ", 7) == 0 {
            guard let parent = ObjectID.parseHex(base + position + 7) else {
                throw VersionStampError.unreadableHistory("commit \(id.hex) has a malformed parent line")
            }
            addParent(parent)
            position += 48
        }
        // Another parent line may follow beyond the bytes read.
        if !isWhole && (end - position < 7 || memcmp(base + position, "parent ", 7) == 0) { return nil }
        if needsDate {
            guard let date = CommitHeader.committerDate(base, from: position, end: end, isWhole: isWhole) else {
                return nil
            }
            self.date = date
        }
    }

    /// git's `parse_commit_date`: the parent lines must be followed by an `author` line and
    /// then a `committer` line; the date is the number after that line's first `>`, and 0
    /// when anything is missing. Nil when the bytes (not the whole object) end too soon.
    private static func committerDate(_ base: UnsafePointer<UInt8>, from start: Int, end: Int, isWhole: Bool) -> Int64?
    {
        let missing: Int64? = isWhole ? 0 : nil // past the bytes read: 0, or read more
        if end - start <= 6 { return missing }
        if memcmp(base + start, "author", 6) != 0 { return 0 }
        var p = start
        while p < end && base[p] != 10 { p += 1 }
        p += 1
        if p + 9 >= end { return missing }
        if memcmp(base + p, "committer", 9) != 0 { return 0 }
        while p < end && base[p] != 62 { p += 1 } // the first '>'
        if p >= end { return missing }
        p += 1
        let date = p
        while p < end && base[p] != 10 { p += 1 }
        if p + 1 >= end { return missing } // git wants a byte after the line's newline
        // strtoumax: leading white space, an optional '+', decimal digits.
        var digit = date
        while digit < p, [9, 10, 11, 12, 13, 32].contains(base[digit]) { digit += 1 }
        if digit < p && base[digit] == 43 { digit += 1 }
        var value: Int64 = 0
        while digit < p, base[digit] >= 48, base[digit] <= 57 {
            value = value &* 10 &+ Int64(base[digit] - 48)
            digit += 1
        }
        return value
    }
}

/// git's date-ordered commit list (`commit_list_insert_by_date` + `pop_commit`): newest
/// committer date first, and among equal dates the one inserted first. A binary heap keyed by
/// (date descending, insertion order ascending) pops in exactly that order.
struct DateQueue {
    private struct Item {
        var date: Int64
        var sequence: Int
        var node: CommitGraph.Node

        func comesBefore(_ other: Item) -> Bool {
            date != other.date ? date > other.date : sequence < other.sequence
        }
    }

    private var heap: [Item] = []
    private var nextSequence = 0

    var isEmpty: Bool { heap.isEmpty }

    /// The commit that would be popped next and its date.
    var first: (node: CommitGraph.Node, date: Int64)? { heap.first.map { ($0.node, $0.date) } }

    /// Every queued commit, in no particular order.
    var nodes: [CommitGraph.Node] { heap.map(\.node) }

    mutating func insert(_ node: CommitGraph.Node, date: Int64) {
        heap.append(Item(date: date, sequence: nextSequence, node: node))
        nextSequence += 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].comesBefore(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> CommitGraph.Node? {
        guard !heap.isEmpty else { return nil }
        let top = heap[0].node
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var best = parent
                if left < heap.count && heap[left].comesBefore(heap[best]) { best = left }
                if right < heap.count && heap[right].comesBefore(heap[best]) { best = right }
                if best == parent { break }
                heap.swapAt(parent, best)
                parent = best
            }
        }
        return top
    }
}
