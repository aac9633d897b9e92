/// Counting a table's rows from its B-tree's page headers (<https://www.sqlite.org/fileformat2.html#b_tree_pages>):
/// the cells of a rowid table's leaves, or every cell of a WITHOUT ROWID table's index B-tree,
/// read straight from the file (``DirectDatabaseFile``) with the interior pages read whole and
/// of each leaf only its 8-byte header. `SELECT count(*)` reads every leaf whole through the
/// page cache: for a build's summary of a gigabyte database, the difference is most of a
/// second (docs/Performance.md, "Pages written directly").
extension Connection {
    /// The number of rows of `table` in `schema`, or nil when it cannot be counted this way (no
    /// such table, a virtual table, a file SQLite will not lend, a page that is not what the
    /// tree says): then ask `count(*)`.
    ///
    /// - Throws: ``SQLiteError`` when a statement fails.
    package func rowCount(ofTable table: String, schema: String = "main") throws -> Int64? {
        let quoted = SQLIdentifier.quote(schema)
        let rows = try query(
            "SELECT rootpage, sql FROM \(quoted).sqlite_master WHERE type = 'table' AND name = ?1", [.text(table)])
        guard rows.count == 1, case .integer(let root) = rows[0].values[0], root > 0,
            case .integer(let pageSize)? = try scalar("PRAGMA \(quoted).page_size"),
            case .integer(let pageCount)? = try scalar("PRAGMA \(quoted).page_count"),
            let file = try DirectDatabaseFile.borrow(self, schema: schema)
        else { return nil }
        defer { try? file.giveBack() }
        var counter = BTreeCellCounter(file: file, pageSize: Int(pageSize), pageCount: pageCount)
        return try counter.count(root: root)
    }
}

/// Walks a B-tree from its root (see ``Connection/rowCount(ofTable:schema:)``).
private struct BTreeCellCounter {
    let file: DirectDatabaseFile
    let pageSize: Int
    let pageCount: Int64
    private var page: [UInt8]

    init(file: DirectDatabaseFile, pageSize: Int, pageCount: Int64) {
        self.file = file
        self.pageSize = pageSize
        self.pageCount = pageCount
        page = [UInt8](repeating: 0, count: pageSize)
    }

    /// The rows under `root`, or nil when a page is not a B-tree page of the root's kind.
    mutating func count(root: Int64) throws -> Int64? {
        var total: Int64 = 0
        var pending: [(page: Int64, depth: Int)] = [(root, 0)]
        var header = [UInt8](repeating: 0, count: 12)
        var family: UInt8? // 1: a table B-tree's pages (5, 13), 0: an index B-tree's (2, 10)
        while let (number, depth) = pending.popLast() {
            guard number >= 1, number <= pageCount, depth < 40 else { return nil }
            let offset = (number - 1) * Int64(pageSize)
            let start = number == 1 ? 100 : 0
            try file.read(into: &header, count: 12, at: offset + Int64(start))
            let cells = Int64(header[3]) << 8 | Int64(header[4])
            guard family.map({ header[0] & 0x01 == $0 }) ?? true else { return nil }
            family = header[0] & 0x01
            switch header[0] {
            case 0x0D, 0x0A: // a table leaf (its cells are the rows), an index leaf (its rows)
                total += cells
            case 0x05, 0x02: // a table interior page, an index interior page (whose cells are rows too)
                if header[0] == 0x02 { total += cells }
                try file.read(into: &page, count: pageSize, at: offset)
                let pointers = start + 12
                guard pointers + 2 * Int(cells) <= pageSize else { return nil }
                for cell in 0..<Int(cells) {
                    let at = Int(page[pointers + 2 * cell]) << 8 | Int(page[pointers + 2 * cell + 1])
                    guard at + 4 <= pageSize else { return nil }
                    pending.append((Self.pageNumber(page, at), depth + 1))
                }
                pending.append((Self.pageNumber(page, start + 8), depth + 1))
            default:
                return nil
            }
        }
        return total
    }

    private static func pageNumber(_ bytes: [UInt8], _ at: Int) -> Int64 {
        bytes[at..<(at + 4)].reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }
}
