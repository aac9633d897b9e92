import SQLiteCore

/// Lays out a table's B-tree from records in rowid order, bottom-up, as the file format
/// defines it (<https://www.sqlite.org/fileformat2.html#b_tree_pages>): table leaf pages filled
/// in order (as SQLite's own appends leave them), a payload too big for its page spilled to a
/// chain of overflow pages, then the interior pages over the leaves, level by level, the top one
/// written to the table's root page. New pages are numbered from the end of the file on,
/// skipping the lock-byte page, and written in runs of consecutive pages.
///
/// Nothing refers to the new pages until ``finish()`` writes the root page, so a writer given up
/// halfway leaves the table as it was once the file is cut back to its old size.
final class ImportTableTreeWriter {
    private let file: DirectDatabaseFile
    let pageSize: Int
    /// The page size less the bytes each page reserves at its end.
    private let usableSize: Int
    /// The most of a payload kept on a leaf page, and the least when it spills.
    private let maxLocal: Int
    private let minLocal: Int
    private let rootPage: UInt32
    /// The page holding byte 2^30 of the file, which SQLite leaves unused (its locks live there).
    private let lockBytePage: UInt32
    /// The most pages the database may have (`PRAGMA max_page_count`).
    private let maxPageCount: UInt32
    /// The next page number to give out.
    private(set) var nextPage: UInt32

    /// Pages ready to be written: `runPages` consecutive ones from `runStart`, at most
    /// `runCapacity`: 96 KiB, more than a build's VFS gathers (64 KiB), which then passes the
    /// run through whole, and less than the default VFS writes in one call (128 KiB less one).
    /// A full run goes to `writes`, which writes it on its own thread, and a free buffer of
    /// `writes` becomes the next run.
    private var run: UnsafeMutableRawPointer
    private let writes: ImportPageWriteQueue
    private let runCapacity: Int
    private var runStart: UInt32
    private var runPages = 0

    /// The leaf being filled: its cells grow down from `contentTop`, their pointers up from 8.
    private let leaf: UnsafeMutableRawPointer
    /// What changes with each record (behind a pointer: no exclusivity checks in the inner loop).
    private struct Progress {
        var cells = 0
        var contentTop: Int
        var lastRowid: Int64 = 0
        var rows = 0
    }
    private let progress: UnsafeMutablePointer<Progress>
    private var cells: Int {
        get { progress.pointee.cells }
        set { progress.pointee.cells = newValue }
    }
    private var contentTop: Int {
        get { progress.pointee.contentTop }
        set { progress.pointee.contentTop = newValue }
    }
    /// The rowid of the last record appended.
    var lastRowid: Int64 { progress.pointee.lastRowid }
    /// Records laid out so far.
    var rows: Int { progress.pointee.rows }
    /// The interior pages over the full leaves, as far as they can be written yet.
    private var levels: ImportTreeLevels
    /// A payload that spills, assembled whole before it is cut up.
    private var scratch: [UInt8] = []

    /// A writer for the table whose root is `rootPage`, in a file of `pageCount` pages.
    init(
        file: DirectDatabaseFile, pageSize: Int, reservedBytes: Int, pageCount: UInt32, rootPage: UInt32,
        maxPageCount: UInt32
    ) throws {
        self.file = file
        self.pageSize = pageSize
        usableSize = pageSize - reservedBytes
        maxLocal = usableSize - 35
        minLocal = (usableSize - 12) * 32 / 255 - 23
        self.rootPage = rootPage
        self.maxPageCount = maxPageCount
        lockBytePage = UInt32((1 << 30) / pageSize + 1)
        nextPage = pageCount + 1
        runStart = nextPage
        runCapacity = max(1, 96 * 1024 / pageSize)
        writes = ImportPageWriteQueue(file: file, bufferBytes: runCapacity * pageSize, count: 4)
        run = try writes.take()
        leaf = .allocate(byteCount: pageSize, alignment: 16)
        leaf.initializeMemory(as: UInt8.self, repeating: 0, count: pageSize)
        progress = .allocate(capacity: 1)
        progress.initialize(to: Progress(contentTop: usableSize))
        levels = ImportTreeLevels(usableSize: usableSize)
    }

    deinit {
        writes.stop(discardQueued: true)
        leaf.deallocate()
        progress.deallocate()
    }

    /// Thrown when the database would grow past `max_page_count`, as SQLite's own insert fails.
    struct DatabaseFull: Error {}

    /// Adds the record `encoder` encoded last (its rowid above every rowid before it) to the table.
    func append(_ encoder: ImportRecordEncoder) throws {
        let record = encoder.state.pointee
        let payload = record.payloadSize
        let local = payload <= maxLocal ? payload : localSize(of: payload)
        let spills = local < payload
        let rowid = UInt64(bitPattern: record.rowid)
        var cellSize =
            (payload < 128 ? 1 : varintLength(UInt64(payload))) + (rowid < 128 ? 1 : varintLength(rowid)) + local
        if spills { cellSize += 4 }
        cellSize = max(cellSize, 4)
        var top = contentTop
        if cells > 0 && 8 + 2 * (cells + 1) > top - cellSize {
            try completeLeaf()
            top = contentTop
        }
        top -= cellSize
        contentTop = top
        let cell = (leaf + top).assumingMemoryBound(to: UInt8.self)
        storeBigEndian16(UInt16(top), at: leaf + 8 + 2 * cells)
        cells += 1
        progress.pointee.lastRowid = record.rowid
        progress.pointee.rows += 1
        var at = putVarint(UInt64(payload), cell)
        at += putVarint(rowid, cell + at)
        if !spills {
            encoder.writeRecord(to: cell + at)
            return
        }
        if scratch.count < payload { scratch = [UInt8](repeating: 0, count: payload) }
        try scratch.withUnsafeMutableBufferPointer { buffer in
            guard let whole = buffer.baseAddress else { return }
            encoder.writeRecord(to: whole)
            (cell + at).update(from: whole, count: local)
            try spill(whole + local, count: payload - local, pointerAt: cell + at + local)
        }
        if scratch.count > 1 << 20 { scratch = [] }
    }

    /// SQLite's local part of a payload bigger than `maxLocal`.
    private func localSize(of payload: Int) -> Int {
        let surplus = minLocal + (payload - minLocal) % (usableSize - 4)
        return surplus <= maxLocal ? surplus : minLocal
    }

    /// Writes `count` bytes at `bytes` to a new chain of overflow pages; the first one's number
    /// goes to `pointer`.
    private func spill(_ bytes: UnsafeMutablePointer<UInt8>, count: Int, pointerAt pointer: UnsafeMutablePointer<UInt8>)
        throws
    {
        let perPage = usableSize - 4
        var page = try allocate()
        storeBigEndian32(page, at: UnsafeMutableRawPointer(pointer))
        var offset = 0
        while offset < count {
            let chunk = min(perPage, count - offset)
            let isLast = offset + chunk == count
            let next = isLast ? 0 : try allocate()
            let target = try slot(for: page)
            target.initializeMemory(as: UInt8.self, repeating: 0, count: pageSize)
            storeBigEndian32(next, at: target)
            (target + 4).copyMemory(from: bytes + offset, byteCount: chunk)
            offset += chunk
            page = next
        }
    }

    /// The next page number, past the lock-byte page.
    private func allocate() throws -> UInt32 {
        if nextPage == lockBytePage { nextPage += 1 }
        guard nextPage <= maxPageCount else { throw DatabaseFull() }
        let page = nextPage
        nextPage += 1
        return page
    }

    /// The place in the run of page `page`, given out after every page placed before it (the
    /// lock-byte page, skipped, starts a new run). Writes the run when full.
    private func slot(for page: UInt32) throws -> UnsafeMutableRawPointer {
        precondition(page >= runStart + UInt32(runPages), "pages are placed in the order they are given out")
        if runPages == runCapacity || (runPages > 0 && page != runStart + UInt32(runPages)) {
            try flushRun()
        }
        if runPages == 0 { runStart = page }
        runPages += 1
        return run + (runPages - 1) * pageSize
    }

    private func flushRun() throws {
        guard runPages > 0 else { return }
        writes.submit(run, count: runPages * pageSize, at: Int64(runStart - 1) * Int64(pageSize))
        runStart += UInt32(runPages)
        runPages = 0
        run = try writes.take()
    }

    /// Stops writing: every page queued is dropped, and none is being written when this returns
    /// (before the file is put back as it was, after an error).
    func abandon() {
        writes.stop(discardQueued: true)
    }

    /// Ends the leaf being filled: its header, then it goes to the run.
    private func completeLeaf() throws {
        finishHeader(of: leaf, flag: 0x0D, cells: cells, contentTop: contentTop)
        let page = try allocate()
        try slot(for: page).copyMemory(from: leaf, byteCount: pageSize)
        try levels.add(ImportTreeLevels.Child(page: page, key: lastRowid)) { try writeInteriorPage($0) }
        cells = 0
        contentTop = usableSize
    }

    /// The header of a page whose cell pointers and cells are in place; the gap between them zeroed.
    private func finishHeader(of page: UnsafeMutableRawPointer, flag: UInt8, cells: Int, contentTop: Int) {
        let headerSize = flag == 0x0D ? 8 : 12
        page.storeBytes(of: flag, as: UInt8.self)
        storeBigEndian16(0, at: page + 1)
        storeBigEndian16(UInt16(cells), at: page + 3)
        storeBigEndian16(UInt16(truncatingIfNeeded: contentTop), at: page + 5) // 65536 is written 0
        page.storeBytes(of: 0, toByteOffset: 7, as: UInt8.self)
        let gap = headerSize + 2 * cells
        (page + gap).initializeMemory(as: UInt8.self, repeating: 0, count: contentTop - gap)
    }

    /// Writes what is left: the last leaf, the interior levels, and the root page. Returns the
    /// file's page count. Nothing is written when no record was appended.
    func finish() throws -> UInt32 {
        guard rows > 0 else { return nextPage - 1 }
        let top = UnsafeMutableRawPointer.allocate(byteCount: pageSize, alignment: 16)
        defer { top.deallocate() }
        if levels.isEmpty {
            // One leaf: it is the root.
            finishHeader(of: leaf, flag: 0x0D, cells: cells, contentTop: contentTop)
            top.copyMemory(from: leaf, byteCount: pageSize)
        } else {
            try completeLeaf()
            let children = try levels.finish { try writeInteriorPage($0) }
            writeInterior(into: top, children: children[...])
        }
        try flushRun()
        try writes.drain()
        writes.stop()
        try file.write(top, count: pageSize, at: Int64(rootPage - 1) * Int64(pageSize))
        return nextPage - 1
    }

    /// A new interior page over `children`; returns its number.
    private func writeInteriorPage(_ children: ArraySlice<ImportTreeLevels.Child>) throws -> UInt32 {
        let page = try allocate()
        writeInterior(into: try slot(for: page), children: children)
        return page
    }

    /// An interior table page over `children` (at least two): a cell (child, its largest
    /// rowid) for each but the last, which is the right-most pointer.
    private func writeInterior(into page: UnsafeMutableRawPointer, children: ArraySlice<ImportTreeLevels.Child>) {
        page.initializeMemory(as: UInt8.self, repeating: 0, count: pageSize)
        var top = usableSize
        var index = 0
        for child in children.dropLast() {
            let key = UInt64(bitPattern: child.key)
            top -= 4 + varintLength(key)
            storeBigEndian32(child.page, at: page + top)
            _ = putVarint(key, (page + top + 4).assumingMemoryBound(to: UInt8.self))
            storeBigEndian16(UInt16(top), at: page + 12 + 2 * index)
            index += 1
        }
        storeBigEndian32(children[children.endIndex - 1].page, at: page + 8)
        finishHeader(of: page, flag: 0x05, cells: index, contentTop: top)
    }
}

/// Writes `value` as an SQLite varint at `out`; returns its length.
@inline(__always)
func putVarint(_ value: UInt64, _ out: UnsafeMutablePointer<UInt8>) -> Int {
    if value <= 0x7F {
        out[0] = UInt8(value)
        return 1
    }
    if value <= 0x3FFF {
        out[0] = UInt8(truncatingIfNeeded: value >> 7) | 0x80
        out[1] = UInt8(truncatingIfNeeded: value) & 0x7F
        return 2
    }
    if value & (0xFF00_0000 << 32) != 0 {
        // Nine bytes: eight of seven bits, the last of eight.
        out[8] = UInt8(truncatingIfNeeded: value)
        var rest = value >> 8
        for index in stride(from: 7, through: 0, by: -1) {
            out[index] = UInt8(truncatingIfNeeded: rest) & 0x7F | 0x80
            rest >>= 7
        }
        return 9
    }
    let length = varintLength(value)
    var rest = value
    for index in stride(from: length - 1, through: 0, by: -1) {
        out[index] = UInt8(truncatingIfNeeded: rest) & 0x7F | (index == length - 1 ? 0 : 0x80)
        rest >>= 7
    }
    return length
}

/// Copies `count` bytes, short ones with two overlapping loads and stores (which touch no byte
/// outside either range), longer ones with `memcpy`.
@inline(__always)
func copyBytes(from source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
    let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(target)
    switch count {
    case 0:
        return
    case 1...3:
        to.storeBytes(of: from.load(as: UInt8.self), as: UInt8.self)
        to.storeBytes(of: from.load(fromByteOffset: count / 2, as: UInt8.self), toByteOffset: count / 2, as: UInt8.self)
        to.storeBytes(of: from.load(fromByteOffset: count - 1, as: UInt8.self), toByteOffset: count - 1, as: UInt8.self)
    case 4...7:
        let head = from.loadUnaligned(as: UInt32.self)
        let tail = from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        to.storeBytes(of: head, as: UInt32.self)
        to.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
    case 8...16:
        let head = from.loadUnaligned(as: UInt64.self)
        let tail = from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        to.storeBytes(of: head, as: UInt64.self)
        to.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
    default:
        to.copyMemory(from: from, byteCount: count)
    }
}

/// The low `bytes` bytes (1, 2, 3, 4, 6 or 8) of `value`, most significant first.
@inline(__always)
func putBigEndian(_ value: UInt64, bytes: Int, _ out: UnsafeMutablePointer<UInt8>) {
    let to = UnsafeMutableRawPointer(out)
    switch bytes {
    case 1:
        to.storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
    case 2:
        to.storeBytes(of: UInt16(truncatingIfNeeded: value).bigEndian, as: UInt16.self)
    case 3:
        to.storeBytes(of: UInt16(truncatingIfNeeded: value >> 8).bigEndian, as: UInt16.self)
        to.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: 2, as: UInt8.self)
    case 4:
        to.storeBytes(of: UInt32(truncatingIfNeeded: value).bigEndian, as: UInt32.self)
    case 6:
        to.storeBytes(of: UInt16(truncatingIfNeeded: value >> 32).bigEndian, as: UInt16.self)
        to.storeBytes(of: UInt32(truncatingIfNeeded: value).bigEndian, toByteOffset: 2, as: UInt32.self)
    default:
        to.storeBytes(of: value.bigEndian, as: UInt64.self)
    }
}

@inline(__always)
func storeBigEndian16(_ value: UInt16, at pointer: UnsafeMutableRawPointer) {
    pointer.storeBytes(of: value.bigEndian, as: UInt16.self)
}

@inline(__always)
func storeBigEndian32(_ value: UInt32, at pointer: UnsafeMutableRawPointer) {
    pointer.storeBytes(of: value.bigEndian, as: UInt32.self)
}
