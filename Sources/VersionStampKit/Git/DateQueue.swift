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
