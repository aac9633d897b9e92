#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Compares the records of two rows of which at least one overflows its leaf page: the bytes
/// on the leaf, then those of each overflow page in the chain (a 4-byte next page number, then
/// content), as two streams, without decoding anything. The chains are read into buffers of
/// their own, so the cursors' leaf pages stay valid.
final class OverflowComparison {
    private let old: Side
    private let new: Side

    init(old: DatabasePages, new: DatabasePages) {
        self.old = Side(pages: old)
        self.new = Side(pages: new)
    }

    /// True when the current rows of `old` and `new` hold the same record bytes.
    func same(_ oldRow: TableBTreeCursor, _ newRow: TableBTreeCursor) throws -> Bool {
        guard oldRow.recordSize == newRow.recordSize else { return false }
        old.start(oldRow)
        new.start(newRow)
        var remaining = oldRow.recordSize
        while remaining > 0 {
            if old.segment.isEmpty { try old.advance() }
            if new.segment.isEmpty { try new.advance() }
            let count = min(old.segment.count, new.segment.count, remaining)
            // Both segments hold at least one byte here: advance() never gives an empty one.
            // swift-format-ignore: NeverForceUnwrap
            if memcmp(old.segment.baseAddress!, new.segment.baseAddress!, count) != 0 { return false }
            old.consume(count)
            new.consume(count)
            remaining -= count
        }
        return true
    }

    /// One row's record as it is read: the part not yet compared of the current page.
    private final class Side {
        let pages: DatabasePages
        let buffer: UnsafeMutableRawBufferPointer
        var segment = UnsafeRawBufferPointer(start: nil, count: 0)
        /// The next overflow page (0: none).
        var nextPage: UInt32 = 0
        /// Bytes of the record on pages not read yet.
        var unread = 0

        init(pages: DatabasePages) {
            self.pages = pages
            buffer = .allocate(byteCount: pages.pageSize, alignment: 16)
        }

        deinit { buffer.deallocate() }

        func start(_ row: TableBTreeCursor) {
            segment = row.record
            nextPage = row.overflows ? row.firstOverflowPage : 0
            unread = row.recordSize - row.record.count
        }

        func consume(_ count: Int) {
            segment = UnsafeRawBufferPointer(rebasing: segment[count...])
        }

        /// Reads the next overflow page of the chain.
        func advance() throws {
            guard unread > 0, nextPage >= 2 else {
                throw UnreadablePages(path: pages.path, reason: "an overflow chain that ends early")
            }
            try pages.copy(page: nextPage, into: buffer)
            let page = UnsafeRawBufferPointer(buffer)
            nextPage = BigEndian.uint32(page, 0)
            let count = min(unread, pages.usableSize - 4)
            segment = UnsafeRawBufferPointer(rebasing: page[4..<(4 + count)])
            unread -= count
        }
    }
}
