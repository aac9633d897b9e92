#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SQLiteCore

/// Why a database file is not read page by page (its header, or a page, is not as
/// ``DatabasePages`` and ``TableBTreeCursor`` expect): the diff then reads the table through
/// SQLite, from where the direct read stopped.
struct UnreadablePages: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "\(path): \(reason)" }
}

/// A database file read page by page as the SQLite file format lays it out
/// (<https://www.sqlite.org/fileformat2.html>), read-only, for ``RecordMerge``.
///
/// Only files in rollback-journal mode are read (a WAL database's newest pages may be in its
/// `-wal` file). The reader is opened while the file's SQLite connection holds a read
/// transaction (a SHARED lock, so no SQLite writer changes the file meanwhile). The file is
/// read through SQLite's own VFS (`DatabaseFileReader`), never a descriptor of this type's:
/// closing a descriptor drops every POSIX lock the process holds on the file, SQLite's
/// included, and SQLite keeps its own open until no lock is held, so this reader may be
/// closed at any time. Every read is bounds-checked; a short read (a file cut while read) is
/// an ``UnreadablePages``.
final class DatabasePages {
    let path: String
    /// Bytes per page.
    let pageSize: Int
    /// Bytes of a page that hold b-tree content (the page size less the reserved bytes).
    let usableSize: Int
    /// Pages in the database.
    let pageCount: UInt32
    /// The text encoding of every TEXT value (1 UTF-8, 2 UTF-16le, 3 UTF-16be).
    let textEncoding: UInt32
    /// The schema cookie (bumped by SQLite on every schema change).
    let schemaCookie: UInt32
    private let file: DatabaseFileReader
    /// Recently read consecutive pages: leaves are mostly in file order, read many at a time.
    private let chunk: UnsafeMutableRawBufferPointer
    private var chunkFirst: UInt32 = 0
    private var chunkPages: UInt32 = 0
    private var runPages: UInt32 = 1
    private var lastPage: UInt32 = 0
    private static let maximumRunPages: UInt32 = 32

    /// Opens `path` and reads its header.
    init(path: String) throws {
        self.path = path
        let file: DatabaseFileReader
        do {
            file = try DatabaseFileReader(path: path)
        } catch let error as DatabaseFileReadError {
            throw UnreadablePages(path: path, reason: "cannot open it: \(error.reason)")
        }
        var header = [UInt8](repeating: 0, count: 100)
        let fields: Header
        do {
            let size = try Self.unreadable(path) { try file.size() }
            try header.withUnsafeMutableBytes { try Self.readFully(file, $0, at: 0) }
            fields = try Self.check(header: header, fileSize: Int(size), path: path)
        } catch {
            file.close()
            throw error
        }
        self.file = file
        pageSize = fields.pageSize
        usableSize = fields.usableSize
        pageCount = fields.pageCount
        textEncoding = fields.textEncoding
        schemaCookie = fields.schemaCookie
        chunk = .allocate(byteCount: pageSize * Int(Self.maximumRunPages), alignment: 16)
    }

    deinit {
        close()
        chunk.deallocate()
    }

    /// Closes the file (idempotent).
    func close() {
        file.close()
    }

    /// What the diff needs of the 100-byte database header.
    private struct Header {
        var pageSize: Int
        var usableSize: Int
        var pageCount: UInt32
        var textEncoding: UInt32
        var schemaCookie: UInt32
    }

    private static func check(header: [UInt8], fileSize: Int, path: String) throws -> Header {
        func unreadable(_ reason: String) -> UnreadablePages { UnreadablePages(path: path, reason: reason) }
        guard header.starts(with: Array("SQLite format 3\u{0}".utf8)) else { throw unreadable("not a database") }
        let raw = Int(BigEndian.uint16(header, 16))
        let pageSize = raw == 1 ? 65536 : raw
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
            throw unreadable("page size \(raw)")
        }
        guard header[18] == 1, header[19] == 1 else { throw unreadable("not in rollback-journal mode") }
        let usableSize = pageSize - Int(header[20])
        guard usableSize >= 480, header[21] == 64, header[22] == 32, header[23] == 32 else {
            throw unreadable("reserved bytes or payload fractions")
        }
        let filePages = fileSize / pageSize
        var pageCount = UInt32(clamping: filePages)
        // The size in the header is valid when written by the same change as the counter.
        if BigEndian.uint32(header, 92) == BigEndian.uint32(header, 24) {
            let declared = BigEndian.uint32(header, 28)
            guard declared >= 1, Int(declared) <= filePages else { throw unreadable("page count \(declared)") }
            pageCount = declared
        }
        guard pageCount >= 1 else { throw unreadable("empty") }
        let encoding = BigEndian.uint32(header, 56)
        guard (1...3).contains(encoding) else { throw unreadable("text encoding \(encoding)") }
        return Header(
            pageSize: pageSize, usableSize: usableSize, pageCount: pageCount, textEncoding: encoding,
            schemaCookie: BigEndian.uint32(header, 40))
    }

    /// Page `number` (1-based), valid until the next call of this method.
    func page(_ number: UInt32) throws -> UnsafeRawBufferPointer {
        guard number >= 1, number <= pageCount else {
            throw UnreadablePages(path: path, reason: "page \(number) is past the end")
        }
        if number < chunkFirst || number >= chunkFirst + chunkPages {
            // Read ahead further while the pages asked for follow each other in the file.
            runPages = number == lastPage + 1 ? min(runPages * 2, Self.maximumRunPages) : 1
            let count = min(runPages, pageCount - number + 1)
            let bytes = UnsafeMutableRawBufferPointer(rebasing: chunk[0..<(Int(count) * pageSize)])
            chunkPages = 0
            try Self.readFully(file, bytes, at: (Int(number) - 1) * pageSize)
            chunkFirst = number
            chunkPages = count
        }
        lastPage = number
        let start = Int(number - chunkFirst) * pageSize
        return UnsafeRawBufferPointer(rebasing: chunk[start..<(start + pageSize)])
    }

    /// Copies page `number` into `buffer` (`pageSize` bytes), outside the read-ahead.
    func copy(page number: UInt32, into buffer: UnsafeMutableRawBufferPointer) throws {
        guard number >= 1, number <= pageCount else {
            throw UnreadablePages(path: path, reason: "page \(number) is past the end")
        }
        try Self.readFully(file, buffer, at: (Int(number) - 1) * pageSize)
    }

    private static func readFully(
        _ file: DatabaseFileReader, _ buffer: UnsafeMutableRawBufferPointer, at offset: Int
    ) throws {
        try unreadable(file.path) { try file.read(into: buffer, at: Int64(offset)) }
    }

    /// Runs a read of `path`, its failure an ``UnreadablePages``.
    private static func unreadable<T>(_ path: String, _ read: () throws -> T) throws -> T {
        do {
            return try read()
        } catch let error as DatabaseFileReadError {
            throw UnreadablePages(
                path: path, reason: error.code == 0 ? "the file is shorter than its pages" : error.reason)
        }
    }
}

/// Big-endian integers of the file format.
enum BigEndian {
    @inline(__always)
    static func uint16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    @inline(__always)
    static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    @inline(__always)
    static func uint16(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> Int {
        Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    @inline(__always)
    static func uint32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }
}

/// The C library's `close`, which ``DatabasePages/close()`` shadows inside the class.
private func closeDescriptor(_ descriptor: Int32) {
    #if canImport(Darwin)
    _ = Darwin.close(descriptor)
    #elseif canImport(Glibc)
    _ = Glibc.close(descriptor)
    #else
    _ = Musl.close(descriptor)
    #endif
}
