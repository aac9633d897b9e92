#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SQLiteCore

/// The merge of a rowid table's two versions that compares record bytes before values: both
/// b-trees are walked in rowid order straight from the files (``TableBTreeCursor``), and a
/// row whose record is byte for byte the same in both is unchanged (one schema and one text
/// encoding: equal bytes are equal values) without being decoded; a record that overflows its
/// leaf is compared with its overflow pages (``OverflowComparison``). Only the rows whose
/// bytes differ are read through SQLite (``RowLookup``) and compared as ``RowMerge`` compares
/// them; a leaf page that is the same in both files, at the same place in the walk, and holds
/// no overflowing record, is passed over whole.
///
/// The handler is called exactly as ``RowMerge`` calls it on the same tables, so the patch
/// and the summary are the same bytes. When a file cannot be read this way (not in
/// rollback-journal mode, text encodings that differ, a page not as expected, …), or where
/// most of a stretch of 1,024 rows differ (SQLite then reads the rest at less cost than a
/// lookup a row), the table is merged by ``RowMerge`` from the first row not yet handled.
struct RecordMerge {
    /// The layout both tables have (their CREATE statements are the same).
    var layout: TableLayout
    /// How values are compared.
    var equality: ValueComparison.Equality = .exact
    /// Whether to read pages at all, and the count of what was read.
    var reading: RecordReading

    /// Merges the table of `old` and `new`, calling `handler` for each key in rowid order.
    func run<Handler: RowChangeHandler>(old: DiffInput, new: DiffInput, _ handler: inout Handler) throws {
        let rows = RowMerge(layout: layout, equality: equality)
        guard reading.mode != .sqliteOnly, layout.hasKey, layout.isRowidKey else {
            return try rows.run(old: try old.rows(layout), new: try new.rows(layout), &handler)
        }
        guard let session = RecordSession(old: old, new: new, layout: layout) else {
            reading.tablesNotWalked += 1
            return try rows.run(old: try old.rows(layout), new: try new.rows(layout), &handler)
        }
        defer { session.end() }
        reading.tablesWalked += 1
        var done: Int64?
        do {
            try merge(session, rows, &handler, &done)
        } catch let error where error is UnreadablePages || error is MostRowsDiffer {
            reading.handOvers += 1
            try rows.run(old: try old.rows(layout, after: done), new: try new.rows(layout, after: done), &handler)
        }
    }

    /// The walk; `done` is the rowid up to which every row of both tables was handled.
    private func merge<Handler: RowChangeHandler>(
        _ session: RecordSession, _ rows: RowMerge, _ handler: inout Handler, _ done: inout Int64?
    ) throws {
        var old = try TableBTreeCursor(pages: session.oldPages, root: session.oldRoot)
        var new = try TableBTreeCursor(pages: session.newPages, root: session.newRoot)
        let pageSize = session.oldPages.pageSize
        let samePageSize = pageSize == session.newPages.pageSize
        var changed: [Int32] = []
        changed.reserveCapacity(layout.allColumns.count)
        var stopAfter = Int.max
        if case .recordsStoppingAfter(let rows) = reading.mode { stopAfter = rows }
        var sameBytes = 0, leavesSkipped = 0, lookedUp = 0, handled = 0
        var checkpoint = min(Self.window, stopAfter), lookedUpBefore = 0
        defer {
            reading.rowsSameBytes += sameBytes
            reading.leavesSkipped += leavesSkipped
            reading.rowsLookedUp += lookedUp
        }
        var hasOld = try old.next(), hasNew = try new.next()
        while hasOld || hasNew {
            if handled >= checkpoint {
                if handled >= stopAfter { throw UnreadablePages(path: session.old.path, reason: "stopped (test)") }
                // Where most rows differ, SQLite reads them all at less cost than the walk and
                // a lookup each: the rest of the table is handed over.
                if lookedUp - lookedUpBefore > Self.window / 2 { throw MostRowsDiffer() }
                lookedUpBefore = lookedUp
                checkpoint = min(handled + Self.window, stopAfter)
            }
            if hasOld && hasNew && old.rowid == new.rowid {
                let rowid = old.rowid
                // (A page is never empty: its base address is not nil.)
                // swift-format-ignore: NeverForceUnwrap
                if samePageSize, old.isFirstOnLeaf, new.isFirstOnLeaf,
                    memcmp(old.leafPage.baseAddress!, new.leafPage.baseAddress!, pageSize) == 0,
                    let count = try old.skipLeafIfLocal()
                {
                    guard try new.skipLeafIfLocal() == count, new.rowid == old.rowid else {
                        throw UnreadablePages(path: session.newPages.path, reason: "a leaf read twice differs")
                    }
                    try handler.unchanged(count: count)
                    done = old.rowid
                    sameBytes += count
                    leavesSkipped += 1
                    handled += count - 1
                } else if !old.overflows && !new.overflows
                    ? Self.same(old.record, new.record) : try session.overflows.same(old, new)
                {
                    try handler.unchanged(count: 1)
                    done = rowid
                    sameBytes += 1
                } else {
                    let oldRow = try session.oldLookup.row(rowid: rowid, ordinal: old.ordinal)
                    let newRow = try session.newLookup.row(rowid: rowid, ordinal: new.ordinal)
                    try rows.report(oldRow, newRow, changed: &changed, &handler)
                    done = rowid
                    lookedUp += 1
                }
                handled += 1
                hasOld = try old.next()
                hasNew = try new.next()
            } else if hasOld && (!hasNew || old.rowid < new.rowid) {
                try handler.deleted(try session.oldLookup.row(rowid: old.rowid, ordinal: old.ordinal))
                done = old.rowid
                lookedUp += 1
                handled += 1
                hasOld = try old.next()
            } else {
                try handler.inserted(try session.newLookup.row(rowid: new.rowid, ordinal: new.ordinal))
                done = new.rowid
                lookedUp += 1
                handled += 1
                hasNew = try new.next()
            }
        }
    }

    /// Rows between two looks at how many rows differ.
    private static let window = 1024

    /// Most rows of a stretch of the table differ (SQLite reads the rest).
    private struct MostRowsDiffer: Error {}

    @inline(__always)
    private static func same(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Bool {
        guard x.count == y.count else { return false }
        guard x.count > 0, let a = x.baseAddress, let b = y.baseAddress else { return true }
        return memcmp(a, b, x.count) == 0
    }
}

/// What ``RecordMerge`` reads one table with: a read transaction on each connection (so no
/// SQLite writer changes either file meanwhile: the diff's own, or one begun here for the
/// table), both files opened page by page, the table's root pages, and a ``RowLookup`` on each
/// side. Nil when either file cannot be read so (the transactions begun here are then ended).
private final class RecordSession {
    let old: DiffInput, new: DiffInput
    let oldPages: DatabasePages, newPages: DatabasePages
    let oldRoot: UInt32, newRoot: UInt32
    let oldLookup: RowLookup, newLookup: RowLookup
    let overflows: OverflowComparison
    /// Whether this session began the transaction of each side (and so ends it).
    private let beganOld: Bool, beganNew: Bool

    init?(old: DiffInput, new: DiffInput, layout: TableLayout) {
        self.old = old
        self.new = new
        beganOld = !old.connection.isInTransaction
        beganNew = !new.connection.isInTransaction
        guard !beganOld || (try? old.beginReadTransaction()) != nil,
            !beganNew || (try? new.beginReadTransaction()) != nil
        else {
            if beganOld { old.endReadTransaction() }
            if beganNew { new.endReadTransaction() }
            return nil
        }
        do {
            let oldPages = try Self.pages(old), newPages = try Self.pages(new)
            self.oldPages = oldPages
            self.newPages = newPages
            oldRoot = try Self.root(old, layout.table, oldPages)
            newRoot = try Self.root(new, layout.table, newPages)
            guard oldPages.textEncoding == newPages.textEncoding else {
                throw UnreadablePages(path: new.path, reason: "another text encoding than the old file's")
            }
            oldLookup = try RowLookup(old, layout)
            newLookup = try RowLookup(new, layout)
            overflows = OverflowComparison(old: oldPages, new: newPages)
        } catch {
            if beganOld { old.endReadTransaction() }
            if beganNew { new.endReadTransaction() }
            return nil
        }
    }

    /// Ends the statements, then the transactions begun here, then closes the files (read
    /// through SQLite's VFS, so closing them never drops a lock; the order is for clarity).
    func end() {
        oldLookup.finish()
        newLookup.finish()
        if beganOld { old.endReadTransaction() }
        if beganNew { new.endReadTransaction() }
        oldPages.close()
        newPages.close()
    }

    /// The file read directly, checked to be the one SQLite reads (same schema cookie).
    private static func pages(_ input: DiffInput) throws -> DatabasePages {
        let pages = try DatabasePages(path: input.path)
        guard case .integer(let cookie)? = try input.connection.scalar("PRAGMA main.schema_version"),
            cookie == Int64(pages.schemaCookie)
        else {
            pages.close()
            throw UnreadablePages(path: input.path, reason: "not the file SQLite reads")
        }
        return pages
    }

    private static func root(_ input: DiffInput, _ table: String, _ pages: DatabasePages) throws -> UInt32 {
        guard
            case .integer(let root)? = try input.connection.scalar(
                "SELECT rootpage FROM main.sqlite_master WHERE type = 'table' AND name = ?", [.text(table)]),
            root >= 2, root <= Int64(pages.pageCount)
        else {
            throw UnreadablePages(path: input.path, reason: "no root page for \(table)")
        }
        return UInt32(root)
    }
}
