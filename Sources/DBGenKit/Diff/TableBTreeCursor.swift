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

/// The cells of a rowid table's b-tree in rowid order, read from the file by
/// ``DatabasePages``: each row's rowid and record bytes (the payload stored on its leaf
/// page), nothing decoded.
///
/// Every page is checked before it is used (page type, cell count and pointers, varints and
/// payloads within the page, child page numbers, depth, no empty page below the root, rowids
/// strictly increasing); anything else is an ``UnreadablePages``, after which the cursor is not
/// used again. ``record`` and ``leafPage`` point into the reader's buffer: valid until the
/// cursor moves.
struct TableBTreeCursor {
    private let pages: DatabasePages
    /// The interior pages above the current leaf, root first.
    private var levels: [InteriorLevel] = []
    private var depth = 0
    /// The depth of the leaves, once one was read.
    private var leafDepth = -1
    private var leaf = UnsafeRawBufferPointer(start: nil, count: 0)
    /// Where the leaf's b-tree header starts (100 on page 1).
    private var leafHeader = 0
    private var cellCount = 0
    private var cellIndex = 0
    private var atEnd = false
    /// The part of a page that holds b-tree content.
    private let usableSize: Int
    /// The largest payload kept whole on a leaf page.
    private let maxLocal: Int
    private let minLocal: Int

    /// The current row's rowid.
    private(set) var rowid: Int64 = 0
    /// The record bytes of the current row kept on its leaf page: all of them unless
    /// ``overflows``.
    private(set) var record = UnsafeRawBufferPointer(start: nil, count: 0)
    /// True when part of the current row's record is on overflow pages.
    private(set) var overflows = false
    /// The size of the current row's whole record.
    private(set) var recordSize = 0
    /// The first overflow page of the current row's record, when it ``overflows``.
    private(set) var firstOverflowPage: UInt32 = 0
    /// The current row's position in the table, from 0.
    private(set) var ordinal = -1
    private var started = false

    /// SQLite's own limit on a b-tree's depth.
    private static let maximumDepth = 20

    /// A cursor before the first row of the table whose root page is `root`.
    init(pages: DatabasePages, root: UInt32) throws {
        self.pages = pages
        let usable = pages.usableSize
        usableSize = usable
        maxLocal = usable - 35
        minLocal = (usable - 12) * 32 / 255 - 23
        try descend(from: root)
    }

    /// True on the first row of a leaf page.
    var isFirstOnLeaf: Bool { cellIndex == 0 }

    /// The whole current leaf page.
    var leafPage: UnsafeRawBufferPointer { leaf }

    /// Moves to the next row; false at the end of the table.
    mutating func next() throws -> Bool {
        if atEnd { return false }
        cellIndex += 1
        while cellIndex >= cellCount {
            guard try nextLeaf() else {
                atEnd = true
                return false
            }
            cellIndex = 0
        }
        let previous = rowid
        try readCell(cellIndex)
        if started && rowid <= previous { throw unreadable("rowids out of order") }
        started = true
        ordinal += 1
        return true
    }

    /// When on the first row of a leaf page none of whose rows overflows: moves to its last
    /// row and returns how many rows it holds (the rows passed over are not read). Else nil.
    mutating func skipLeafIfLocal() throws -> Int? {
        guard cellIndex == 0 else { return nil }
        let first = rowid
        for index in 0..<cellCount {
            var offset = try cellOffset(index)
            // A size below 128 takes one byte (the common case, read without the loop).
            if leaf[offset] < 0x80 { continue }
            guard let size = readVarint(&offset), size <= UInt64(maxLocal) else { return nil }
        }
        try readCell(cellCount - 1)
        if rowid < first { throw unreadable("rowids out of order") }
        ordinal += cellCount - 1
        cellIndex = cellCount - 1
        return cellCount
    }

    // MARK: - Pages

    private func unreadable(_ reason: String) -> UnreadablePages {
        UnreadablePages(path: pages.path, reason: reason)
    }

    /// Reads the leftmost leaf under `root`, pushing the interior pages on the way. A page
    /// expected to be interior is copied aside; one at the depth where the leaves were
    /// (SQLite's b-trees have every leaf at one depth) is read through the read-ahead.
    private mutating func descend(from root: UInt32) throws {
        var page = root
        while true {
            guard depth < Self.maximumDepth else { throw unreadable("a b-tree deeper than \(Self.maximumDepth)") }
            let header = page == 1 ? 100 : 0
            if depth == leafDepth {
                let bytes = try pages.page(page)
                if bytes[header] == 0x0D { return try useLeaf(bytes, header: header) }
            }
            if levels.count == depth { levels.append(InteriorLevel(pageSize: pages.pageSize)) }
            let level = levels[depth]
            try pages.copy(page: page, into: level.bytes)
            switch level.bytes[header] {
            case 0x0D:
                leafDepth = depth
                return try useLeaf(try pages.page(page), header: header)
            case 0x05:
                try level.load(
                    header: header, usableSize: pages.usableSize, pageCount: pages.pageCount, path: pages.path)
                // Only the root may be empty (as SQLite has it): a tree whose pages repeat then
                // gives rows again, which the rowid order check stops.
                guard level.count > 0 || depth == 0 else { throw unreadable("an empty interior page") }
                depth += 1
                page = try level.child(0)
            default:
                throw unreadable("page \(page) is not a table b-tree page")
            }
        }
    }

    private mutating func useLeaf(_ bytes: UnsafeRawBufferPointer, header: Int) throws {
        let count = BigEndian.uint16(bytes, header + 3)
        guard header + 8 + 2 * count <= usableSize, count > 0 || depth == 0 else {
            throw unreadable("a leaf's cell count")
        }
        leaf = bytes
        leafHeader = header
        cellCount = count
        cellIndex = -1
    }

    /// Moves to the next leaf; false when the table has no more.
    private mutating func nextLeaf() throws -> Bool {
        while depth > 0 {
            let level = levels[depth - 1]
            level.next += 1
            if level.next <= level.count {
                let child = try level.child(level.next)
                try descend(from: child)
                return true
            }
            depth -= 1
        }
        return false
    }

    // MARK: - Cells

    @inline(__always)
    private func cellOffset(_ index: Int) throws -> Int {
        let offset = BigEndian.uint16(leaf, leafHeader + 8 + 2 * index)
        guard offset >= leafHeader + 8 + 2 * cellCount, offset < usableSize else {
            throw unreadable("a cell pointer out of its page")
        }
        return offset
    }

    /// Reads cell `index` of the leaf: payload size, rowid, local payload.
    @inline(__always)
    private mutating func readCell(_ index: Int) throws {
        var offset = try cellOffset(index)
        guard let size = readVarint(&offset), let key = readVarint(&offset), size <= UInt64(Int32.max) else {
            throw unreadable("a cell runs past its page")
        }
        var local = Int(size)
        overflows = local > maxLocal
        if overflows {
            let surplus = minLocal + (local - minLocal) % (usableSize - 4)
            local = surplus <= maxLocal ? surplus : minLocal
        }
        guard offset + local + (overflows ? 4 : 0) <= usableSize else { throw unreadable("a cell runs past its page") }
        rowid = Int64(bitPattern: key)
        recordSize = Int(size)
        // A page is never empty, so it has a base address.
        // swift-format-ignore: NeverForceUnwrap
        record = UnsafeRawBufferPointer(start: leaf.baseAddress! + offset, count: local) // a page is never empty
        if overflows { firstOverflowPage = BigEndian.uint32(leaf, offset + local) }
    }

    /// A varint of the file format at `offset` within the usable part of the leaf, or nil.
    @inline(__always)
    private func readVarint(_ offset: inout Int) -> UInt64? {
        TableBTreeCursor.varint(leaf, &offset, limit: usableSize)
    }

    /// A varint (1 to 9 bytes, big-endian, 7 bits a byte but the ninth's 8) at `offset`,
    /// which ends before `limit`; nil when it would not.
    @inline(__always)
    static func varint(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int, limit: Int) -> UInt64? {
        var value: UInt64 = 0
        for index in 0..<8 {
            guard offset + index < limit else { return nil }
            let byte = bytes[offset + index]
            value = value << 7 | UInt64(byte & 0x7F)
            if byte < 0x80 {
                offset += index + 1
                return value
            }
        }
        guard offset + 8 < limit else { return nil }
        value = value << 8 | UInt64(bytes[offset + 8])
        offset += 9
        return value
    }
}

/// One interior page of a table b-tree, copied, and which of its children the cursor is under.
private final class InteriorLevel {
    let bytes: UnsafeMutableRawBufferPointer
    var header = 0
    /// Its cells (each a left child); the right-most child is child `count`.
    var count = 0
    /// The child the cursor is under (0…count).
    var next = 0
    private var pageCount: UInt32 = 0
    private var usableSize = 0
    private var path = ""

    init(pageSize: Int) { bytes = .allocate(byteCount: pageSize, alignment: 16) }

    deinit { bytes.deallocate() }

    func load(header: Int, usableSize: Int, pageCount: UInt32, path: String) throws {
        let page = UnsafeRawBufferPointer(bytes)
        self.header = header
        self.pageCount = pageCount
        self.usableSize = usableSize
        self.path = path
        count = BigEndian.uint16(page, header + 3)
        next = 0
        guard header + 12 + 2 * count <= usableSize else {
            throw UnreadablePages(path: path, reason: "an interior page's cell count")
        }
    }

    /// The page number of child `index` (0…count).
    func child(_ index: Int) throws -> UInt32 {
        let page = UnsafeRawBufferPointer(bytes)
        let number: UInt32
        if index == count {
            number = BigEndian.uint32(page, header + 8)
        } else {
            let offset = BigEndian.uint16(page, header + 12 + 2 * index)
            guard offset >= header + 12 + 2 * count, offset + 4 <= usableSize else {
                throw UnreadablePages(path: path, reason: "a cell pointer out of its page")
            }
            number = BigEndian.uint32(page, offset)
        }
        guard number >= 2, number <= pageCount else {
            throw UnreadablePages(path: path, reason: "a child page \(number) out of the file")
        }
        return number
    }
}
