/// The interior levels of a table B-tree laid out bottom-up (``ImportTableTreeWriter``), built
/// as the leaves come, so that memory stays flat however many leaves there are: each level
/// holds the children still waiting for their parent page, at most two pages' worth. When a
/// level holds that many, the first page's worth becomes an interior page (written by the
/// caller) and a child of the level above.
///
/// At the end the levels are closed bottom-up: what a level still holds goes under one or two
/// pages (evenly, so that every interior page has at least two children: SQLite takes an
/// interior page without cells for a corrupt one), until a level's children fit under the
/// root page.
struct ImportTreeLevels {
    /// A page under an interior page: its number and the largest rowid beneath it.
    struct Child {
        var page: UInt32
        var key: Int64
    }

    /// The most children an interior page takes whatever their keys: a cell of 4 bytes and a
    /// key of up to 9, a pointer of 2, after a 12-byte header; the last child is the right-most
    /// pointer.
    let perPage: Int
    /// Per level, from the leaves' parents up: the children waiting for a parent page.
    private var levels: [[Child]] = []

    init(usableSize: Int) {
        perPage = (usableSize - 12) / (4 + 9 + 2) + 1
    }

    /// True until a child was added.
    var isEmpty: Bool { levels.isEmpty }

    /// Adds a child at `level` (0: a leaf); `write` makes an interior page of children and
    /// returns its number.
    mutating func add(_ child: Child, level: Int = 0, write: (ArraySlice<Child>) throws -> UInt32) throws {
        if levels.count == level {
            levels.append([])
            levels[level].reserveCapacity(2 * perPage)
        }
        levels[level].append(child)
        guard levels[level].count == 2 * perPage else { return }
        let children = levels[level].prefix(perPage)
        let parent = Child(page: try write(children), key: children[children.endIndex - 1].key)
        levels[level].removeFirst(perPage)
        try add(parent, level: level + 1, write: write)
    }

    /// Closes every level below the root's; returns the root page's children (at least two).
    mutating func finish(write: (ArraySlice<Child>) throws -> UInt32) throws -> [Child] {
        var level = 0
        while true {
            let children = levels[level]
            // A level above exists once a page of this one was written.
            if level == levels.count - 1 && children.count <= perPage { return children }
            let pages = (children.count + perPage - 1) / perPage
            var first = 0
            for page in 0..<pages {
                let size = children.count / pages + (page < children.count % pages ? 1 : 0)
                let slice = children[first..<(first + size)]
                try add(
                    Child(page: try write(slice), key: slice[slice.endIndex - 1].key), level: level + 1, write: write)
                first += size
            }
            levels[level] = []
            level += 1
        }
    }
}
